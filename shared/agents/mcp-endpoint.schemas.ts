/**
 * The MCP endpoint's and the server cards' response schemas, apart from the routes: a route object that holds no call
 * is left out of the bundles of the module's other routes (the MCP tokens' functions carry neither these routes nor
 * these schemas).
 */
import * as v from 'valibot';
import { MCP_PATH } from '../domain/agent-scopes.ts';
import { httpsUrl } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';

const jsonRpcMessage = v.looseObject({ jsonrpc: v.literal('2.0') });

/** A JSON-RPC message or batch, as the MCP endpoint answers. */
export const jsonRpcResponse = named('JsonRpcResponse', v.union([jsonRpcMessage, v.array(jsonRpcMessage)]));

/** A JSON-RPC error answer of the MCP transport itself, to a request it could not read (no request id: `null`). */
export const jsonRpcError = named(
  'JsonRpcError',
  v.strictObject({
    jsonrpc: v.literal('2.0'),
    id: v.nullable(v.union([v.string(), v.number()])),
    error: v.strictObject({ code: v.pipe(v.number(), v.integer()), message: v.string(), data: v.optional(v.unknown()) }),
  }),
);

const remote = v.strictObject({ type: v.literal('streamable-http'), url: httpsOrLocalUrl(), supportedProtocolVersions: v.array(v.string()) });

/** An absolute URL: https, or http on the local stack. */
function httpsOrLocalUrl() {
  return v.union([httpsUrl, v.pipe(v.string(), v.regex(/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//))]);
}

export const mcpServerCard = named(
  'McpServerCard',
  v.strictObject({
    $schema: v.pipe(v.string(), v.url()),
    name: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)),
    version: v.string(),
    title: v.string(),
    description: v.pipe(v.string(), v.maxCodePoints(100)),
    websiteUrl: httpsOrLocalUrl(),
    remotes: v.array(remote),
  }),
);

export const mcpLegacyServerCard = named(
  'McpLegacyServerCard',
  v.strictObject({
    $schema: v.pipe(v.string(), v.url()),
    version: v.string(),
    protocolVersion: v.string(),
    serverInfo: v.strictObject({ name: v.string(), title: v.string(), version: v.string() }),
    description: v.string(),
    documentationUrl: httpsOrLocalUrl(),
    transport: v.strictObject({ type: v.literal('streamable-http'), endpoint: v.literal(MCP_PATH), url: httpsOrLocalUrl() }),
    capabilities: v.strictObject({ tools: v.strictObject({ listChanged: v.boolean() }) }),
    authentication: v.strictObject({ required: v.boolean(), schemes: v.array(v.string()) }),
    tools: v.literal('dynamic'),
  }),
);
