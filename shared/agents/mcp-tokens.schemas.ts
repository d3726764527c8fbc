/** User MCP tokens on the dashboard back end: the create request, a token's summary (never the token) and the one answer that shows it. */
import * as v from 'valibot';
import { agentScopes } from '../domain/agent-scopes.ts';
import { isoTime, name, nullableIsoTime, pagination, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { MCP_TOKEN_DEFAULT_DAYS, MCP_TOKEN_MAX_DAYS } from './mcp-tokens.rules.ts';

const scope = v.picklist(agentScopes, `must be one of: ${agentScopes.join(', ')}`);

export const createMcpTokenRequest = named(
  'CreateMcpTokenRequest',
  v.strictObject({
    name: name(100),
    /** The tool scopes the token grants (see the agent endpoint's scope table); at least one, each once. */
    scopes: v.pipe(
      v.array(scope, 'must be an array of scopes'),
      v.minLength(1, 'must grant at least one scope'),
      v.check((list) => new Set(list).size === list.length, 'must name each scope once'),
    ),
    /** How long the token works: 1 to 7 days (default 7). */
    expiresInDays: v.optional(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be a whole number of days'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(MCP_TOKEN_MAX_DAYS, `must be at most ${MCP_TOKEN_MAX_DAYS} (an MCP token lives at most ${MCP_TOKEN_MAX_DAYS} days)`),
      ),
      MCP_TOKEN_DEFAULT_DAYS,
    ),
  }),
);

const tokenFields = {
  id: v.pipe(v.string(), v.regex(/^mcp_[0-9a-f]{24}$/)),
  name: v.string(),
  /** The token's prefix and its last four characters: which token this is, never the token. */
  hint: v.string(),
  mode: v.picklist(['test', 'live']),
  userId: uuid,
  merchantId: uuid,
  scopes: v.array(scope),
  createdAt: isoTime,
  expiresAt: isoTime,
  lastUsedAt: nullableIsoTime,
  revokedAt: nullableIsoTime,
};

export const mcpToken = named('McpToken', v.strictObject(tokenFields));

/** One page of your tokens on the merchant, oldest first, in the dashboard back end's list shape `{data, pagination}`. */
export const mcpTokenPage = named('McpTokenPage', v.strictObject({ data: v.array(mcpToken), pagination }));

/** The created token: its summary, the token itself (shown in this answer only) and the MCP URL it works with. */
export const createdMcpToken = named(
  'CreatedMcpToken',
  v.strictObject({
    ...tokenFields,
    token: v.pipe(v.string(), v.regex(/^mor_mcp_(test|live)_[A-Za-z0-9_-]{86}$/)),
    mcpUrl: v.pipe(v.string(), v.url()),
  }),
);
