/**
 * A merchant's events as the events API reads them: the outbox items (`shared/platform/events/outbox.ts`) listed
 * on gsi1 by `<occurredAt>#<eventId>`, newest first, within a time range (the key condition), of some types (a
 * filter), after a cursor.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import type { EventType } from '../platform/events/catalog.ts';
import { eventFromItem, type OutboxEvent } from '../platform/events/outbox.ts';
import type { EventPosition } from './events.rules.ts';

/** What a page of events is asked for. Times are ISO 8601 in `toISOString()` form, as events store them. */
export interface EventPageQuery {
  /** The oldest `occurredAt` wanted (inclusive). */
  from: string;
  /** The newest `occurredAt` wanted (inclusive); none: up to now. */
  to?: string | undefined;
  /** Only these types; none: every type. */
  types?: readonly EventType[] | undefined;
  /** Only events listed after this one (older, or as old with a smaller id). */
  after?: EventPosition | undefined;
  limit: number;
}

/** Items a filtered page reads per Query at most, so a rare type does not read a month of events at once. */
const FILTERED_READ = 200;

/**
 * One page of the merchant's events, newest first, and whether more follow. One Query on gsi1 when no type is
 * asked for (it reads `limit` + 2 items at most: the cursor's own event, the page, and one more to know whether
 * another page follows); with `types`, Queries of `FILTERED_READ` items until the page is full or the range is read.
 * The cursor is a bound of the key condition (not an `ExclusiveStartKey`), so any well-formed cursor is a valid
 * query, whatever the range.
 */
export async function eventPage(merchantId: string, q: EventPageQuery): Promise<{ items: OutboxEvent[]; more: boolean }> {
  // Sort keys are `<occurredAt>#<eventId>`: `<from>` sorts before every key of that instant, and `<to>~` after them.
  const lowest = q.from;
  const rangeTop = q.to ? `${q.to}~` : '~';
  const after = q.after ? keys.eventListing(merchantId, q.after.occurredAt, q.after.id).gsi1sk : undefined;
  const highest = after !== undefined && after < rangeTop ? after : rangeTop;
  if (highest < lowest) return { items: [], more: false };

  const names: Record<string, string> = { '#pk': 'gsi1pk', '#sk': 'gsi1sk' };
  const values: Record<string, unknown> = { ':pk': keys.eventsOfMerchant(merchantId).gsi1pk, ':lowest': lowest, ':highest': highest };
  let filter: string | undefined;
  if (q.types?.length) {
    names['#type'] = 'type';
    q.types.forEach((t, i) => {
      values[`:t${i}`] = t;
    });
    filter = `#type IN (${q.types.map((_, i) => `:t${i}`).join(', ')})`;
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lowest AND :highest',
    ...(filter ? { FilterExpression: filter } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };

  const wanted = q.limit + 1;
  const found: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, Limit: filter ? FILTERED_READ : wanted - found.length + 1, ExclusiveStartKey }));
    for (const item of page.Items ?? []) if (item.gsi1sk !== after) found.push(item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < wanted);
  return { items: found.slice(0, q.limit).map(eventFromItem), more: found.length > q.limit };
}
