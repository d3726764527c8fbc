/** Small factories for the MCP endpoint's e2e tests: people with MCP tokens, the official SDK client, raw JSON-RPC calls. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { inject } from 'vitest';
import { agentScopes, type AgentScope } from '../../shared/domain/agent-scopes.ts';
import { checkContract, checkDeclaredRefusal } from '../support/contract.ts';
import { call, PASSWORD, rootMerchant } from '../support/fixtures.ts';

/** The run's stack's origin (`http://localhost:<port>`): the deployment's public origin. */
export const origin = (): string => inject('baseUrl').replace(/\/api$/, '');
export const mcpUrl = (): string => `${origin()}/api/mcp`;
export const resourceMetadata = (): string => `${origin()}/.well-known/oauth-protected-resource/api/mcp`;
export const docUrl = (): string => `${origin()}/docs/mcp#mcp-errors`;

export async function signIn(email: string): Promise<string> {
  const res = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return res.json.token as string;
}

/** A user MCP token `session`'s person mints on `merchantId` (the dashboard's answer). */
export async function mintToken(merchantId: string, session: string, scopes: readonly AgentScope[] = agentScopes, expiresInDays?: number) {
  const res = await call('POST', `/v1/dashboard/merchants/${merchantId}/mcp-tokens`, {
    key: session,
    body: { name: 'agent', scopes, ...(expiresInDays === undefined ? {} : { expiresInDays }) },
  });
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${res.text}`);
  return res.json as { id: string; token: string; hint: string; scopes: AgentScope[]; expiresAt: string };
}

/** A partner merchant whose owner is signed in and holds an MCP token with `scopes` (all of them by default). */
export async function agent(scopes: readonly AgentScope[] = agentScopes) {
  const merchant = await rootMerchant('Agent shop');
  const session = await signIn(merchant.ownerEmail);
  const minted = await mintToken(merchant.merchantId, session, scopes);
  return { ...merchant, session, token: minted.token, tokenId: minted.id };
}

/** The official SDK client, connected (initialized) with `token` as `Authorization: Bearer`. */
export async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: any;
}

/** A raw `POST /api/mcp` of `body` (a JSON-RPC message), with `token` as bearer when given and the transport's Accept. */
export async function rawMcp(token: string | undefined, body: unknown, headers: Record<string, string> = {}, path = '/api/mcp'): Promise<RawAnswer> {
  const res = await fetch(`${origin()}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  // Held to the route's contract: its success, the agent face's refusals and the transport's own answers.
  checkContract('POST', path.replace(/^\/api/, ''), res.status, json, text, res.headers.get('content-type'), res.headers);
  checkDeclaredRefusal('POST', path, res.status, json);
  return { status: res.status, headers: res.headers, json };
}

export const initializeMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

export const toolCallMessage = (name: string, args: Record<string, unknown> = {}, id = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
