/** Memberships: a user's role on a merchant; listed per user through gsi1. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../domain/merchants.ts';
import { db, queryGsi1, tableName } from './client.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './types.ts';

export interface Membership {
  merchantId: string;
  userId: string;
  role: Role;
  createdAt: string;
}

const fromItem = (item: Record<string, unknown>): Membership => ({
  merchantId: item.merchantId as string,
  userId: item.userId as string,
  role: item.role as Role,
  createdAt: item.createdAt as string,
});

const item = (m: Membership) => ({
  ...keys.membership(m.merchantId, m.userId),
  ...keys.membershipListing(m.userId, m.merchantId),
  entity: 'membership',
  ...m,
});

/** A new membership; fails when the user is already a member of that merchant. */
export const putNewMembership = (m: Membership): TransactItem => ({
  Put: { TableName: tableName(), Item: item(m), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The owner membership of a claim: replaces any lesser role the user had on that merchant. */
export const putOwnerMembership = (m: Membership): TransactItem => ({
  Put: { TableName: tableName(), Item: item({ ...m, role: 'owner' }) },
});

export async function getMembership(merchantId: string, userId: string): Promise<Membership | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.membership(merchantId, userId), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

export async function listMembershipsOfUser(userId: string): Promise<Membership[]> {
  return (await queryGsi1(keys.membershipsOfUser(userId).gsi1pk)).map(fromItem);
}
