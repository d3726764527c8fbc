/**
 * A merchant's events as the events API reads them: the outbox items (`shared/platform/events/outbox.ts`) listed
 * on gsi1 by `<createdAt>#<eventId>` (real time, the time in the UUID v7 id: the ids' order, which no clock
 * changes), newest first, within a time range and after a place (the key condition), of some types (a filter), after
 * a cursor.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/db/client.ts';
import { inKeyOrder } from '../platform/db/listing.ts';
import type { EventType } from '../platform/events/catalog.ts';
import { EventEntity, eventPartitionsOf, type OutboxEvent } from '../platform/events/event.entity.ts';
import { listingKeyOf, type EventPosition } from './events.rules.ts';

/** What a page of events is asked for. Times are ISO 8601 in `toISOString()` form, as events store them. */
export interface EventPageQuery {
  /** The oldest `createdAt` wanted (inclusive). */
  from: string;
  /** The newest `createdAt` wanted (inclusive); none: up to now. */
  to?: string | undefined;
  /** Only these types; none: every type. */
  types?: readonly EventType[] | undefined;
  /** Only events written after this place (the query's `after`): the oldest end of the listing, exclusive. */
  since?: EventPosition | undefined;
  /** Only events listed after this one (older, or as old with a smaller id): the cursor, exclusive. */
  after?: EventPosition | undefined;
  limit: number;
}

/** Items a filtered page reads per Query at most, so a rare type does not read a month of events at once. */
const FILTERED_READ = 200;

/**
 * One page of the merchant's events, newest first, whether more follow, and the listing key of the page's last
 * event (the next page's cursor: the key as stored, so an event listed by an older key is paged past exactly). One
 * Query of each shard of the listing on gsi1, at once, merged newest first, when no type is asked for (each reads
 * `limit` + 3 items at most: the cursor's own event, the `since` event, the page, and one more to know whether another
 * page follows); with `types`, Queries of `FILTERED_READ` items until the page is full or the range is read. The cursor and `since` are bounds of the key condition (not an
 * `ExclusiveStartKey`), so any well-formed cursor is a valid query, whatever the range.
 */
export async function eventPage(merchantId: string, q: EventPageQuery): Promise<{ items: OutboxEvent[]; more: boolean; lastKey: string | null }> {
  // Sort keys are `<createdAt>#<eventId>`: `<from>` sorts before every key of that instant, and `<to>~` after them.
  const since = q.since ? listingKeyOf(q.since) : undefined;
  const lowest = since !== undefined && since > q.from ? since : q.from;
  const rangeTop = q.to ? `${q.to}~` : '~';
  const after = q.after ? listingKeyOf(q.after) : undefined;
  const highest = after !== undefined && after < rangeTop ? after : rangeTop;
  if (highest < lowest) return { items: [], more: false, lastKey: null };

  const names: Record<string, string> = { '#pk': 'gsi1pk', '#sk': 'gsi1sk' };
  const values: Record<string, unknown> = { ':lowest': lowest, ':highest': highest };
  let filter: string | undefined;
  if (q.types?.length) {
    names['#type'] = 'type';
    q.types.forEach((t, i) => {
      values[`:t${i}`] = t;
    });
    filter = `#type IN (${q.types.map((_, i) => `:t${i}`).join(', ')})`;
  }
  // The bounds are inclusive in the key condition; the two places themselves are not listed.
  const excluded = new Set([after, since].filter((k): k is string => k !== undefined));
  const wanted = q.limit + 1;
  /** The newest `wanted` matches of one shard of the listing. */
  const newestOf = async (partition: string): Promise<Record<string, unknown>[]> => {
    const input: QueryCommandInput = {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lowest AND :highest',
      ...(filter ? { FilterExpression: filter } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':pk': partition },
      ScanIndexForward: false,
    };
    const found: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({ ...input, Limit: filter ? FILTERED_READ : wanted - found.length + excluded.size, ExclusiveStartKey }));
      for (const item of page.Items ?? []) if (!excluded.has(String(item.gsi1sk))) found.push(item);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && found.length < wanted);
    return found;
  };
  // Every shard at once, merged newest first: the page one partition would have given.
  const found = (await Promise.all(eventPartitionsOf(merchantId).map(newestOf))).flat().sort(inKeyOrder('gsi1sk', false)).slice(0, wanted);
  const items = found.slice(0, q.limit);
  const last = items.at(-1);
  return { items: items.map(EventEntity.parse), more: found.length > q.limit, lastKey: last ? String(last.gsi1sk) : null };
}
