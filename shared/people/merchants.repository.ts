/** Merchant records. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Merchant } from '../domain/merchants.ts';
import { db, tableName, updateIfCondition, sendIfCondition } from '../platform/db/client.ts';
import type { ItemRead } from '../platform/db/batch-read.ts';
import { queryOffsetPage } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { MerchantEntity, merchantChildren } from './merchant.entity.ts';

/** The merchant `id` as one read of a batch (`batchRead`). */
export const merchantRead = (id: string): ItemRead<Merchant> => ({ key: MerchantEntity.key({ id }), from: MerchantEntity.parse });

export async function getMerchant(id: string): Promise<Merchant | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: MerchantEntity.key({ id }), ConsistentRead: true }));
  return MerchantEntity.parseOrNull(Item);
}

/**
 * One offset page of the sub-merchants of `parentId`, newest first, and how many it has: a count and the page's first
 * `offset + limit` children read at once on gsi1 (see `queryOffsetPage` for the cost).
 */
export async function listChildren(parentId: string, page: { offset: number; limit: number }): Promise<{ merchants: Merchant[]; totalCount: number }> {
  const { totalCount, items } = await queryOffsetPage(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': merchantChildren(parentId, '', '').gsi1pk },
    },
    { ascending: false, ...page },
  );
  return { merchants: items.map(MerchantEntity.parse), totalCount };
}

/**
 * In a transaction: `id` is a root (partner) merchant of `mode`, as the parent of a new sub-merchant must be.
 * When it is not, the transaction is cancelled and the merchant as it was comes back in the cancellation
 * (`cancelledPartItem`), so the caller can tell a sub-merchant from a missing merchant without reading it.
 */
export const checkIsRootOfMode = (id: string, mode: Merchant['mode']): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: MerchantEntity.key({ id }),
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(parentId) AND #mode = :mode',
    ExpressionAttributeNames: { '#mode': 'mode' },
    ExpressionAttributeValues: { ':mode': mode },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/**
 * Registers `currency` among the merchant's sharded balances, for the transaction of the payment that books its
 * balance's first pending funds: added to a string set (`shardedBalanceCurrencySet`), so any number of first payments
 * at once (concurrent requests, the subscriptions of a test clock's advance) register it once. Items from before the
 * set keep their list (`shardedBalanceCurrencies`); the entity reads the two as one.
 */
export const registerShardedBalance = (id: string, currency: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: MerchantEntity.key({ id }),
    UpdateExpression: 'ADD shardedBalanceCurrencySet :currency',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':currency': new Set([currency]) },
  },
});

/** Create: never overwrites an existing merchant. */
export const putNewMerchant = (m: Merchant): TransactItem => ({
  Put: { TableName: tableName(), Item: MerchantEntity.item(m), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function setWebsiteUrl(id: string, websiteUrl: string, now: string): Promise<Merchant> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: MerchantEntity.key({ id }),
      UpdateExpression: 'SET websiteUrl = :url, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':url': websiteUrl, ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return MerchantEntity.parse(Attributes!);
}

/**
 * Record that the merchant went live at `now`, on the condition that it is not live yet and still as it was read
 * (`readUpdatedAt`: every change of an activation step moves `updatedAt`). The merchant as it is afterwards, or null
 * when the condition did not hold.
 */
export async function setLive(id: string, readUpdatedAt: string, now: string): Promise<Merchant | null> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: MerchantEntity.key({ id }),
    UpdateExpression: 'SET liveAt = :now, updatedAt = :now',
    ConditionExpression: 'updatedAt = :read AND attribute_not_exists(liveAt)',
    ExpressionAttributeValues: { ':now': now, ':read': readUpdatedAt },
  });
  return item ? MerchantEntity.parse(item) : null;
}

/** Replace the join link; refused (false) once an owner is attached. */
export async function replaceJoinLink(id: string, joinLink: NonNullable<Merchant['joinLink']>, now: string): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: MerchantEntity.key({ id }),
      UpdateExpression: 'SET joinLink = :link, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ownerUserId)',
      ExpressionAttributeValues: { ':link': joinLink, ':now': now },
    }),
  );
}

/**
 * Attach the owner, on the condition that none is attached yet — and, for a join-link claim, that the link
 * presented is still the latest one. The join link is spent either way.
 */
export const attachOwner = (id: string, ownerUserId: string, now: string, joinLinkVerifier?: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: MerchantEntity.key({ id }),
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
 * The organization settings a link may carry (workspace reference, this deployment's webhook settings), set on
 * the organization; with `addOwner`, also one more owner account (as `changeOwnerAccountCount(id, 1)`, in the
 * same update, since a transaction may touch the organization only once).
 */
export const setOrganizationSettings = (
  id: string,
  settings: { cfWorkspaceHash?: string; webhookMeta?: NonNullable<Merchant['webhookMeta']> },
  addOwner: boolean,
  now: string,
): TransactItem => {
  const sets = ['updatedAt = :now'];
  const values: Record<string, unknown> = { ':now': now };
  if (settings.cfWorkspaceHash !== undefined) {
    sets.push('cfWorkspaceHash = :hash');
    values[':hash'] = settings.cfWorkspaceHash;
  }
  if (settings.webhookMeta !== undefined) {
    sets.push('webhookMeta = :meta');
    values[':meta'] = settings.webhookMeta;
  }
  if (addOwner) values[':one'] = 1;
  return {
    Update: {
      TableName: tableName(),
      Key: MerchantEntity.key({ id }),
      UpdateExpression: `SET ${sets.join(', ')}${addOwner ? ' ADD ownerAccountCount :one' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    },
  };
};

/**
 * The onboarding submission's effect on the organization: its business, member and report currency, and the
 * hosted form moved from `not-started` to `submitted` (refused, ConditionalCheckFailed, once submitted).
 */
export const submitOnboardingOf = (
  id: string,
  fields: { business: NonNullable<Merchant['business']>; member: NonNullable<Merchant['member']>; reportCurrency: string },
  now: string,
): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: MerchantEntity.key({ id }),
    UpdateExpression: 'SET business = :business, #member = :member, reportCurrency = :currency, hostedOnboardingFormStatus = :submitted, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(hostedOnboardingFormStatus) OR hostedOnboardingFormStatus = :notStarted)',
    ExpressionAttributeNames: { '#member': 'member' },
    ExpressionAttributeValues: {
      ':business': fields.business,
      ':member': fields.member,
      ':currency': fields.reportCurrency,
      ':submitted': 'submitted',
      ':notStarted': 'not-started',
      ':now': now,
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
    Key: MerchantEntity.key({ id: organizationId }),
    UpdateExpression: 'ADD ownerAccountCount :by SET updatedAt = :now',
    ConditionExpression: by > 0 ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND ownerAccountCount > :one',
    ExpressionAttributeValues: { ':by': by, ':now': now, ...(by > 0 ? {} : { ':one': 1 }) },
  },
});

/**
 * One owner more (`by: 1`) or fewer (`by: -1`) on the merchant's team count `ownerMemberCount` (memberships with
 * role owner; not the organization API's `ownerAccountCount`). Merchants never stored it before team changes
 * existed, and every path that attaches an owner attaches exactly one, so a missing count means one owner.
 * - Adding one needs an attached owner (the count is only meaningful then).
 * - Taking one away is refused (ConditionalCheckFailed) unless more than one owner is counted; a missing count
 *   is one, so it is refused too. `leaving` is the user who stops being an owner: the merchant's `ownerUserId`
 *   (the owner told when a webhook circuit opens) must not be them, unless `successor`, another owner, takes over.
 */
export const changeOwnerMemberCount = (id: string, change: { by: 1 } | { by: -1; leaving: string; successor: string | null }): TransactItem => {
  if (change.by === 1) {
    return {
      Update: {
        TableName: tableName(),
        Key: MerchantEntity.key({ id }),
        UpdateExpression: 'SET ownerMemberCount = if_not_exists(ownerMemberCount, :one) + :one',
        ConditionExpression: 'attribute_exists(ownerUserId)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  const { leaving, successor } = change;
  return {
    Update: {
      TableName: tableName(),
      Key: MerchantEntity.key({ id }),
      UpdateExpression: `SET ownerMemberCount = if_not_exists(ownerMemberCount, :one) - :one${successor ? ', ownerUserId = :successor' : ''}`,
      ConditionExpression: `ownerMemberCount > :one AND ownerUserId ${successor ? '=' : '<>'} :leaving`,
      ExpressionAttributeValues: { ':one': 1, ':leaving': leaving, ...(successor ? { ':successor': successor } : {}) },
    },
  };
};

/**
 * The merchant's payout-method count moves from `was` to `was + delta` (conditional on `was`, the merchant existing),
 * and `payoutMethodAdded` says whether any is left.
 */
export function changePayoutMethodCount(merchantId: string, was: number, delta: 1 | -1, at: string): TransactItem {
  const now = was + delta;
  return {
    Update: {
      TableName: tableName(),
      Key: MerchantEntity.key({ id: merchantId }),
      UpdateExpression: 'SET payoutMethodCount = :now, payoutMethodAdded = :added, updatedAt = :at',
      ConditionExpression: `attribute_exists(pk) AND ${was === 0 ? '(attribute_not_exists(payoutMethodCount) OR payoutMethodCount = :was)' : 'payoutMethodCount = :was'}`,
      ExpressionAttributeValues: { ':now': now, ':added': now > 0, ':at': at, ':was': was },
    },
  };
}

/** How many payout methods the merchant item counts (a strongly consistent read). */
export async function getPayoutMethodCount(merchantId: string): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: MerchantEntity.key({ id: merchantId }),
      ProjectionExpression: 'payoutMethodCount',
      ConsistentRead: true,
    }),
  );
  return Number(Item?.payoutMethodCount ?? 0);
}
