/**
 * Pending funds `PENDINGFUNDS#<transactionId>` / `PENDINGFUNDS`: a payment's net while it is held, on the release
 * index (gsi2 `RELEASES#<shard>` / `<releaseAt>#<transactionId>`, removed when released: a sparse index the release
 * job reads; reasoning in shared/money/ledger.repository.ts).
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';
import { shardOf } from '../platform/db/keys.ts';

export interface PendingFunds {
  transactionId: string;
  merchantId: string;
  currency: string;
  netMinor: number;
  releaseAt: string;
  status: 'pending' | 'released';
}

/**
 * How many partitions the release index of held funds is spread over. It may grow and never shrink: the release
 * job queries shards 0 to `RELEASE_SHARDS` − 1, so items written under a smaller count are still read.
 */
export const RELEASE_SHARDS = 8;

/** The release index shard of a transaction. */
export const releaseShard = (transactionId: string): number => shardOf(transactionId, RELEASE_SHARDS);

const releasePartition = (shard: number) => `RELEASES#${shard}`;

/**
 * A payment's net while held, and its place in the release index (gsi2; sparse): one of `RELEASE_SHARDS` fixed
 * partitions, picked by a hash of the transaction id, sorted by due time, so `gsi2sk <= <asOf>#~` in each finds
 * everything due whatever its age (reasoning in shared/money/ledger.repository.ts).
 */
export const pendingFundsKey = (transactionId: string) => ({ pk: `PENDINGFUNDS#${transactionId}`, sk: 'PENDINGFUNDS' });
export const releaseListing = (transactionId: string, releaseAt: string) => ({
  gsi2pk: releasePartition(releaseShard(transactionId)),
  gsi2sk: `${releaseAt}#${transactionId}`,
});
/** One partition of the release index (`shard` from 0 to `RELEASE_SHARDS` − 1). */
export const releasesOf = (shard: number) => ({ gsi2pk: releasePartition(shard) });

export const PendingFundsEntity = entity<PendingFunds, { transactionId: string }>({
  kind: 'pendingFunds',
  schema: v.object({
    transactionId: v.string(),
    merchantId: v.string(),
    currency: v.string(),
    netMinor: v.number(),
    releaseAt: v.string(),
    status: v.picklist(['pending', 'released']),
  }),
  key: (p) => pendingFundsKey(p.transactionId),
  attributes: (p) => releaseListing(p.transactionId, p.releaseAt),
});
