/**
 * The table's shared key kit: what several kinds of item share. Each kind's own keys are declared with it, in its
 * entity file beside its repository (`shared/<module>/<entity>.entity.ts`, `shared/platform/db/entity.ts`).
 *
 * Catalog records of an organization (websites, products, plans, promo codes, and the records listed like them:
 * card tokens, transactions, disputes, invoices, subscriptions and their changes, withdrawals) live in their own
 * partition, found by id in one read (the record's `organizationId` is checked), and are listed through two
 * indexes, gsi1 by creation time and gsi2 by last update, both partitioned by `<COLLECTION>S#<orgId>`; those that
 * belong to a customer (subscriptions, invoices, transactions) also per customer, on gsi4 (`customerListing`).
 */
import { createHash } from 'node:crypto';

/** Collections of catalog records (their partition and index prefixes). */
export type CatalogCollection =
  | 'WEBSITE'
  | 'PRODUCT'
  | 'PLAN'
  | 'PROMO'
  | 'CARDTOKEN'
  | 'TRANSACTION'
  | 'DISPUTE'
  | 'INVOICE'
  | 'SUBSCRIPTION'
  | 'SUBCANCEL'
  | 'SUBPAUSE'
  | 'SUBREACT'
  | 'WITHDRAWAL';

/** A catalog record of an organization, in its own partition. */
export const catalogItem = (collection: CatalogCollection, id: string) => ({ pk: `${collection}#${id}`, sk: collection });

/**
 * Collections every renewal of an organization writes (its subscription, its charge, its invoice): their listing
 * partitions are spread over shards, so a million renewals of one organization do not write one index partition
 * (docs/performance.md, "Renewal storm"). A record's shard follows from its id; a list reads every shard and merges.
 */
const LISTING_SHARDS: Partial<Record<CatalogCollection, number>> = { SUBSCRIPTION: 8, TRANSACTION: 8, INVOICE: 8 };

/**
 * The partition of shard `shard` of an organization's collection on both listing indexes. Shard 0 has the name the
 * collection had before it was sharded, so a record written then is still listed.
 */
export const catalogPartition = (collection: CatalogCollection, organizationId: string, shard = 0) =>
  shard === 0 ? `${collection}S#${organizationId}` : `${collection}S#${organizationId}#${shard}`;

/** Every listing partition of an organization's collection (one when it is not sharded). */
export const catalogPartitions = (collection: CatalogCollection, organizationId: string): string[] =>
  Array.from({ length: LISTING_SHARDS[collection] ?? 1 }, (_, shard) => catalogPartition(collection, organizationId, shard));

/** Both listings of a catalog record: by creation (gsi1) and by last update (gsi2), in the shard of its id. */
export const catalogListing = (collection: CatalogCollection, organizationId: string, id: string, createdAt: string, updatedAt: string) => {
  const shards = LISTING_SHARDS[collection] ?? 1;
  const pk = catalogPartition(collection, organizationId, shards === 1 ? 0 : shardOf(id, shards));
  return { gsi1pk: pk, gsi1sk: `${createdAt}#${id}`, gsi2pk: pk, gsi2sk: `${updatedAt}#${id}` };
};

/**
 * A catalog record of one customer of the organization, listed on gsi4 in the customer's own partition
 * (`<COLLECTION>S#<orgId>#<customerId>`), sorted by its gsi1 sort key (`<createdAt>#<id>`, `catalogListing`): a
 * customer's records are one Query, however many the organization has.
 */
export const customerListing = (collection: CatalogCollection, organizationId: string, customerId: string) => ({
  gsi4pk: `${collection}S#${organizationId}#${customerId}`,
});

/** The kinds of item (`entity`) listed per customer on gsi4, and their collections. */
export const customerListed: Readonly<Record<string, CatalogCollection>> = { subscription: 'SUBSCRIPTION', invoice: 'INVOICE', transaction: 'TRANSACTION' };

/**
 * A catalog record of one subscription of the organization (a payment that names it), listed on gsi5 in the
 * subscription's own partition (`<COLLECTION>S#<orgId>#SUBSCRIPTION#<subscriptionId>`), sorted by its gsi1 sort key: a
 * subscription's payments are one Query, however many the organization has.
 */
export const subscriptionListing = (collection: CatalogCollection, organizationId: string, subscriptionId: string) => ({
  gsi5pk: `${collection}S#${organizationId}#SUBSCRIPTION#${subscriptionId}`,
});

/** The kinds of item (`entity`) listed per subscription on gsi5, and their collections. */
export const subscriptionListed: Readonly<Record<string, CatalogCollection>> = { transaction: 'TRANSACTION' };

/**
 * The shard of a sharded index an item with this id is written to: the first 32 bits of the id's SHA-256, modulo
 * `shards` (even and repeatable, whatever the id's form).
 */
export const shardOf = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
