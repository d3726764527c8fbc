/**
 * An outbox event (`EVENT#<eventId>` / `EVENT`), listed on gsi1 under its merchant (`EVENTS#<merchantId>[#<shard>]`) by
 * `<createdAt>#<eventId>` (real time, so the order is the ids' order and no clock moves an event in it), kept 30 days
 * from `createdAt`. Its `entity` attribute is the one the table's stream filter matches on.
 */
import * as v from 'valibot';
import { entity, orNull } from '../db/entity.ts';
import { historyTtl } from '../db/items.ts';
import { shardOf } from '../db/keys.ts';
import { eventEntity, ttlAttribute } from '../db/table.ts';
import { eventTypes, type EventType } from './catalog.ts';
import { eventTimeOf } from './event-ids.ts';

/**
 * An outbox event as stored. Its id is `evt_` + a UUID v7 minted when the event is written: the id orders a
 * merchant's events, and `createdAt` is the real time in it. `occurredAt` is when the activity happened in the time
 * of what made it: the sandbox test clock's time for what a test clock made (a renewal, a trial's end, a
 * cancellation that ends a period), else real time (then `createdAt`, or a moment before it). No clock, test or
 * other, places an event in the order: only its id does.
 */
export interface OutboxEvent {
  id: string;
  type: EventType;
  /** The merchant where the activity happened, and its parent (whose destinations may opt in). */
  merchantId: string;
  parentMerchantId: string | null;
  payload: Record<string, unknown>;
  /** When it happened: the test clock's time when a test clock made it, else real time. */
  occurredAt: string;
  /** When it was written: real time, the time of its UUID v7 id (its place in the merchant's events). */
  createdAt: string;
  /** What other faces need beyond the catalog payload (see `EventExtra`); never part of the merchant webhook body. */
  extra?: Record<string, unknown> | null;
}

export const eventKey = (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' });
/**
 * Shards of a merchant's event listing: every payment and renewal writes an event, so a million renewals of one
 * merchant do not write one index partition. Shard 0 is the partition from before the shards.
 */
const EVENT_SHARDS = 4;
const eventPartition = (merchantId: string, shard: number) => (shard === 0 ? `EVENTS#${merchantId}` : `EVENTS#${merchantId}#${shard}`);
export const eventListing = (merchantId: string, createdAt: string, eventId: string) => ({
  gsi1pk: eventPartition(merchantId, shardOf(eventId, EVENT_SHARDS)),
  gsi1sk: `${createdAt}#${eventId}`,
});
/** A merchant's events on gsi1, each shard sorted by `<createdAt>#<eventId>` (real time, the id's: the events API's listing). */
export const eventPartitionsOf = (merchantId: string): string[] => Array.from({ length: EVENT_SHARDS }, (_, shard) => eventPartition(merchantId, shard));

/** An event item read back. An item written before events kept `createdAt` takes the time of its id (else `occurredAt`). */
export const EventEntity = entity<OutboxEvent, { id: string }>({
  kind: eventEntity,
  schema: v.pipe(
    v.object({
      id: v.string(),
      type: v.picklist(eventTypes),
      merchantId: v.string(),
      parentMerchantId: orNull(v.string()),
      payload: v.record(v.string(), v.unknown()),
      occurredAt: v.string(),
      createdAt: v.optional(v.string()),
      extra: orNull(v.record(v.string(), v.unknown())),
    }),
    v.transform((e) => ({ ...e, createdAt: e.createdAt ?? eventTimeOf(e.id) ?? e.occurredAt })),
  ),
  key: (e) => eventKey(e.id),
  attributes: (e) => ({ ...eventListing(e.merchantId, e.createdAt, e.id), [ttlAttribute]: historyTtl(e.createdAt) }),
});
