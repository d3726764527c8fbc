/**
 * OAuth authorization codes, found by the SHA-256 of the code. A code is issued once at consent, bound to its
 * client, redirect URI, PKCE challenge and resource, and redeemed at most once: the redemption records the family
 * of tokens it started, which a second redemption by the same client (with its PKCE verifier) revokes.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { AuthorizationCodeEntity, type AuthorizationCode } from './code.entity.ts';

export async function putNewCode(code: AuthorizationCode): Promise<void> {
  await putFresh(AuthorizationCodeEntity.item(code));
}

export async function getCode(verifier: string): Promise<AuthorizationCode | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: AuthorizationCodeEntity.key({ verifier }), ConsistentRead: true }));
  return AuthorizationCodeEntity.parseOrNull(Item);
}

/** Redeem a code that is still issued and unexpired, recording the family it starts: of two redemptions one wins. */
export const redeemCode = (verifier: string, familyId: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: AuthorizationCodeEntity.key({ verifier }),
    UpdateExpression: 'SET #status = :redeemed, familyId = :familyId, redeemedAt = :now',
    ConditionExpression: '#status = :issued AND expiresAt > :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':redeemed': 'redeemed', ':issued': 'issued', ':familyId': familyId, ':now': now },
  },
});
