/**
 * A merchant (= organization): `MERCHANT#<id>` / `MERCHANT`; a sub-merchant is also listed under its parent on gsi1
 * (`CHILDREN#<parentId>`, by creation). The organization fields are absent on merchants made through the merchant
 * API or the operator CLI, and read back as null (`hostedOnboardingFormStatus`: `not-started`).
 */
import * as v from 'valibot';
import type { Merchant } from '../domain/merchants.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { organizationMemberSchema, phone } from './merchants.schemas.ts';

/** A merchant's own item (its partition also holds its team, invitations and settings). */
export const merchant = (id: string) => ({ pk: `MERCHANT#${id}`, sk: 'MERCHANT' });
/** A sub-merchant's place among its parent's children (gsi1, by creation). */
export const merchantChildren = (parentId: string, createdAt: string, id: string) => ({
  gsi1pk: `CHILDREN#${parentId}`,
  gsi1sk: `${createdAt}#${id}`,
});

/**
 * A merchant's sharded balances as one list, each currency once: those registered in the set, and those an item from
 * before the set lists (where first payments at once may have listed one twice).
 */
const withShardedCurrencies = <T extends { shardedBalanceCurrencies?: string[]; shardedBalanceCurrencySet?: Set<string> }>({
  shardedBalanceCurrencySet,
  ...m
}: T): Omit<T, 'shardedBalanceCurrencySet'> => {
  const all = [...new Set([...(m.shardedBalanceCurrencies ?? []), ...(shardedBalanceCurrencySet ?? [])])];
  return all.length ? { ...m, shardedBalanceCurrencies: all } : m;
};

export const MerchantEntity = entity<Merchant, { id: string }>({
  kind: 'merchant',
  schema: v.pipe(
    v.object({
      id: v.string(),
      name: v.string(),
      parentId: orNull(v.string()),
      mode: v.picklist(['test', 'live']),
      websiteUrl: orNull(v.string()),
      ownerUserId: orNull(v.string()),
      joinLink: orNull(v.object({ verifier: v.string(), expiresAt: v.string() })),
      payoutMethodAdded: v.optional(v.boolean(), false),
      liveAt: orNull(v.string()),
      shardedBalanceCurrencies: v.optional(v.array(v.string())),
      shardedBalanceCurrencySet: v.optional(v.set(v.string())),
      createdAt: v.string(),
      updatedAt: v.string(),
      ownerAccountCount: v.optional(v.number()),
      registeredAt: orNull(v.string()),
      registeredByAccountId: orNull(v.string()),
      country: orNull(v.string()),
      reportCurrency: orNull(v.string()),
      cfWorkspaceHash: orNull(v.string()),
      webhookMeta: orNull(
        v.object({
          url: v.string(),
          eventTypes: v.array(v.string()),
          taxCategoryId: orNull(v.string()),
          accountingCode: orNull(v.string()),
          recognition: orNull(v.object({ debitAccountId: orNull(v.string()), creditAccountId: orNull(v.string()) })),
          createdAt: v.string(),
          updatedAt: v.string(),
        }),
      ),
      hostedOnboardingFormStatus: v.optional(v.picklist(['not-started', 'submitted']), 'not-started'),
      business: orNull(
        v.object({
          name: v.string(),
          dba: v.string(),
          type: v.string(),
          public: orNull(v.boolean()),
          address: v.string(),
          city: v.string(),
          state: v.string(),
          zip: v.string(),
          country: v.string(),
          phone,
        }),
      ),
      member: orNull(organizationMemberSchema),
    }),
    v.transform(withShardedCurrencies),
  ),
  key: (m) => merchant(m.id),
  attributes: (m) => (m.parentId ? merchantChildren(m.parentId, m.createdAt, m.id) : {}),
});
