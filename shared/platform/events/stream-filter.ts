/**
 * Which of the table's stream records a consumer takes: records of its `events` (inserts by default) whose NEW image
 * has one of its `entity` values. The same rule is the deployed mappings' Lambda event filter (`streamFilterPattern`),
 * the local stack's, and the stream relay's routing (./stream-relay.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';

/** The kinds of stream records a consumer may take: new items, or changes of items. */
export type StreamEventName = 'INSERT' | 'MODIFY';

export interface StreamFilter {
  readonly entities: readonly string[];
  /** The records it takes (default: inserts only). */
  readonly events?: readonly StreamEventName[];
}

/** The records `filter` takes: its `events`, or inserts only. */
export const streamEventsOf = (filter: StreamFilter): readonly StreamEventName[] => filter.events ?? ['INSERT'];

/** The Lambda event filter of `filter`. */
export const streamFilterPattern = (filter: StreamFilter) => ({
  eventName: [...streamEventsOf(filter)],
  dynamodb: { NewImage: { entity: { S: [...filter.entities] } } },
});

/** Whether `record` (as Lambda delivers it) passes `filter`. */
export function passesStreamFilter(record: DynamoDBRecord, filter: StreamFilter): boolean {
  const entity = record.dynamodb?.NewImage?.entity?.S;
  return (
    record.eventName !== undefined &&
    streamEventsOf(filter).includes(record.eventName as StreamEventName) &&
    entity !== undefined &&
    filter.entities.includes(entity)
  );
}
