/**
 * The table's shared key kit: what several kinds of item share. Each kind's own keys are declared with it, in its
 * entity file beside its repository (`shared/<module>/<entity>.entity.ts`, `shared/platform/db/entity.ts`).
 *
 * Catalog records of an organization (websites, products, plans, promo codes, and the records listed like them:
 * card tokens, transactions, disputes, invoices, subscriptions and their changes, withdrawals) live in their own
 * partition, found by id in one read (the record's `organizationId` is checked), and are listed through two
 * indexes, gsi1 by creation time and gsi2 by last update, both partitioned by `<COLLECTION>S#<orgId>`.
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

/** Both listings of a catalog record: by creation (gsi1) and by last update (gsi2). */
export const catalogListing = (collection: CatalogCollection, organizationId: string, id: string, createdAt: string, updatedAt: string) => ({
  gsi1pk: `${collection}S#${organizationId}`,
  gsi1sk: `${createdAt}#${id}`,
  gsi2pk: `${collection}S#${organizationId}`,
  gsi2sk: `${updatedAt}#${id}`,
});

/** The partition of an organization's collection on both listing indexes. */
export const catalogPartition = (collection: CatalogCollection, organizationId: string) => `${collection}S#${organizationId}`;

/**
 * The shard of a sharded index an item with this id is written to: the first 32 bits of the id's SHA-256, modulo
 * `shards` (even and repeatable, whatever the id's form).
 */
export const shardOf = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
