/**
 * The transactional outbox: a business event is an item written in the same `TransactWriteItems` as the state
 * change that causes it. The table's stream carries it on to delivery; nothing sends events from a handler.
 */
import { eventTimeOf } from './event-ids.ts';
import { v7 as uuidv7 } from 'uuid';
import { putOutboxEvent, readEvent, writeEvent } from './outbox.repository.ts';
import type { TransactItem } from '../db/types.ts';
import { eventPayloadSchemas, type EventPayload, type EventType } from './catalog.ts';
import { EventEntity, type OutboxEvent } from './event.entity.ts';
import { logger } from '../observability.ts';

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
      const event = EventEntity.parse(unmarshallImage(r.dynamodb.NewImage));
      events.push({ record, event });
    } catch (error) {
      logger.error('an outbox event of the stream could not be read', { record, error: error as Error });
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
  const item = outboxEvent(type, merchant, payload, occurredAt, extra).Put!.Item!;
  await writeEvent(item);
  return EventEntity.parse(item);
}

/** The event `id`, or null (a strongly consistent read). */
export const getEvent = (id: string): Promise<OutboxEvent | null> => readEvent(id);
