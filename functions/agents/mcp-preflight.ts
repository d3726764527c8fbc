/** CORS preflight of the MCP endpoint: 204 with its grants for an origin that may call it, 403 for any other. */
import { agentOriginNotAllowedResult } from '../../shared/agents/agent-errors.ts';
import { agentPreflightHeaders } from '../../shared/platform/http/cors.ts';
import { securityHeaders } from '../../shared/platform/http/errors.ts';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types.ts';

export const handler = async (event: HttpEvent): Promise<HttpResult> => {
  const grants = agentPreflightHeaders(event.headers?.origin);
  return grants ? { statusCode: 204, headers: { ...securityHeaders(), ...grants } } : agentOriginNotAllowedResult();
};
