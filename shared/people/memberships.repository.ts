/** Memberships: a user's role on a merchant; listed per user through gsi1, and per merchant in its partition. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Role } from '../domain/merchants.ts';
import { db, queryAll, queryGsi1, tableName } from '../platform/db/client.ts';
import { batchReadMany, type ItemRead } from '../platform/db/batch-read.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { MembershipEntity, membershipsOfUser, membersOf, type Membership } from './membership.entity.ts';
import { user, userProfileSchema } from './user.entity.ts';

/** A new membership; fails when the user is already a member of that merchant. */
export const putNewMembership = (m: Membership): TransactItem => ({
  Put: { TableName: tableName(), Item: MembershipEntity.item(m), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The owner membership of a claim: replaces any lesser role the user had on that merchant. */
export const putOwnerMembership = (m: Membership): TransactItem => ({
  Put: { TableName: tableName(), Item: MembershipEntity.item({ ...m, role: 'owner' }) },
});

/** `userId`'s membership of `merchantId` as one read of a batch (`batchRead`). */
export const membershipRead = (merchantId: string, userId: string): ItemRead<Membership> => ({
  key: MembershipEntity.key({ merchantId, userId }),
  from: MembershipEntity.parse,
});

export async function getMembership(merchantId: string, userId: string): Promise<Membership | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: MembershipEntity.key({ merchantId, userId }), ConsistentRead: true }));
  return MembershipEntity.parseOrNull(Item);
}

export async function listMembershipsOfUser(userId: string): Promise<Membership[]> {
  return (await queryGsi1(membershipsOfUser(userId).gsi1pk)).map(MembershipEntity.parse);
}

/** The team of a merchant: every membership, oldest first (strongly consistent, so a change just made is seen). */
export async function listMembershipsOfMerchant(merchantId: string): Promise<Membership[]> {
  const { pk, skPrefix } = membersOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(MembershipEntity.parse).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId));
}

/** What a team list shows of a user: only public fields are read (never the password hash). */
export interface MemberProfile {
  email: string;
  name: string | null;
}

/** The profiles of `userIds`, by user id, in as few `BatchGetItem` calls as DynamoDB allows (100 keys each). */
export async function profilesOf(userIds: readonly string[]): Promise<Map<string, MemberProfile>> {
  const read = await batchReadMany(
    [...new Set(userIds)].map((id) => ({ key: user(id), from: (item: Record<string, unknown>) => v.parse(userProfileSchema, item) })),
    { projection: { expression: 'id, email, #name', names: { '#name': 'name' } } },
  );
  return new Map(read.flatMap((u) => (u ? [[u.id, { email: u.email, name: u.name }] as const] : [])));
}

/** Change a member's role, on the condition that their role is still the one read (`m.role`). */
export const setMembershipRole = (m: Membership, role: Role): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: MembershipEntity.key(m),
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
    Key: MembershipEntity.key(m),
    ConditionExpression: '#role = :from',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':from': m.role },
  },
});

/** A transaction condition: `userId` is a member of `merchantId` with `role`. */
export const membershipHasRole = (merchantId: string, userId: string, role: Role): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: MembershipEntity.key({ merchantId, userId }),
    ConditionExpression: '#role = :role',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':role': role },
  },
});

/** A transaction condition: `userId` is still a member of `merchantId`, with any role. */
export const membershipStands = (merchantId: string, userId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: MembershipEntity.key({ merchantId, userId }),
    ConditionExpression: 'attribute_exists(pk)',
  },
});
