/** Users (people who sign in) and the e-mail index that keeps sign-in addresses unique. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type ItemRead } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { stringOrNull } from '../platform/db/items.ts';

export interface User {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  createdAt: string;
}

const fromItem = (item: Record<string, unknown>): User => ({
  id: item.id as string,
  email: item.email as string,
  name: stringOrNull(item.name),
  passwordHash: item.passwordHash as string,
  createdAt: item.createdAt as string,
});

/** The user item and its e-mail claim; the second fails the transaction when the address is taken. */
export const putNewUser = (u: User): [user: TransactItem, emailClaim: TransactItem] => [
  {
    Put: {
      TableName: tableName(),
      Item: { ...keys.user(u.id), entity: 'user', ...u },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Put: {
      TableName: tableName(),
      Item: { ...keys.email(u.email), entity: 'email', userId: u.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
];

export const userRead = (id: string): ItemRead<User> => ({ key: keys.user(id), from: fromItem });

export async function getUser(id: string): Promise<User | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/**
 * The id of the user who signs in with `email`, or null: the e-mail claim alone (one read). A claim is written in
 * the same transaction as its user and neither is ever deleted, so a claim always names a user.
 */
export async function userIdByEmail(email: string): Promise<string | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  return Item ? (Item.userId as string) : null;
}

export async function getUserByEmail(email: string): Promise<User | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  return Item ? getUser(Item.userId as string) : null;
}
