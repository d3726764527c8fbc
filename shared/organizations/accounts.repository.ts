/** Organization API accounts, their API keys, and their links to organizations. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Mode } from '../domain/deployments.ts';
import type { AccountUserType } from './accounts.rules.ts';
import { db, isConditionFailed, queryAll, queryGsi1, tableName } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';

export interface Account {
  id: string;
  name: string;
  userType: AccountUserType;
  mode: Mode;
  /** scrypt hash of the account's secret. */
  secretHash: string;
  activatedAt: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface OrgApiKeyRecord {
  id: string;
  accountId: string;
  mode: Mode;
  /** Verifier of the current secret; rotation replaces it. */
  verifier: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  revokedAt: string | null;
  rotatedAt: string | null;
}

export interface AccountLink {
  organizationId: string;
  accountId: string;
  isOwner: boolean;
  createdAt: string;
  updatedAt: string;
}

const accountFromItem = (i: Record<string, unknown>): Account => ({
  id: i.id as string,
  name: i.name as string,
  userType: i.userType as AccountUserType,
  mode: i.mode as Mode,
  secretHash: i.secretHash as string,
  activatedAt: stringOrNull(i.activatedAt),
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
  deletedAt: stringOrNull(i.deletedAt),
});

const keyFromItem = (i: Record<string, unknown>): OrgApiKeyRecord => ({
  id: i.id as string,
  accountId: i.accountId as string,
  mode: i.mode as Mode,
  verifier: i.verifier as string,
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
  deletedAt: stringOrNull(i.deletedAt),
  revokedAt: stringOrNull(i.revokedAt),
  rotatedAt: stringOrNull(i.rotatedAt),
});

const linkFromItem = (i: Record<string, unknown>): AccountLink => ({
  organizationId: i.organizationId as string,
  accountId: i.accountId as string,
  isOwner: Boolean(i.isOwner),
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
});

export const putNewAccount = (a: Account): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...keys.account(a.id), entity: 'account', ...withoutNulls(a) }, ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function getAccount(id: string): Promise<Account | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.account(id), ConsistentRead: true }));
  return Item ? accountFromItem(Item) : null;
}

/** Activate once: null when the account was activated already (or does not exist). */
export async function activateAccount(id: string, now: string): Promise<Account | null> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account(id),
        UpdateExpression: 'SET activatedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(activatedAt)',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return accountFromItem(Attributes!);
  } catch (e) {
    if (isConditionFailed(e)) return null;
    throw e;
  }
}

/** Replace the secret hash, on the condition that it is still the one the caller proved (no lost update). */
export async function replaceAccountSecret(id: string, oldHash: string, newHash: string, now: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account(id),
        UpdateExpression: 'SET secretHash = :new, updatedAt = :now',
        ConditionExpression: 'secretHash = :old',
        ExpressionAttributeValues: { ':new': newHash, ':old': oldHash, ':now': now },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

export const putNewOrgApiKey = (k: OrgApiKeyRecord): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.orgApiKey(k.id), ...keys.orgApiKeyListing(k.accountId, k.createdAt, k.id), entity: 'orgApiKey', ...withoutNulls(k) },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export async function createOrgApiKey(k: OrgApiKeyRecord): Promise<void> {
  await db.send(new PutCommand(putNewOrgApiKey(k).Put!));
}

export async function getOrgApiKey(id: string): Promise<OrgApiKeyRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.orgApiKey(id), ConsistentRead: true }));
  return Item ? keyFromItem(Item) : null;
}

export async function listOrgApiKeys(accountId: string): Promise<OrgApiKeyRecord[]> {
  return (await queryGsi1(keys.orgApiKeyListing(accountId, '', '').gsi1pk)).map(keyFromItem);
}

/** New secret for a key of `accountId` that is not revoked; null when there is no such key. */
export async function rotateOrgApiKey(accountId: string, id: string, verifier: string, now: string): Promise<OrgApiKeyRecord | null> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.orgApiKey(id),
        UpdateExpression: 'SET verifier = :v, rotatedAt = :now, updatedAt = :now',
        ConditionExpression: 'accountId = :a AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':v': verifier, ':a': accountId, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return keyFromItem(Attributes!);
  } catch (e) {
    if (isConditionFailed(e)) return null;
    throw e;
  }
}

/**
 * Revoke a key of `accountId`; revoking a revoked key changes nothing and returns it as it is. Null when the
 * account has no such key.
 */
export async function revokeOrgApiKey(accountId: string, id: string, now: string): Promise<OrgApiKeyRecord | null> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.orgApiKey(id),
        UpdateExpression: 'SET revokedAt = :now, updatedAt = :now',
        ConditionExpression: 'accountId = :a AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':a': accountId, ':now': now },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return keyFromItem(Attributes!);
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    // The item that failed the condition comes in DynamoDB's typed form: the document client does not convert it.
    const raw = (e as { Item?: Record<string, AttributeValue> }).Item;
    const old = raw ? unmarshall(raw) : undefined;
    return old && old.accountId === accountId ? keyFromItem(old) : null;
  }
}

const linkItem = (l: AccountLink) => ({
  ...keys.accountLink(l.organizationId, l.accountId),
  ...keys.accountLinkListing(l.accountId, l.organizationId),
  entity: 'accountLink',
  ...l,
});

/** A new link; fails (ConditionalCheckFailed) when the account is linked to that organization already. */
export const putNewAccountLink = (l: AccountLink): TransactItem => ({
  Put: { TableName: tableName(), Item: linkItem(l), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function getAccountLink(organizationId: string, accountId: string): Promise<AccountLink | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.accountLink(organizationId, accountId), ConsistentRead: true }));
  return Item ? linkFromItem(Item) : null;
}

export async function listAccountLinksOfOrganization(organizationId: string): Promise<AccountLink[]> {
  const { pk, skPrefix } = keys.accountLinksOf(organizationId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(linkFromItem);
}

export async function listAccountLinksOfAccount(accountId: string): Promise<AccountLink[]> {
  return (await queryGsi1(keys.accountLinkListing(accountId, '').gsi1pk)).map(linkFromItem);
}

/**
 * Change a link's owner flag from `from` to `to`; refused (ConditionalCheckFailed) when the link is gone or its
 * flag is no longer `from`. Paired with `changeOwnerAccountCount` in one transaction.
 */
export const setAccountLinkOwner = (organizationId: string, accountId: string, from: boolean, to: boolean, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.accountLink(organizationId, accountId),
    UpdateExpression: 'SET isOwner = :to, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND isOwner = :from',
    ExpressionAttributeValues: { ':to': to, ':from': from, ':now': now },
  },
});
