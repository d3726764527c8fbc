/** Users (people who sign in) and the e-mail index that keeps sign-in addresses unique. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../platform/db/client.ts';
import type { ItemRead } from '../platform/db/batch-read.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { emailClaim, emailClaimSchema, UserEntity, type User } from './user.entity.ts';

/** The user item and its e-mail claim; the second fails the transaction when the address is taken. */
export const putNewUser = (u: User): [user: TransactItem, emailClaim: TransactItem] => [
  {
    Put: {
      TableName: tableName(),
      Item: UserEntity.item(u),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Put: {
      TableName: tableName(),
      Item: { ...emailClaim(u.email), entity: 'email', userId: u.id, ...(u.emailVerifiedAt ? { verifiedAt: u.emailVerifiedAt } : {}) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
];

export const userRead = (id: string): ItemRead<User> => ({ key: UserEntity.key({ id }), from: UserEntity.parse });

export async function getUser(id: string): Promise<User | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: UserEntity.key({ id }), ConsistentRead: true }));
  return UserEntity.parseOrNull(Item);
}

/**
 * The id of the user who signs in with `email`, or null: the e-mail claim alone (one read). A claim is written in
 * the same transaction as its user and neither is ever deleted, so a claim always names a user.
 */
export async function userIdByEmail(email: string): Promise<string | null> {
  return (await addressHolder(email))?.userId ?? null;
}

/** Who signs in with `email` and whether they have proved the address (`verified`), or null: the e-mail claim alone. */
export async function addressHolder(email: string): Promise<{ userId: string; verified: boolean } | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: emailClaim(email), ConsistentRead: true }));
  if (!Item) return null;
  const claim = v.parse(emailClaimSchema, Item);
  return { userId: claim.userId, verified: claim.verifiedAt !== null };
}

export async function getUserByEmail(email: string): Promise<User | null> {
  const userId = await userIdByEmail(email);
  return userId ? getUser(userId) : null;
}
