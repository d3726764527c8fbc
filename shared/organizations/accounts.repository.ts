/** Organization API accounts, their API keys, and their links to organizations. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Account, account, AccountEntity } from './account.entity.ts';
import { type AccountLink, accountLink, AccountLinkEntity, accountLinkListing, accountLinksOf } from './account-link.entity.ts';
import { orgApiKey, OrgApiKeyEntity, orgApiKeyListing, type OrgApiKeyRecord } from './org-api-key.entity.ts';
import { db, putFresh, queryAll, queryGsi1, tableName, updateIfCondition, revokeOwnedItem, sendIfCondition } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';

export const putNewAccount = (a: Account): TransactItem => ({
  Put: { TableName: tableName(), Item: AccountEntity.item(a), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function getAccount(id: string): Promise<Account | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: account(id), ConsistentRead: true }));
  return AccountEntity.parseOrNull(Item);
}

/** Activate once: null when the account was activated already (or does not exist). */
export async function activateAccount(id: string, now: string): Promise<Account | null> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: account(id),
    UpdateExpression: 'SET activatedAt = :now, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(activatedAt)',
    ExpressionAttributeValues: { ':now': now },
  });
  return AccountEntity.parseOrNull(item ?? undefined);
}

/** Replace the secret hash, on the condition that it is still the one the caller proved (no lost update). */
export async function replaceAccountSecret(id: string, oldHash: string, newHash: string, now: string): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: account(id),
      UpdateExpression: 'SET secretHash = :new, updatedAt = :now',
      ConditionExpression: 'secretHash = :old',
      ExpressionAttributeValues: { ':new': newHash, ':old': oldHash, ':now': now },
    }),
  );
}

export const putNewOrgApiKey = (k: OrgApiKeyRecord): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: OrgApiKeyEntity.item(k),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * A check, in the transaction of what a request makes with the key `apiKeyId` of `accountId`, that the key is still
 * live: a request that passed its key check before the key was revoked makes nothing after it.
 */
export const orgApiKeyStillLive = (accountId: string, apiKeyId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: orgApiKey(apiKeyId),
    ConditionExpression: 'accountId = :a AND attribute_not_exists(revokedAt)',
    ExpressionAttributeValues: { ':a': accountId },
  },
});

export const createOrgApiKey = (k: OrgApiKeyRecord): Promise<void> => putFresh(OrgApiKeyEntity.item(k));

export async function getOrgApiKey(id: string): Promise<OrgApiKeyRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: orgApiKey(id), ConsistentRead: true }));
  return OrgApiKeyEntity.parseOrNull(Item);
}

export async function listOrgApiKeys(accountId: string): Promise<OrgApiKeyRecord[]> {
  return (await queryGsi1(orgApiKeyListing(accountId, '', '').gsi1pk)).map(OrgApiKeyEntity.parse);
}

/**
 * New secret for the key `current` read, as it was read (its verifier unchanged since, not revoked); null when another
 * change came first.
 */
export async function rotateOrgApiKey(current: OrgApiKeyRecord, verifier: string, now: string): Promise<OrgApiKeyRecord | null> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: orgApiKey(current.id),
    UpdateExpression: 'SET verifier = :v, rotatedAt = :now, updatedAt = :now',
    ConditionExpression: 'accountId = :a AND attribute_not_exists(revokedAt) AND verifier = :read',
    ExpressionAttributeValues: { ':v': verifier, ':a': current.accountId, ':read': current.verifier, ':now': now },
  });
  return OrgApiKeyEntity.parseOrNull(item ?? undefined);
}

/**
 * Revoke a key of `accountId`; revoking a revoked key changes nothing and returns it as it is. Null when the
 * account has no such key.
 */
export async function revokeOrgApiKey(accountId: string, id: string, now: string): Promise<OrgApiKeyRecord | null> {
  const revoked = await revokeOwnedItem(orgApiKey(id), { accountId }, now, { stampUpdatedAt: true });
  return revoked.outcome === 'not_found' ? null : OrgApiKeyEntity.parse(revoked.item);
}

/**
 * The account's list of organizations with `organizationId` added, on the condition that it held `linkedBefore` of
 * them (its links are only ever added: the count tells the list as read).
 */
export const addAccountOrganization = (accountId: string, organizationId: string, linkedBefore: number, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: account(accountId),
    UpdateExpression: 'SET organizationIds = list_append(if_not_exists(organizationIds, :none), :added), updatedAt = :now',
    ConditionExpression:
      linkedBefore === 0 ? 'attribute_exists(pk) AND (attribute_not_exists(organizationIds) OR size(organizationIds) = :n)' : 'size(organizationIds) = :n',
    ExpressionAttributeValues: { ':none': [], ':added': [organizationId], ':n': linkedBefore, ':now': now },
  },
});

/** For a link's transaction: `accountId` is still an owner of `organizationId` (as read). */
export const stillOwnerOf = (organizationId: string, accountId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: accountLink(organizationId, accountId),
    ConditionExpression: 'isOwner = :yes',
    ExpressionAttributeValues: { ':yes': true },
  },
});

/** A new link; fails (ConditionalCheckFailed) when the account is linked to that organization already. */
export const putNewAccountLink = (l: AccountLink): TransactItem => ({
  Put: { TableName: tableName(), Item: AccountLinkEntity.item(l), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function getAccountLink(organizationId: string, accountId: string): Promise<AccountLink | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: accountLink(organizationId, accountId), ConsistentRead: true }));
  return AccountLinkEntity.parseOrNull(Item);
}

export async function listAccountLinksOfOrganization(organizationId: string): Promise<AccountLink[]> {
  const { pk, skPrefix } = accountLinksOf(organizationId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  return items.map(AccountLinkEntity.parse);
}

/** The links of account `accountId` (the organizations it reaches): all of them, or the first `enough`. */
export async function listAccountLinksOfAccount(accountId: string, enough?: number): Promise<AccountLink[]> {
  return (await queryGsi1(accountLinkListing(accountId, '').gsi1pk, enough)).map(AccountLinkEntity.parse);
}

/**
 * Change a link's owner flag from `from` to `to`; refused (ConditionalCheckFailed) when the link is gone or its
 * flag is no longer `from`. Paired with `changeOwnerAccountCount` in one transaction.
 */
export const setAccountLinkOwner = (organizationId: string, accountId: string, from: boolean, to: boolean, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: accountLink(organizationId, accountId),
    UpdateExpression: 'SET isOwner = :to, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND isOwner = :from',
    ExpressionAttributeValues: { ':to': to, ':from': from, ':now': now },
  },
});
