/**
 * The outbox's items: an event is written in the transaction of the change it tells of (`putOutboxEvent`), or on
 * its own (`writeEvent`), and read back by id.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, putFresh, tableName } from '../db/client.ts';
import type { TransactItem } from '../db/types.ts';
import { EventEntity, type OutboxEvent } from './event.entity.ts';
import { eventTimeOf } from './event-ids.ts';

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
      Item: EventEntity.item(e),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Writes one event's item on its own (outside any transaction): a new item (`putFresh`). */
export const writeEvent = (item: Record<string, unknown>): Promise<void> => putFresh(item);

/** The event `id`, or null (a strongly consistent read). */
export async function readEvent(id: string): Promise<OutboxEvent | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: EventEntity.key({ id }), ConsistentRead: true }));
  return EventEntity.parseOrNull(Item);
}
