/**
 * OAuth tokens and their families. A family is what one consent granted (person, merchant, scopes, client,
 * resource) and whether it still stands; every access and refresh token issued from that consent, through every
 * rotation, belongs to it and names it (in the token itself, so a token and its family are read in one call).
 * Revoking a family is one conditional write, and every token of it is refused from then on.
 *
 * Tokens are found by their id (a derivation of the token); only the SHA-256 of a token is stored. Families are also
 * listed per (merchant, person) on gsi1, so removing a person from a merchant's team revokes theirs without a Scan.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchRead } from '../platform/db/batch-read.ts';
import { queryGsi1, tableName, sendIfCondition } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { oauthFamiliesOf, oauthFamily, TokenFamilyEntity, type TokenFamily } from './family.entity.ts';
import { oauthToken, OAuthTokenEntity, type OAuthToken } from './token.entity.ts';

export const putNewFamily = (family: TokenFamily): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: TokenFamilyEntity.item(family),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const putNewToken = (token: OAuthToken): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: OAuthTokenEntity.item(token),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** A transaction condition: the family still stands (so no token is added to a family revoked meanwhile). */
export const familyStands = (familyId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: TokenFamilyEntity.key({ id: familyId }),
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

/** Spend a refresh token: only an active one, so of two concurrent uses exactly one succeeds. */
export const spendRefreshToken = (tokenId: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: OAuthTokenEntity.key({ id: tokenId }),
    UpdateExpression: 'SET #status = :used, usedAt = :now',
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':used': 'used', ':active': 'active', ':now': now },
  },
});

/** A token and its family, in one strongly consistent `BatchGetItem` (`batchRead`). */
export async function getTokenAndFamily(tokenId: string, familyId: string): Promise<{ token: OAuthToken | null; family: TokenFamily | null }> {
  const [token, family] = await batchRead([
    { key: oauthToken(tokenId), from: (item) => OAuthTokenEntity.parseOrNull(item) },
    { key: oauthFamily(familyId), from: (item) => TokenFamilyEntity.parseOrNull(item) },
  ] as const);
  return { token: token ?? null, family: family ?? null };
}

/**
 * The ids of the families still standing that `userId` granted on `merchantId` (gsi1, eventually consistent: a
 * family started in the same instant may be missed; the refresh grant's membership condition refuses it anyway).
 */
export async function listStandingFamilyIdsOf(merchantId: string, userId: string): Promise<string[]> {
  const items = await queryGsi1(oauthFamiliesOf(merchantId, userId).gsi1pk);
  return items
    .filter((i) => i.entity === TokenFamilyEntity.kind)
    .map(TokenFamilyEntity.parse)
    .filter((f) => f.status === 'active')
    .map((f) => f.id);
}

/** Revoke a family that still stands (a revoked one keeps its first revocation); false when none stood. */
export async function revokeFamily(familyId: string, because: string, now: string): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: TokenFamilyEntity.key({ id: familyId }),
      UpdateExpression: 'SET #status = :revoked, revokedAt = :now, revokedBecause = :because',
      ConditionExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':now': now, ':because': because },
    }),
  );
}

/** Revoke one token (an access token, RFC 7009); a token already revoked or gone stays as it is. */
export async function revokeToken(tokenId: string, now: string): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: OAuthTokenEntity.key({ id: tokenId }),
      UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND #status <> :revoked',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':revoked': 'revoked', ':now': now },
    }),
  );
}
