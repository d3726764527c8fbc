/**
 * User MCP tokens: a signed-in person mints one for one merchant of theirs, with the scopes they choose, for at
 * most 7 days; lists and revokes their own. A token acts as that person on that merchant, on this deployment only.
 */
import type { AgentGrant, AgentScope } from '../domain/agent-scopes.ts';
import { MCP_PATH } from '../domain/agent-scopes.ts';
import { mcpTokenNotFound } from '../domain/unknown-ids.ts';
import type { Merchant } from '../domain/merchants.ts';
import { safeEqual } from '../domain/secrets.ts';
import { listMadeBy, makeAs, type Membership, type SessionPrincipal, sessionMaker } from '../people/index.ts';
import { config } from '../platform/config.ts';
import { pageOf, type PageRequest } from '../platform/http/pagination.ts';
import { getMcpTokenWithMembership, listMcpTokens, putNewMcpToken, revokeMcpTokenRecord, touchMcpToken } from './mcp-tokens.repository.ts';
import type { McpTokenRecord } from './mcp-token.entity.ts';
import { generateMcpToken, isMcpTokenId, mcpTokenExpiry, mcpTokenHintOf, mcpTokenIdOf, mcpTokenVerifierOf, parseMcpToken } from './mcp-tokens.rules.ts';

/** What the dashboard shows of a token: everything but the token. */
const summaryOf = (t: McpTokenRecord) => ({
  id: t.id,
  name: t.name,
  hint: t.hint,
  mode: t.mode,
  userId: t.userId,
  merchantId: t.merchantId,
  scopes: t.scopes,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
});

/**
 * Mint a token for who is signed in (`by`) on `merchant`, listed under them in the same transaction (a session started
 * before a takeover of their account mints none: 401). The answer holds the token itself — the only time it is shown —
 * and this deployment's MCP URL, the only one it works with.
 */
export async function createMcpToken(
  merchant: Merchant,
  by: SessionPrincipal,
  input: { name: string; scopes: AgentScope[]; expiresInDays: number },
  now = new Date(),
) {
  const userId = by.userId;
  const token = generateMcpToken(config.mode, merchant.id, userId);
  const record: McpTokenRecord = {
    id: mcpTokenIdOf(token),
    merchantId: merchant.id,
    userId,
    name: input.name,
    mode: config.mode,
    scopes: input.scopes,
    verifier: mcpTokenVerifierOf(token),
    hint: mcpTokenHintOf(token),
    createdAt: now.toISOString(),
    expiresAt: mcpTokenExpiry(now, input.expiresInDays),
    lastUsedAt: null,
    revokedAt: null,
  };
  await makeAs(sessionMaker(by), [putNewMcpToken(record)], {
    kind: 'mcpToken',
    id: record.id,
    merchantId: merchant.id,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
  });
  return { ...summaryOf(record), token, mcpUrl: `${config.publicOrigin}${MCP_PATH}` };
}

/** The tokens `userId` minted on `merchant`, oldest first (revoked and expired ones too, so they can be told apart). */
export const listMcpTokenSummaries = async (merchant: Merchant, userId: string) => (await listMcpTokens(merchant.id, userId)).map(summaryOf);

/** One page of `userId`'s tokens on the merchant, oldest first, as `{data, pagination}` (all are read, then paged). */
export const listMcpTokenPage = async (merchant: Merchant, userId: string, page: PageRequest) => pageOf(await listMcpTokenSummaries(merchant, userId), page);

/** Revoke one of `userId`'s tokens on `merchant`; revoking it again succeeds again. Anyone else's token id is not found. */
export async function revokeMcpToken(merchant: Merchant, userId: string, tokenId: string, now = new Date()): Promise<void> {
  const outcome = isMcpTokenId(tokenId) ? await revokeMcpTokenRecord(merchant.id, userId, tokenId, now.toISOString()) : 'not_found';
  if (outcome === 'not_found') throw mcpTokenNotFound();
}

/**
 * Revokes every token `userId` minted, on any merchant, from their list (read consistently: a token minted a moment
 * before is on it). For when a password reset takes their account over.
 */
export async function revokeMcpTokensMadeBy(userId: string, now = new Date()): Promise<void> {
  await Promise.all((await listMadeBy(userId, 'mcpToken')).map((t) => revokeMcpTokenRecord(t.merchantId, userId, t.id, now.toISOString())));
}

/**
 * Revoke every token `userId` minted on `merchantId` that still stands: what removing them from its team (or their
 * leaving it) ends, so a token does not come back if they join the team again. Answers how many it revoked.
 */
export async function revokeMcpTokensOfMember(merchantId: string, userId: string, now = new Date()): Promise<number> {
  const standing = (await listMcpTokens(merchantId, userId)).filter((t) => !t.revokedAt && Date.parse(t.expiresAt) > now.getTime());
  const outcomes = await Promise.all(standing.map((t) => revokeMcpTokenRecord(merchantId, userId, t.id, now.toISOString())));
  return outcomes.filter((o) => o === 'revoked').length;
}

/**
 * What a bearer token turned out to be: granted (with its merchant and the person's membership, read with it; each
 * null when gone — the caller refuses those), expired, or invalid (why, in words that never echo the token).
 */
export type TokenCheck =
  | { readonly verdict: 'granted'; readonly grant: AgentGrant; readonly merchant: Merchant | null; readonly membership: Membership | null }
  | { readonly verdict: 'expired' }
  | { readonly verdict: 'invalid'; readonly reason: string };

export const invalidCheck = (reason: string): TokenCheck => ({ verdict: 'invalid', reason });

/**
 * Checks a user MCP token: well-formed, of this deployment, known (the token, its merchant and the person's
 * membership in ONE `BatchGetItem`), matching its verifier, not revoked, not expired. Records its use (at most once a
 * minute). Throws only when the table cannot be read.
 */
export async function checkUserMcpToken(token: string, now = new Date()): Promise<TokenCheck> {
  const parsed = parseMcpToken(token);
  if (!parsed) return invalidCheck('it is not a complete MCP token (a placeholder such as mor_mcp_xxx, or a token cut short?)');
  if (parsed.mode !== config.mode) {
    return invalidCheck(
      `it is a ${parsed.mode === 'live' ? 'live' : 'sandbox'} token, and this is the ${config.stage} deployment: use it with its own deployment's MCP URL`,
    );
  }
  const [record, merchant, membership] = await getMcpTokenWithMembership(mcpTokenIdOf(token), parsed.merchantId, parsed.userId);
  const known =
    record &&
    safeEqual(record.verifier, mcpTokenVerifierOf(token)) &&
    record.mode === config.mode &&
    record.merchantId === parsed.merchantId &&
    record.userId === parsed.userId;
  if (!known) return invalidCheck('no such token exists');
  if (record.revokedAt) return invalidCheck('it has been revoked');
  if (Date.parse(record.expiresAt) <= now.getTime()) return { verdict: 'expired' };
  // A token minted before its person last joined the team acts for a membership that ended (a removal whose
  // revocation did not happen): it never comes back with a new one.
  if (membership && membership.createdAt > record.createdAt) return invalidCheck("it was minted before its person last joined the merchant's team");
  await touchMcpToken(record, now);
  const grant: AgentGrant = {
    kind: 'user',
    tokenId: record.id,
    userId: record.userId,
    merchantId: record.merchantId,
    scopes: record.scopes,
    expiresAt: record.expiresAt,
    clientId: null,
  };
  return { verdict: 'granted', grant, merchant, membership };
}
