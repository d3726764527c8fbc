/**
 * The agent endpoint's routes: the MCP endpoint (`POST /api/mcp`, and its `GET`/`DELETE` answered 405: it is stateless
 * and does not stream), the server cards at the host's root, and the dashboard back end of user MCP tokens.
 */
import { MCP_PATH } from '../domain/agent-scopes.ts';
import { mcpTokenNotFound } from '../domain/unknown-ids.ts';
import { pageOnlyQuery } from '../platform/http/schemas/common.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import { DOCS_INDEX_ASSET } from '../platform/docs-index.ts';
import { createdMcpToken, createMcpTokenRequest, mcpTokenPage } from './mcp-tokens.schemas.ts';
import { jsonRpcError, jsonRpcResponse, mcpLegacyServerCard, mcpServerCard } from './mcp-endpoint.schemas.ts';

export const mcp = {
  face: 'agent',
  name: 'mcp',
  method: 'POST',
  path: MCP_PATH,
  handler: 'functions/agents/mcp.ts',
  auth: 'agentToken',
  group: 'agents',
  table: 'readWrite',
  // The tools that upload a product's image and set the checkout's logo work with the images.
  imageStorage: 'write',
  status: 200,
  response: jsonRpcResponse,
  protocolAnswers: [
    { status: 202, response: null, when: 'The body held only notifications (or responses): accepted, with nothing to answer.' },
    {
      status: 400,
      response: jsonRpcError,
      when: 'The body is not JSON, or not a JSON-RPC message or a batch of them (-32700 Parse error); the batch is empty, too long, holds an `initialize`, or is sent under `MCP-Protocol-Version` 2025-06-18 or later, which take one message a request (-32600 Invalid Request).',
    },
    { status: 406, response: jsonRpcError, when: '`Accept` does not name both `application/json` and `text/event-stream`.' },
    { status: 415, response: jsonRpcError, when: '`Content-Type` is not `application/json`.' },
  ],
  // The documentation's search index, built ahead from the docs pages, docs/*.md (infra/docs-index-asset.ts), for search_payments_ai_docs.
  assets: [DOCS_INDEX_ASSET],
  summary:
    'The MCP endpoint (Streamable HTTP, stateless, JSON answers): a JSON-RPC message or batch in, its answer out (202 for notifications only). ' +
    'Authorization: Bearer with an OAuth access token or a user MCP token.',
} as const satisfies RouteDef;

export const mcpGet = {
  face: 'agent',
  name: 'mcp-get',
  method: 'GET',
  path: MCP_PATH,
  handler: 'functions/agents/mcp-get.ts',
  auth: 'none',
  group: 'agents',
  table: 'none',
  status: 405,
  response: null,
  summary: 'Always 405 (Allow: POST): the endpoint opens no server-sent event stream.',
} as const satisfies RouteDef;

export const mcpDelete = {
  face: 'agent',
  name: 'mcp-delete',
  method: 'DELETE',
  path: MCP_PATH,
  handler: 'functions/agents/mcp-delete.ts',
  auth: 'none',
  group: 'agents',
  table: 'none',
  status: 405,
  response: null,
  summary: 'Always 405 (Allow: POST): the endpoint is stateless, there is no session to end.',
} as const satisfies RouteDef;

export const serverCard = {
  face: 'agent',
  name: 'mcp-server-card',
  method: 'GET',
  path: '/.well-known/mcp/server-card.json',
  handler: 'functions/agents/server-card.ts',
  auth: 'none',
  group: 'agents',
  table: 'none',
  status: 200,
  response: mcpServerCard,
  etag: true,
  summary: 'The MCP server card (any origin may read it; ETag, 304 on If-None-Match).',
} as const satisfies RouteDef;

export const legacyServerCard = {
  face: 'agent',
  name: 'mcp-legacy-server-card',
  method: 'GET',
  path: '/.well-known/mcp.json',
  handler: 'functions/agents/legacy-server-card.ts',
  auth: 'none',
  group: 'agents',
  table: 'none',
  status: 200,
  response: mcpLegacyServerCard,
  etag: true,
  summary: 'The legacy MCP server card, kept beside the current one (any origin may read it; ETag, 304 on If-None-Match).',
} as const satisfies RouteDef;

// User MCP tokens (dashboard back end): a person's own tokens on one merchant of theirs.

export const createMcpToken = {
  face: 'dashboard-api',
  name: 'mcp-tokens-create',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/mcp-tokens',
  handler: 'functions/agents/create-mcp-token.ts',
  auth: 'session',
  group: 'agents',
  table: 'readWrite',
  body: createMcpTokenRequest,
  status: 201,
  response: createdMcpToken,
  summary: 'Mint a user MCP token acting as you on this merchant with the scopes chosen, for 1 to 7 days (default 7); the token is shown in this answer only.',
} as const satisfies RouteDef;

export const listMcpTokens = {
  face: 'dashboard-api',
  name: 'mcp-tokens-list',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/mcp-tokens',
  handler: 'functions/agents/list-mcp-tokens.ts',
  auth: 'session',
  group: 'agents',
  table: 'read',
  query: pageOnlyQuery,
  status: 200,
  response: mcpTokenPage,
  summary:
    'Your MCP tokens on this merchant, oldest first, a page (`page`, `limit`) at a time (never the tokens: a hint, scopes, expiresAt, lastUsedAt, revokedAt).',
} as const satisfies RouteDef;

export const revokeMcpToken = {
  face: 'dashboard-api',
  name: 'mcp-tokens-revoke',
  method: 'DELETE',
  path: '/api/v1/dashboard/merchants/{merchantId}/mcp-tokens/{mcpTokenId}',
  handler: 'functions/agents/revoke-mcp-token.ts',
  auth: 'session',
  group: 'agents',
  table: 'readWrite',
  status: 204,
  response: null,
  unknownId: mcpTokenNotFound,
  summary: 'Revoke one of your MCP tokens on this merchant: it stops working at once.',
} as const satisfies RouteDef;
