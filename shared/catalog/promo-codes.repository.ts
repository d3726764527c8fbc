/**
 * Promo codes. Each is its own partition `PROMO#<id>`, listed per organization through gsi1 (createdAt) and gsi2
 * (updatedAt). Its code is claimed per organization, case-insensitively, by a claim item
 * `MERCHANT#<orgId>` / `PROMOCODE#<lowercased code>` written in the same transaction with
 * `attribute_not_exists(pk)`: of two creates of `SUMMER` and `summer`, one wins. Checkout finds a code through
 * its claim (organization + code → promo code id) in one read.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, updateOrRefused } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import { catalogListing } from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type PromoCode, promoCodeClaim, PromoCodeEntity } from './promo-code.entity.ts';

/** The mutable fields of a promo code. */
export interface PromoCodeChanges {
  isActive?: boolean;
  expiresAt?: string | null;
  maxRedemptions?: number | null;
  planIds?: string[];
}

/** Create, as two transaction items: the promo code (new id) and its code's claim (code not taken). Claim second. */
export const putNewPromoCode = (p: PromoCode): [TransactItem, TransactItem] => [
  { Put: { TableName: tableName(), Item: PromoCodeEntity.item(p), ConditionExpression: 'attribute_not_exists(pk)' } },
  {
    Put: {
      TableName: tableName(),
      Item: {
        ...promoCodeClaim(p.organizationId, p.code),
        entity: 'promoCodeClaim',
        organizationId: p.organizationId,
        code: p.code,
        promoCodeId: p.id,
        createdAt: p.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
];

/**
 * One redemption of the promo code, for a checkout confirm's claim: on the condition that the code is still
 * active, unexpired at `now` and below `maxRedemptions`, so a code with `maxRedemptions` N is redeemed at most N
 * times however many buyers confirm at once. A payment that does not complete gives it back
 * (`releasePromoRedemption`).
 */
export const redeemPromoCode = (id: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: PromoCodeEntity.key({ id }),
    UpdateExpression: 'SET timesRedeemed = if_not_exists(timesRedeemed, :zero) + :one',
    ConditionExpression:
      'attribute_exists(pk) AND isActive = :true AND (attribute_not_exists(expiresAt) OR expiresAt > :now)' +
      ' AND (attribute_not_exists(maxRedemptions) OR timesRedeemed < maxRedemptions)',
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':true': true, ':now': now },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/** Gives back the redemption of a payment that did not complete. */
export const releasePromoRedemption = (id: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: PromoCodeEntity.key({ id }),
    UpdateExpression: 'SET timesRedeemed = timesRedeemed - :one',
    ConditionExpression: 'timesRedeemed > :zero',
    ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
  },
});

/** The promo code `id`, whoever it belongs to (checkout compares it with the plan's organization), or null. */
export async function getPromoCodeById(id: string): Promise<PromoCode | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PromoCodeEntity.key({ id }), ConsistentRead: true }));
  return PromoCodeEntity.parseOrNull(Item);
}

/** The promo code `id` of `organizationId`, or null (also for another organization's). */
export async function getPromoCode(organizationId: string, id: string): Promise<PromoCode | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PromoCodeEntity.key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? PromoCodeEntity.parse(Item) : null;
}

/** The id of the organization's promo code `code` (any case), or null. */
export async function findPromoCodeId(organizationId: string, code: string): Promise<string | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: promoCodeClaim(organizationId, code), ConsistentRead: true }));
  return stringOrNull(Item?.promoCodeId);
}

/** The update of `changes`, with its precondition: the code is the organization's, and never capped below its redemptions. */
function updateInput(organizationId: string, id: string, changes: PromoCodeChanges, now: string) {
  const sets = ['updatedAt = :now', 'gsi2sk = :gsi2sk'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':now': now,
    ':gsi2sk': catalogListing('PROMO', organizationId, id, now, now).gsi2sk,
    ':org': organizationId,
  };
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  let condition = 'attribute_exists(pk) AND organizationId = :org';
  if (typeof changes.maxRedemptions === 'number') condition += ' AND timesRedeemed <= :maxRedemptions';
  return {
    TableName: tableName(),
    Key: PromoCodeEntity.key({ id }),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
    ExpressionAttributeValues: values,
  };
}

export type UpdateOutcome = { ok: true; promoCode: PromoCode } | { ok: false; current: PromoCode | null };

/**
 * Apply `changes` in one conditional update. When the condition fails, `current` is the item as it was
 * (null when it does not exist in this organization): the caller tells "not found" from "below redemptions".
 */
export async function updatePromoCode(organizationId: string, id: string, changes: PromoCodeChanges, now: string): Promise<UpdateOutcome> {
  const outcome = await updateOrRefused(updateInput(organizationId, id, changes, now));
  if ('updated' in outcome) return { ok: true, promoCode: PromoCodeEntity.parse(outcome.updated) };
  const old = PromoCodeEntity.parseOrNull(outcome.refused);
  return { ok: false, current: old && old.organizationId === organizationId ? old : null };
}

/** The same update as a transaction item, for updates that also check other items (the plans of `planIds`). */
export const updatePromoCodeItem = (organizationId: string, id: string, changes: PromoCodeChanges, now: string): TransactItem => ({
  Update: updateInput(organizationId, id, changes, now),
});

export interface PromoCodeListOptions extends Omit<CatalogListOptions, 'filter'> {
  /** Lowercased text the code must contain. */
  search?: string;
}

/** One offset page of the organization's promo codes and the total count of matches (Query, never a Scan). */
export async function listPromoCodes(organizationId: string, o: PromoCodeListOptions): Promise<{ totalCount: number; promoCodes: PromoCode[] }> {
  const { search, ...options } = o;
  const page = await listCatalogPage('PROMO', organizationId, {
    ...options,
    ...(search ? { filter: { expression: 'contains(#search, :search)', names: { '#search': 'searchText' }, values: { ':search': search } } } : {}),
  });
  return { totalCount: page.totalCount, promoCodes: page.items.map(PromoCodeEntity.parse) };
}
