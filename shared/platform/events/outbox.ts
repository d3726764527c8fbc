/**
 * The transactional outbox: a business event is an item written in the same `TransactWriteItems` as the state
 * change that causes it. The table's stream carries it on to delivery; nothing sends events from a handler.
 */
import { eventTimeOf } from './event-ids.ts';
import { v7 as uuidv7 } from 'uuid';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { eventEntity, ttlAttribute } from '../db/table.ts';
import { historyTtl } from '../db/items.ts';
import * as keys from '../db/keys.ts';
import type { TransactItem } from '../db/types.ts';
import { eventPayloadSchemas, type EventPayload, type EventType } from './catalog.ts';

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

/**
 * The `extra` of a payment event, written by whoever writes `payment.completed` / `payment.failed` (in the same
 * transaction as the transaction record): the organization face's `transaction-processed` and
 * `transaction-declined` bodies take their amount, currency and decline reason from it, since the catalog's
 * `payment.failed` payload has no amount. Merchant webhook bodies ignore it.
 */
export type PaymentEventExtra = {
  /** The transaction's amount in major units (a JSON number, as the catalog's `amount`). */
  amount: number;
  /** ISO 4217, uppercase as the organization face writes currencies. */
  currency: string;
  /** The processor's decline reason (`payment.failed`); null on `payment.completed`. */
  declineReason: string | null;
};

/** The `extra` an event type carries: payment events may carry a `PaymentEventExtra`, other types none. */
export type EventExtra<T extends EventType> = T extends 'payment.completed' | 'payment.failed' ? PaymentEventExtra : never;

/** The outbox item of one event, to add to the transaction of the state change that causes it. */
export function outboxEvent<T extends EventType>(
  type: T,
  merchant: { id: string; parentId: string | null },
  payload: EventPayload<T>,
  occurredAt: string,
  extra?: EventExtra<T>,
): TransactItem {
  const id = `evt_${uuidv7().replaceAll('-', '')}`;
  return putOutboxEvent({
    id,
    type,
    merchantId: merchant.id,
    parentMerchantId: merchant.parentId,
    payload,
    occurredAt,
    createdAt: eventTimeOf(id)!,
    ...(extra ? { extra: { ...extra } } : {}),
  });
}

/**
 * The item of `e`: listed on gsi1 under its merchant by `<createdAt>#<id>` (real time, so the order is the ids'
 * order and no clock moves an event in it), kept 30 days from `createdAt`. Without `createdAt`, the time of its id
 * (else now).
 */
export function putOutboxEvent(event: Omit<OutboxEvent, 'createdAt'> & { createdAt?: string }): TransactItem {
  const e: OutboxEvent = { ...event, createdAt: event.createdAt ?? eventTimeOf(event.id) ?? new Date().toISOString() };
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.event(e.id),
        ...keys.eventListing(e.merchantId, e.createdAt, e.id),
        entity: eventEntity,
        ...e,
        [ttlAttribute]: historyTtl(e.createdAt),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * An event item read back. An item written before events kept `createdAt` takes the time of its id (listed, as it
 * was written, by its `occurredAt`).
 */
export const eventFromItem = (item: Record<string, unknown>): OutboxEvent => ({
  id: item.id as string,
  type: item.type as EventType,
  merchantId: item.merchantId as string,
  parentMerchantId: (item.parentMerchantId as string | null) ?? null,
  payload: item.payload as Record<string, unknown>,
  occurredAt: item.occurredAt as string,
  createdAt: (item.createdAt as string | undefined) ?? eventTimeOf(item.id as string) ?? (item.occurredAt as string),
  extra: (item.extra as Record<string, unknown> | undefined) ?? null,
});

/**
 * The outbox events of a stream batch, each with the index of its record: inserts with a new image only; a
 * record whose image is not an event is in `failed` (by index).
 */
export function eventsOfStreamBatch(
  records: ReadonlyArray<{ eventName?: string; dynamodb?: { NewImage?: unknown } }>,
  unmarshallImage: (image: unknown) => Record<string, unknown>,
): { events: Array<{ record: number; event: OutboxEvent }>; failed: number[] } {
  const events: Array<{ record: number; event: OutboxEvent }> = [];
  const failed: number[] = [];
  records.forEach((r, record) => {
    if (r.eventName !== 'INSERT' || !r.dynamodb?.NewImage) return;
    try {
      const event = eventFromItem(unmarshallImage(r.dynamodb.NewImage));
      if (typeof event.id !== 'string' || typeof event.merchantId !== 'string' || typeof event.type !== 'string') throw new Error('not an outbox event');
      events.push({ record, event });
    } catch {
      failed.push(record);
    }
  });
  return { events, failed };
}

/**
 * The body receivers get: the payload's bare fields, always with the `merchantId` where it happened. The fields
 * are in the catalog's order (any field the catalog does not name after them, by name), not in the stored map's:
 * DynamoDB keeps no order in a map, so the same event read twice (the stream's image, the events API's read)
 * gives the same bytes.
 */
export function deliveryBody(e: OutboxEvent): string {
  const catalogFields = Object.keys(eventPayloadSchemas[e.type]?.entries ?? {});
  const others = Object.keys(e.payload)
    .filter((name) => !catalogFields.includes(name))
    .sort();
  const ordered: Record<string, unknown> = {};
  for (const name of [...catalogFields, ...others]) if (Object.hasOwn(e.payload, name)) ordered[name] = e.payload[name];
  return JSON.stringify({ ...ordered, merchantId: e.merchantId });
}

/** Write one event on its own (the operator CLI's `emit-event`); features write theirs inside their transaction. */
export async function emitEvent<T extends EventType>(
  type: T,
  merchant: { id: string; parentId: string | null },
  payload: EventPayload<T>,
  occurredAt: string,
  extra?: EventExtra<T>,
): Promise<OutboxEvent> {
  const put = outboxEvent(type, merchant, payload, occurredAt, extra).Put!;
  await db.send(new PutCommand(put));
  return eventFromItem(put.Item!);
}

export async function getEvent(id: string): Promise<OutboxEvent | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.event(id), ConsistentRead: true }));
  return Item ? eventFromItem(Item) : null;
}
