/** What a refused conditional write saw, without a read: apart from ./items.ts, which the route table imports. */
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The item a refused conditional write found (asked for with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), or
 * undefined when there was none: the `Item` of the error, or of one of a cancelled transaction's reasons. It comes in
 * DynamoDB's typed form: the document client does not convert an error's.
 */
export const refusedItem = (e: unknown): Record<string, unknown> | undefined => {
  const raw = (e as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return raw && unmarshall(raw);
};

/**
 * Whether a refused conditional delete (asked with `ALL_OLD`) found nothing after the SDK sent it more than once: its
 * earlier sending, whose answer was lost, deleted the item — or, when that one never reached the table, there was
 * nothing to delete, which a deletion may answer alike. A delete leaves nothing to tell its own landing by, as a
 * put's or an update's `writeId` does (./client.ts).
 */
export const goneBySendingAgain = (e: unknown): boolean =>
  refusedItem(e) === undefined && ((e as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1) > 1;
