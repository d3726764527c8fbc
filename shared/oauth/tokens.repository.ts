/**
 * OAuth tokens and their families. A family is what one consent granted (person, merchant, scopes, client,
 * resource) and whether it still stands; every access and refresh token issued from that consent, through every
 * rotation, belongs to it and names it (in the token itself, so a token and its family are read in one call).
 * Revoking a family is one conditional write, and every token of it is refused from then on.
 *
 * Tokens are found by their id (a derivation of the token); only the SHA-256 of a token is stored. Families are also
 * listed per (merchant, person) on gsi1, so removing a person from a merchant's team revokes theirs without a Scan.
 */
import { BatchGetCommand, UpdateCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { backoff, db, isConditionFailed, queryGsi1, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { RETENTION_AFTER_EXPIRY_SECONDS, type TokenKind } from './oauth.rules.ts';

/** What a consent granted, shared by every token issued from it. */
export interface GrantSubject {
  clientId: string;
  userId: string;
  merchantId: string;
  scopes: AgentScope[];
  /** The resource (RFC 8707) the tokens are for: the deployment's MCP endpoint. */
  resource: string;
  mode: Mode;
}

export interface TokenFamily extends GrantSubject {
  id: string;
  createdAt: string;
  /** No token of the family lives past it. */
  expiresAt: string;
  status: 'active' | 'revoked';
  revokedAt: string | null;
  /** Why it was revoked: `code_reuse`, `refresh_token_reuse`, `revocation` (RFC 7009) or `member_removed`. */
  revokedBecause: string | null;
}

export interface OAuthToken extends GrantSubject {
  id: string;
  kind: TokenKind;
  /** SHA-256 of the token. */
  verifier: string;
  familyId: string;
  createdAt: string;
  expiresAt: string;
  /** `used`: a refresh token already exchanged for the next pair (a second use is a reuse). */
  status: 'active' | 'used' | 'revoked';
}

const subjectOf = (item: Record<string, unknown>): GrantSubject => ({
  clientId: item.clientId as string,
  userId: item.userId as string,
  merchantId: item.merchantId as string,
  scopes: item.scopes as AgentScope[],
  resource: item.resource as string,
  mode: item.mode as Mode,
});

const familyOf = (item: Record<string, unknown>): TokenFamily => ({
  ...subjectOf(item),
  id: item.id as string,
  createdAt: item.createdAt as string,
  expiresAt: item.expiresAt as string,
  status: item.status as TokenFamily['status'],
  revokedAt: stringOrNull(item.revokedAt),
  revokedBecause: stringOrNull(item.revokedBecause),
});

const tokenOf = (item: Record<string, unknown>): OAuthToken => ({
  ...subjectOf(item),
  id: item.id as string,
  kind: item.kind as TokenKind,
  verifier: item.verifier as string,
  familyId: item.familyId as string,
  createdAt: item.createdAt as string,
  expiresAt: item.expiresAt as string,
  status: item.status as OAuthToken['status'],
});

/** DynamoDB deletes a record some time after this (epoch seconds); every read checks expiry itself. */
const ttlOf = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000) + RETENTION_AFTER_EXPIRY_SECONDS;

export const putNewFamily = (family: TokenFamily): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.oauthFamily(family.id),
      ...keys.oauthFamilyListing(family.merchantId, family.userId, family.createdAt, family.id),
      entity: 'oauthFamily',
      ...family,
      ttl: ttlOf(family.expiresAt),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const putNewToken = (token: OAuthToken): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.oauthToken(token.id), entity: 'oauthToken', ...token, ttl: ttlOf(token.expiresAt) },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** A transaction condition: the family still stands (so no token is added to a family revoked meanwhile). */
export const familyStands = (familyId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.oauthFamily(familyId),
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

/** Spend a refresh token: only an active one, so of two concurrent uses exactly one succeeds. */
export const spendRefreshToken = (tokenId: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.oauthToken(tokenId),
    UpdateExpression: 'SET #status = :used, usedAt = :now',
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':used': 'used', ':active': 'active', ':now': now },
  },
});

/**
 * A token and its family, in one strongly consistent `BatchGetItem` (keys DynamoDB leaves unprocessed, when
 * throttled, are asked again a few times; then it throws).
 */
export async function getTokenAndFamily(tokenId: string, familyId: string): Promise<{ token: OAuthToken | null; family: TokenFamily | null }> {
  const found: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] | undefined = [keys.oauthToken(tokenId), keys.oauthFamily(familyId)];
  for (let attempt = 1; pending?.length; attempt++) {
    if (attempt > 1) await backoff(attempt);
    const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(Responses?.[tableName()] ?? []));
    pending = UnprocessedKeys?.[tableName()]?.Keys;
    if (pending?.length && attempt >= 4) throw new Error('DynamoDB left OAuth token keys unprocessed');
  }
  const token = found.find((i) => i.entity === 'oauthToken' && i.id === tokenId);
  const family = found.find((i) => i.entity === 'oauthFamily' && i.id === familyId);
  return { token: token ? tokenOf(token) : null, family: family ? familyOf(family) : null };
}

/**
 * The ids of the families still standing that `userId` granted on `merchantId` (gsi1, eventually consistent: a
 * family started in the same instant may be missed; the refresh grant's membership condition refuses it anyway).
 */
export async function listStandingFamilyIdsOf(merchantId: string, userId: string): Promise<string[]> {
  const items = await queryGsi1(keys.oauthFamiliesOf(merchantId, userId).gsi1pk);
  return items.filter((i) => i.entity === 'oauthFamily' && i.status === 'active').map((i) => i.id as string);
}

/** Revoke a family that still stands (a revoked one keeps its first revocation); false when none stood. */
export async function revokeFamily(familyId: string, because: string, now: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.oauthFamily(familyId),
        UpdateExpression: 'SET #status = :revoked, revokedAt = :now, revokedBecause = :because',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':now': now, ':because': because },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/** Revoke one token (an access token, RFC 7009); a token already revoked or gone stays as it is. */
export async function revokeToken(tokenId: string, now: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.oauthToken(tokenId),
        UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status <> :revoked',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':now': now },
      }),
    );
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
  }
}
