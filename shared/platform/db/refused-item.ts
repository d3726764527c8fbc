/** What a refused conditional write saw, without a read: apart from ./items.ts, which the route table imports. */
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The item a refused conditional write found (asked for with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), or
 * undefined when there was none. It comes in DynamoDB's typed form: the document client does not convert an error's.
 */
export const refusedItem = (e: unknown): Record<string, unknown> | undefined => {
  const raw = (e as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return raw && unmarshall(raw);
};
