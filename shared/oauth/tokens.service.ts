/**
 * The token endpoint (RFC 6749 §3.2, OAuth 2.1) and the revocation endpoint (RFC 7009).
 *
 * - `authorization_code`: the code is single-use and lives 60 s; it is bound to its client, its redirect URI, its
 *   PKCE challenge (the `code_verifier` must answer it, S256) and its resource. Redeeming it starts a token family
 *   (what the consent granted, for 30 days) and issues an access token (1 hour) and, for a client that uses the
 *   `refresh_token` grant, a refresh token. A second redemption by the code's own client, with its verifier,
 *   revokes the family (every token the code issued); a spent code presented by anyone else is refused alone.
 * - `refresh_token`: the refresh token is spent (rotated) on every use and replaced by a new pair; using a spent
 *   one again revokes its whole family. A refresh token never outlives its family, nor its person's membership of
 *   the grant's merchant: a person no longer on the team gets `invalid_grant` (their role is not part of a grant:
 *   each MCP tool checks the role as it is at the call).
 * - removal from a merchant's team revokes every family its person granted on it (`revokeGrantsOfMember`).
 * - revocation: a refresh token revokes its family, an access token itself; an unknown token is answered 200 alike.
 *
 * Every rule that must hold once is a condition of the one transaction that issues: of two concurrent redemptions
 * of a code (or uses of a refresh token) exactly one issues, and the other is a reuse.
 */
import { isAgentScope, type AgentScope } from '../domain/agent-scopes.ts';
import { safeEqual } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { listMadeBy, madeByItems, membershipStands } from '../people/index.ts';
import { authenticateClient, type ClientCredentials } from './clients.service.ts';
import type { AuthorizationCode } from './code.entity.ts';
import { getCode, redeemCode } from './codes.repository.ts';
import { oauthRefusal } from './oauth-errors.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  FAMILY_TTL_SECONDS,
  isAuthorizationCode,
  newFamilyId,
  newToken,
  orderedScopes,
  parseToken,
  pkceMatches,
  tokenIdOf,
  verifierOf,
  type GrantType,
  type TokenKind,
} from './oauth.rules.ts';
import {
  familyStands,
  getTokenAndFamily,
  listStandingFamilyIdsOf,
  putNewFamily,
  putNewToken,
  revokeFamily,
  revokeToken,
  spendRefreshToken,
} from './tokens.repository.ts';
import type { GrantSubject, TokenFamily } from './family.entity.ts';
import type { OAuthToken } from './token.entity.ts';

/** The parameters of a token request (form fields). */
export interface TokenRequest {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  resource?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

/** A successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** The headers of every token response (RFC 6749 §5.1): never cached. */
export const tokenResponseHeaders = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** Answers a token request: authenticates the client, then the grant. A parameter sent empty counts as left out (RFC 6749 §3.1). */
export async function issueTokens(sent: TokenRequest, authorization: string | undefined, now = new Date()): Promise<TokenResponse> {
  const request: TokenRequest = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== ''));
  const client = await authenticateClient(credentialsOf(request, authorization));
  if (request.grant_type === 'authorization_code') return redeem(client, request, now);
  if (request.grant_type === 'refresh_token') return refresh(client, request, now);
  if (request.grant_type === undefined) throw oauthRefusal('invalid_request', 'grant_type is required: authorization_code or refresh_token.');
  throw oauthRefusal('unsupported_grant_type', 'This server issues tokens for the authorization_code and refresh_token grants only.');
}

const credentialsOf = (request: { client_id?: string; client_secret?: string }, authorization: string | undefined): ClientCredentials => ({
  authorization,
  clientId: request.client_id,
  clientSecret: request.client_secret,
});

const required = (value: string | undefined, name: string, what: string): string => {
  if (!value) throw oauthRefusal('invalid_request', `${name} is required: ${what}.`);
  return value;
};

const codeUnusable = (why: string) => oauthRefusal('invalid_grant', `${why} Start the authorization again for a new code.`);
const codeReused = () => codeUnusable('This code was already used: every token issued for it is now revoked.');

/** `authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2). */
async function redeem(client: { id: string }, request: TokenRequest, now: Date): Promise<TokenResponse> {
  const codeValue = required(request.code, 'code', 'the code of the authorization response');
  const verifier = required(request.code_verifier, 'code_verifier', 'the PKCE verifier whose S256 challenge the authorization request sent');
  const code = isAuthorizationCode(codeValue) ? await getCode(verifierOf(codeValue)) : null;
  if (!code || code.mode !== config.mode) throw codeUnusable('The code is unknown.');
  // Who may present the code comes before the reuse rule: only its own client, with its PKCE verifier, can revoke
  // the grant by presenting it again; anyone else holding a spent code is refused and changes nothing.
  if (code.clientId !== client.id) throw codeUnusable('The code was issued to another client.');
  if (!pkceMatches(verifier, code.codeChallenge)) throw codeUnusable('code_verifier does not match the code_challenge of the authorization request.');
  if (code.status === 'redeemed') {
    await revokeFamilyOf(code, now);
    throw codeReused();
  }
  if (Date.parse(code.expiresAt) <= now.getTime()) throw codeUnusable('The code has expired (codes live 60 seconds).');
  if (request.redirect_uri !== undefined ? request.redirect_uri !== code.redirectUri : code.redirectUriGiven) {
    throw codeUnusable('redirect_uri is not the one of the authorization request.');
  }
  if (request.resource !== undefined && request.resource !== code.resource) {
    throw oauthRefusal('invalid_target', `resource must be ${code.resource}, the resource of the authorization request.`);
  }
  const family: TokenFamily = {
    ...subjectOf(code),
    id: newFamilyId(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + FAMILY_TTL_SECONDS * 1000).toISOString(),
    status: 'active',
    revokedAt: null,
    revokedBecause: null,
  };
  const issued = issue(family, family.scopes, code.refreshable, now);
  // As for a refresh, the membership is a condition of the write: a code consented to by a person removed from the
  // team since (within its 60 seconds) makes no grant. So is the person's standing: a code consented to before a
  // password reset took their account over makes none, and the grant is listed under the person for such a takeover.
  const approver = { userId: family.userId, since: code.createdAt, via: 'session' } as const;
  const parts: NamedParts<'code' | 'membership' | 'standing' | 'family' | 'issued'> = [
    ['code', [redeemCode(code.verifier, family.id, now.toISOString())]],
    ['membership', [membershipStands(family.merchantId, family.userId)]],
    [
      'standing',
      madeByItems(approver, { kind: 'oauthGrant', id: family.id, merchantId: family.merchantId, createdAt: family.createdAt, expiresAt: family.expiresAt }),
    ],
    ['family', [putNewFamily(family)]],
    ['issued', issued.items],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('membership') && !failed.has('code')) throw codeUnusable('The person who approved it is no longer a member of its merchant.');
    if (failed?.has('standing') && !failed.has('code')) throw codeUnusable('The account of the person who approved it was taken over since.');
    if (!failed?.has('code')) throw e;
    // Redeemed by a concurrent request (a reuse: revoke what it issued), or expired meanwhile.
    const current = await getCode(code.verifier);
    if (current?.status !== 'redeemed') throw codeUnusable('The code has expired (codes live 60 seconds).');
    await revokeFamilyOf(current, now);
    throw codeReused();
  }
  return issued.response;
}

const revokeFamilyOf = async (code: AuthorizationCode, now: Date) => {
  if (code.familyId) await revokeFamily(code.familyId, 'code_reuse', now.toISOString());
};

const subjectOf = (x: GrantSubject): GrantSubject => ({
  clientId: x.clientId,
  userId: x.userId,
  merchantId: x.merchantId,
  scopes: x.scopes,
  resource: x.resource,
  mode: x.mode,
});

const refreshUnusable = (why: string) => oauthRefusal('invalid_grant', `${why} Authorize again to get new tokens.`);

/** `refresh_token` (RFC 6749 §6, OAuth 2.1 §4.3.1: rotation, and reuse detection). */
async function refresh(client: { id: string; grantTypes: GrantType[] }, request: TokenRequest, now: Date): Promise<TokenResponse> {
  const value = required(request.refresh_token, 'refresh_token', 'the refresh token of the last token response');
  const parsed = parseToken(value);
  const found = parsed?.kind === 'refresh' && parsed.mode === config.mode ? await getTokenAndFamily(tokenIdOf(value, 'refresh'), parsed.familyId) : null;
  const token = found?.token;
  if (!token || !safeEqual(token.verifier, verifierOf(value)) || token.kind !== 'refresh' || token.mode !== config.mode) {
    throw refreshUnusable('The refresh token is unknown.');
  }
  if (token.clientId !== client.id) throw refreshUnusable('The refresh token was issued to another client.');
  if (token.status === 'used') {
    await revokeFamily(token.familyId, 'refresh_token_reuse', now.toISOString());
    throw refreshUnusable('This refresh token was already used: every token of its grant is now revoked.');
  }
  const family = found.family;
  if (token.status === 'revoked' || !family || family.status !== 'active') throw refreshUnusable('The grant of this refresh token was revoked.');
  if (Date.parse(token.expiresAt) <= now.getTime()) throw refreshUnusable('The refresh token has expired (grants last 30 days).');
  if (request.resource !== undefined && request.resource !== token.resource) {
    throw oauthRefusal('invalid_target', `resource must be ${token.resource}, the resource of this grant.`);
  }
  const scopes = request.scope === undefined ? family.scopes : narrowedScopes(request.scope, family.scopes);
  const issued = issue(family, scopes, true, now);
  // The membership is a condition of the write, not a read before it: a removal that lands meanwhile still refuses.
  const parts: NamedParts<'refreshToken' | 'family' | 'membership' | 'issued'> = [
    ['refreshToken', [spendRefreshToken(token.id, now.toISOString())]],
    ['family', [familyStands(family.id)]],
    ['membership', [membershipStands(family.merchantId, family.userId)]],
    ['issued', issued.items],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('refreshToken')) {
      // Spent by a concurrent request: a reuse.
      await revokeFamily(family.id, 'refresh_token_reuse', now.toISOString());
      throw refreshUnusable('This refresh token was already used: every token of its grant is now revoked.');
    }
    if (failed?.has('family')) throw refreshUnusable('The grant of this refresh token was revoked.');
    if (failed?.has('membership')) throw refreshUnusable('The person this grant acts for is no longer a member of its merchant.');
    throw e;
  }
  return issued.response;
}

/**
 * Revokes every grant `userId` gave agents, on any merchant, from their list (read consistently: a grant made a moment
 * before is on it). For when a password reset takes their account over.
 */
export async function revokeGrantsMadeBy(userId: string, now = new Date()): Promise<void> {
  await Promise.all((await listMadeBy(userId, 'oauthGrant')).map((g) => revokeFamily(g.id, 'account_taken_over', now.toISOString())));
}

/**
 * Revoke every OAuth grant (token family) `userId` gave on `merchantId`: what removing them from its team (or their
 * leaving it) ends, so their refresh tokens are refused at once. Their other merchants' grants are left alone.
 * Answers how many families it revoked.
 */
export async function revokeGrantsOfMember(merchantId: string, userId: string, now = new Date()): Promise<number> {
  const familyIds = await listStandingFamilyIdsOf(merchantId, userId);
  const revoked = await Promise.all(familyIds.map((id) => revokeFamily(id, 'member_removed', now.toISOString())));
  return revoked.filter(Boolean).length;
}

/** A refresh request's `scope` (RFC 6749 §6): some of the granted scopes, never more. */
function narrowedScopes(scope: string, granted: readonly AgentScope[]): AgentScope[] {
  const asked = scope.split(' ').filter(Boolean);
  const beyond = asked.filter((s) => !isAgentScope(s) || !granted.includes(s));
  if (asked.length === 0 || beyond.length > 0) {
    throw oauthRefusal('invalid_scope', `scope may name only scopes of this grant (${granted.join(' ')}); ${beyond.join(' ') || 'none was named'} is not one.`);
  }
  return orderedScopes(asked as AgentScope[]);
}

/** A new access token of `family` (and a refresh token when `withRefresh`), the writes that store them and the answer. */
function issue(family: TokenFamily, scopes: AgentScope[], withRefresh: boolean, now: Date): { items: TransactItem[]; response: TokenResponse } {
  const familyEnd = Date.parse(family.expiresAt);
  const accessEnd = Math.min(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000, familyEnd);
  const record = (kind: TokenKind, token: string, expiresAt: number, tokenScopes: AgentScope[]): OAuthToken => ({
    ...subjectOf(family),
    scopes: tokenScopes,
    id: tokenIdOf(token, kind),
    kind,
    verifier: verifierOf(token),
    familyId: family.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    status: 'active',
  });
  const accessToken = newToken('access', family.mode, family.id);
  const refreshToken = withRefresh ? newToken('refresh', family.mode, family.id) : null;
  return {
    items: [
      putNewToken(record('access', accessToken, accessEnd, scopes)),
      ...(refreshToken ? [putNewToken(record('refresh', refreshToken, familyEnd, family.scopes))] : []),
    ],
    response: {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.max(0, Math.floor((accessEnd - now.getTime()) / 1000)),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: scopes.join(' '),
    },
  };
}

/**
 * Revoke a token (RFC 7009 §2.1) for an authenticated client: a refresh token revokes its family, an access token
 * itself. A token that is unknown, malformed, of the other deployment or of another client changes nothing and is
 * answered like a revoked one (200), so a request says nothing about tokens the client does not hold.
 */
export async function revokeOAuthToken(
  request: { token?: string; client_id?: string; client_secret?: string },
  authorization: string | undefined,
  now = new Date(),
) {
  const client = await authenticateClient(credentialsOf(request, authorization));
  const value = required(request.token, 'token', 'the access or refresh token to revoke');
  const parsed = parseToken(value);
  if (!parsed || parsed.mode !== config.mode) return;
  const { token } = await getTokenAndFamily(tokenIdOf(value, parsed.kind), parsed.familyId);
  if (!token || !safeEqual(token.verifier, verifierOf(value)) || token.clientId !== client.id) return;
  if (token.kind === 'refresh') await revokeFamily(token.familyId, 'revocation', now.toISOString());
  else await revokeToken(token.id, now.toISOString());
}
