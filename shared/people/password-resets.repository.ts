/** Password resets (./password-reset.entity.ts): the latest link of a person, written, read and spent. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { PasswordResetEntity, type PasswordReset } from './password-reset.entity.ts';
import { user } from './user.entity.ts';
import { claimVerified, SET_EMAIL_VERIFIED } from './email-verifications.repository.ts';

/** Writes `reset`, replacing the person's earlier one (its link stops working). */
export async function putPasswordReset(reset: PasswordReset): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: PasswordResetEntity.item(reset) }));
}

export async function getPasswordReset(userId: string): Promise<PasswordReset | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PasswordResetEntity.key({ userId }), ConsistentRead: true }));
  return PasswordResetEntity.parseOrNull(Item);
}

/**
 * Spending `reset` and setting `passwordHash` as the person's password, for one transaction: the reset deleted on the
 * condition that it is still this one and unexpired at `now`; the password set on the condition that the user exists;
 * and, the link having reached the address it was mailed to, the address marked verified on the user and its claim.
 * With `takeover` (the address's first proof, as read before), the user is marked taken over at `now`
 * (`takenOverAt`, ./made.entity.ts), on the condition that the address is still unproved.
 */
export const spendPasswordReset = (
  reset: PasswordReset,
  passwordHash: string,
  now: string,
  takeover: boolean,
): [link: TransactItem, ...user: TransactItem[]] => [
  {
    Delete: {
      TableName: tableName(),
      Key: PasswordResetEntity.key(reset),
      ConditionExpression: 'verifier = :verifier AND expiresAt > :now',
      ExpressionAttributeValues: { ':verifier': reset.verifier, ':now': now },
    },
  },
  {
    Update: {
      TableName: tableName(),
      Key: user(reset.userId),
      UpdateExpression: reset.email ? `SET passwordHash = :hash, ${SET_EMAIL_VERIFIED}${takeover ? ', takenOverAt = :now' : ''}` : 'SET passwordHash = :hash',
      ConditionExpression: takeover ? 'attribute_exists(pk) AND attribute_not_exists(emailVerifiedAt)' : 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':hash': passwordHash, ...(reset.email ? { ':now': now } : {}) },
    },
  },
  ...(reset.email ? [claimVerified(reset.userId, reset.email, now)] : []),
];
