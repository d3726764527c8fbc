/**
 * A ledger journal `JOURNAL#<id>` / `JOURNAL` (the record: shared/money/ledger.rules.ts), listed per merchant
 * through gsi1 (`JOURNALS#<merchantId>`, by creation). Append-only: written once, under an id that is
 * deterministic per business event, so an event can never be booked twice.
 */
import * as v from 'valibot';
import { type Account, type Journal, journalTypes, merchantAccountKinds } from './ledger.rules.ts';
import { entity } from '../platform/db/entity.ts';

/** A ledger journal (append-only), listed per merchant by creation (gsi1). */
export const journalKey = (id: string) => ({ pk: `JOURNAL#${id}`, sk: 'JOURNAL' });
export const journalListing = (merchantId: string, createdAt: string, id: string) => ({ gsi1pk: `JOURNALS#${merchantId}`, gsi1sk: `${createdAt}#${id}` });

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
