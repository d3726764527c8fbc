/**
 * A ledger journal `JOURNAL#<id>` / `JOURNAL` (the record: shared/money/ledger.rules.ts), listed per merchant
 * through gsi1 (`JOURNALS#<merchantId>[#<shard>]`, by creation, 4 shards: every payment of a merchant books one, so
 * a million renewals do not write one index partition; shard 0 is the partition from before the shards). Append-only:
 * written once, under an id that is deterministic per business event, so an event can never be booked twice.
 */
import * as v from 'valibot';
import { type Account, type Journal, journalTypes, merchantAccountKinds } from './ledger.rules.ts';
import { entity } from '../platform/db/entity.ts';
import { shardOf } from '../platform/db/keys.ts';

/** A ledger journal (append-only), listed per merchant by creation (gsi1). */
export const journalKey = (id: string) => ({ pk: `JOURNAL#${id}`, sk: 'JOURNAL' });
/** Shards of a merchant's journal listing. */
const JOURNAL_SHARDS = 4;
const journalPartition = (merchantId: string, shard: number) => (shard === 0 ? `JOURNALS#${merchantId}` : `JOURNALS#${merchantId}#${shard}`);
export const journalListing = (merchantId: string, createdAt: string, id: string) => ({
  gsi1pk: journalPartition(merchantId, shardOf(id, JOURNAL_SHARDS)),
  gsi1sk: `${createdAt}#${id}`,
});
/** Every partition of a merchant's journal listing. */
export const journalPartitions = (merchantId: string) => Array.from({ length: JOURNAL_SHARDS }, (_, shard) => journalPartition(merchantId, shard));

/** A platform account, or a merchant's account of one of the known kinds. */
const accountPattern = new RegExp(`^(platform:(cash|tax|fees)|merchant:.+:(${merchantAccountKinds.join('|')}))$`);
const account = v.custom<Account>((x) => typeof x === 'string' && accountPattern.test(x), 'not a ledger account');

export const JournalEntity = entity<Journal, { id: string }>({
  kind: 'journal',
  schema: v.object({
    id: v.string(),
    type: v.picklist(journalTypes),
    merchantId: v.string(),
    currency: v.string(),
    entries: v.array(v.object({ account, amount: v.number() })),
    reference: v.string(),
    createdAt: v.string(),
  }),
  key: (j) => journalKey(j.id),
  attributes: (j) => journalListing(j.merchantId, j.createdAt, j.id),
});
