/**
 * The transactional outbox: a business event is an item written in the same `TransactWriteItems` as the state
 * change that causes it. The table's stream carries it on to delivery; nothing sends events from a handler.
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '../db/client.ts';
import { eventEntity, ttlAttribute } from '../db/table.ts';
import { keys } from '../db/keys.ts';
import type { TransactItem } from '../db/types.ts';

/** Payloads of the catalog's events, bare fields as receivers get them. */
export interface EventPayloads {
  'merchant.owner_attached': { merchantId: string; ownerUserId: string; email: string };
}
export type EventType = keyof EventPayloads;

/** Outbox items are kept this long for delivery history, then expire. */
const RETENTION_DAYS = 30;

export function outboxEvent<T extends EventType>(type: T, merchantId: string, payload: EventPayloads[T], occurredAt: string): TransactItem {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.event(id),
        ...keys.eventListing(merchantId, occurredAt, id),
        entity: eventEntity,
        id,
        type,
        merchantId,
        payload,
        occurredAt,
        [ttlAttribute]: Math.ceil(Date.parse(occurredAt) / 1000) + RETENTION_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
