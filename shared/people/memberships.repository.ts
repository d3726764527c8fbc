/** Memberships: a user's role on a merchant; listed per user through gsi1, and per merchant in its partition. */
import { BatchGetCommand, GetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../domain/merchants.ts';
import { db, queryAll, queryGsi1, tableName, type ItemRead } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { stringOrNull } from '../platform/db/items.ts';

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

/** `userId`'s membership of `merchantId` as one read of a batch (`batchRead`). */
export const membershipRead = (merchantId: string, userId: string): ItemRead<Membership> => ({ key: keys.membership(merchantId, userId), from: fromItem });

export async function getMembership(merchantId: string, userId: string): Promise<Membership | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.membership(merchantId, userId), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

export async function listMembershipsOfUser(userId: string): Promise<Membership[]> {
  return (await queryGsi1(keys.membershipsOfUser(userId).gsi1pk)).map(fromItem);
}

/** The team of a merchant: every membership, oldest first (strongly consistent, so a change just made is seen). */
export async function listMembershipsOfMerchant(merchantId: string): Promise<Membership[]> {
  const { pk, skPrefix } = keys.membersOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId));
}

/** What a team list shows of a user: only public fields are read (never the password hash). */
export interface MemberProfile {
  email: string;
  name: string | null;
}

/** The profiles of `userIds`, by user id, in as few `BatchGetItem` calls as DynamoDB allows (100 keys each). */
export async function profilesOf(userIds: readonly string[]): Promise<Map<string, MemberProfile>> {
  const profiles = new Map<string, MemberProfile>();
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map((id) => keys.user(id));
    for (let attempt = 1; pending?.length; attempt++) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys: pending, ProjectionExpression: 'id, email, #name', ExpressionAttributeNames: { '#name': 'name' }, ConsistentRead: true },
          },
        }),
      );
      for (const u of Responses?.[tableName()] ?? []) {
        profiles.set(u.id as string, { email: u.email as string, name: stringOrNull(u.name) });
      }
      pending = UnprocessedKeys?.[tableName()]?.Keys;
      if (pending?.length && attempt >= 5) throw new Error('DynamoDB left user keys unprocessed');
    }
  }
  return profiles;
}

/** Change a member's role, on the condition that their role is still the one read (`m.role`). */
export const setMembershipRole = (m: Membership, role: Role): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.membership(m.merchantId, m.userId),
    UpdateExpression: 'SET #role = :to',
    ConditionExpression: '#role = :from',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':to': role, ':from': m.role },
  },
});

/** Remove a member, on the condition that their role is still the one read (`m.role`). */
export const deleteMembership = (m: Membership): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.membership(m.merchantId, m.userId),
    ConditionExpression: '#role = :from',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':from': m.role },
  },
});

/** A transaction condition: `userId` is a member of `merchantId` with `role`. */
export const membershipHasRole = (merchantId: string, userId: string, role: Role): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.membership(merchantId, userId),
    ConditionExpression: '#role = :role',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':role': role },
  },
});

/** A transaction condition: `userId` is still a member of `merchantId`, with any role. */
export const membershipStands = (merchantId: string, userId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.membership(merchantId, userId),
    ConditionExpression: 'attribute_exists(pk)',
  },
});
