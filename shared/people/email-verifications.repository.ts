/** E-mail verifications (./email-verification.entity.ts): the latest link of a person, written, read and spent. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { EmailVerificationEntity, type EmailVerification } from './email-verification.entity.ts';
import { emailClaim, user } from './user.entity.ts';

/** Writing `link`, replacing the person's earlier one (its link stops working), for the transaction that makes the person. */
export const putEmailVerification = (link: EmailVerification): TransactItem => ({
  Put: { TableName: tableName(), Item: EmailVerificationEntity.item(link) },
});

/** Writes `link`, replacing the person's earlier one (its link stops working). */
export async function saveEmailVerification(link: EmailVerification): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: EmailVerificationEntity.item(link) }));
}

export async function getEmailVerification(userId: string): Promise<EmailVerification | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: EmailVerificationEntity.key({ userId }), ConsistentRead: true }));
  return EmailVerificationEntity.parseOrNull(Item);
}

/** The user's side of marking an address verified at `now`, the first time only: a SET clause reading `:now`. */
export const SET_EMAIL_VERIFIED = 'emailVerifiedAt = if_not_exists(emailVerifiedAt, :now)';

/** The address's claim marked verified at `now` (the first time only), while it names `userId`. */
export const claimVerified = (userId: string, email: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: emailClaim(email),
    UpdateExpression: 'SET verifiedAt = if_not_exists(verifiedAt, :now)',
    ConditionExpression: 'userId = :userId',
    ExpressionAttributeValues: { ':now': now, ':userId': userId },
  },
});

/**
 * Marking the person's address verified at `now` (the first time only) on the user and on the address's claim, on the
 * condition that the address is still theirs: for the transaction of whatever proved the person reads mail there.
 */
export const markEmailVerified = (userId: string, email: string, now: string): [user: TransactItem, claim: TransactItem] => [
  {
    Update: {
      TableName: tableName(),
      Key: user(userId),
      UpdateExpression: `SET ${SET_EMAIL_VERIFIED}`,
      ConditionExpression: 'attribute_exists(pk) AND email = :email',
      ExpressionAttributeValues: { ':now': now, ':email': email },
    },
  },
  claimVerified(userId, email, now),
];

/**
 * Spending `link` and marking its address verified, for one transaction: the link deleted on the condition that it is
 * still this one and unexpired at `now`.
 */
export const spendEmailVerification = (link: EmailVerification, now: string): [link: TransactItem, user: TransactItem, claim: TransactItem] => [
  {
    Delete: {
      TableName: tableName(),
      Key: EmailVerificationEntity.key(link),
      ConditionExpression: 'verifier = :verifier AND expiresAt > :now',
      ExpressionAttributeValues: { ':verifier': link.verifier, ':now': now },
    },
  },
  ...markEmailVerified(link.userId, link.email, now),
];
