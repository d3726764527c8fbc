/** Merchant records. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Merchant } from '../domain/merchants.ts';
import { db, isConditionFailed, tableName } from './client.ts';
import { withoutNulls } from './items.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './types.ts';

export function toItem(m: Merchant): Record<string, unknown> {
  return {
    ...keys.merchant(m.id),
    ...(m.parentId ? keys.merchantChildren(m.parentId, m.createdAt, m.id) : {}),
    entity: 'merchant',
    ...withoutNulls(m),
  };
}

export function fromItem(item: Record<string, unknown>): Merchant {
  return {
    id: item.id as string,
    name: item.name as string,
    parentId: (item.parentId as string | null) ?? null,
    mode: item.mode as Merchant['mode'],
    websiteUrl: (item.websiteUrl as string | null) ?? null,
    ownerUserId: (item.ownerUserId as string | null) ?? null,
    joinLink: (item.joinLink as Merchant['joinLink']) ?? null,
    payoutMethodAdded: Boolean(item.payoutMethodAdded),
    liveAt: (item.liveAt as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export async function getMerchant(id: string): Promise<Merchant | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.merchant(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** Create: never overwrites an existing merchant. */
export const putNewMerchant = (m: Merchant): TransactItem => ({
  Put: { TableName: tableName(), Item: toItem(m), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function setWebsiteUrl(id: string, websiteUrl: string, now: string): Promise<Merchant> {
  const { Attributes } = await db.send(new UpdateCommand({
    TableName: tableName(),
    Key: keys.merchant(id),
    UpdateExpression: 'SET websiteUrl = :url, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':url': websiteUrl, ':now': now },
    ReturnValues: 'ALL_NEW',
  }));
  return fromItem(Attributes!);
}

/** Replace the join link; refused (false) once an owner is attached. */
export async function replaceJoinLink(id: string, joinLink: NonNullable<Merchant['joinLink']>, now: string): Promise<boolean> {
  try {
    await db.send(new UpdateCommand({
      TableName: tableName(),
      Key: keys.merchant(id),
      UpdateExpression: 'SET joinLink = :link, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ownerUserId)',
      ExpressionAttributeValues: { ':link': joinLink, ':now': now },
    }));
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * Attach the owner, on the condition that none is attached yet — and, for a join-link claim, that the link
 * presented is still the latest one. The join link is spent either way.
 */
export const attachOwner = (id: string, ownerUserId: string, now: string, joinLinkVerifier?: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.merchant(id),
    UpdateExpression: 'SET ownerUserId = :owner, updatedAt = :now REMOVE joinLink',
    ConditionExpression: joinLinkVerifier
      ? 'attribute_not_exists(ownerUserId) AND joinLink.verifier = :verifier AND joinLink.expiresAt > :now'
      : 'attribute_exists(pk) AND attribute_not_exists(ownerUserId)',
    ExpressionAttributeValues: {
      ':owner': ownerUserId,
      ':now': now,
      ...(joinLinkVerifier ? { ':verifier': joinLinkVerifier } : {}),
    },
  },
});

/**
 * Adds `by` to the organization's count of owner accounts (organization API). Taking one away is refused
 * (ConditionalCheckFailed) when it would leave the organization without an owner account.
 */
export const changeOwnerAccountCount = (organizationId: string, by: 1 | -1, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.merchant(organizationId),
    UpdateExpression: 'ADD ownerAccountCount :by SET updatedAt = :now',
    ConditionExpression: by > 0 ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND ownerAccountCount > :one',
    ExpressionAttributeValues: { ':by': by, ':now': now, ...(by > 0 ? {} : { ':one': 1 }) },
  },
});
