/** Merchant webhook destinations (with their circuit), the circuit updates of every destination, and delivery records. */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchReadMany, itemKeyOf } from '../platform/db/batch-read.ts';
import type { EventType } from '../platform/events/catalog.ts';
import { db, putFresh, putItems, putNew, queryAll, tableName, sendIfCondition, updateIfCondition } from '../platform/db/client.ts';
import { backoff, failedParts, isContentionOnly, type NamedParts, transactWrite, tryTransactWrite } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { queryOffsetPage } from '../platform/db/listing.ts';
import { type Delivery, DeliveryEntity, deliveriesOf, deliveryKey, type DeliveryStatus } from './delivery.entity.ts';
import { type WebhookDestination, WebhookDestinationEntity, webhookDestinationKey, webhookDestinationsOf } from './webhook-destination.entity.ts';

export const putNewDestination = (d: WebhookDestination) => ({
  Put: { TableName: tableName(), Item: WebhookDestinationEntity.item(d), ConditionExpression: 'attribute_not_exists(pk)' },
});

export const createDestination = (d: WebhookDestination): Promise<void> => putFresh(WebhookDestinationEntity.item(d));

export async function getDestination(merchantId: string, id: string): Promise<WebhookDestination | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: webhookDestinationKey(merchantId, id), ConsistentRead: true }));
  return WebhookDestinationEntity.parseOrNull(Item);
}

export async function listDestinations(merchantId: string): Promise<WebhookDestination[]> {
  const { pk, skPrefix } = webhookDestinationsOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  });
  return items.map(WebhookDestinationEntity.parse);
}

/**
 * The items of `itemKeys` (destinations of either kind) in consistent `BatchGetItem`s (one for a queue batch), by
 * `itemKeyOf`; missing items are absent from the map. The sender reads every destination of a queue batch so.
 */
export async function getItemsByKey(itemKeys: readonly { pk: string; sk: string }[]): Promise<Map<string, Record<string, unknown>>> {
  const items = await batchReadMany(itemKeys.map((key) => ({ key, from: (item: Record<string, unknown>) => item })));
  return new Map(itemKeys.flatMap((key, i) => (items[i] ? [[itemKeyOf(key), items[i]] as const] : [])));
}

/** The map key of the delivery record of (destination, event) in `getDeliveries`' answer. */
export const deliveryKeyOf = (destinationId: string, eventId: string): string => itemKeyOf(deliveryKey(destinationId, eventId));

/**
 * The delivery records of (destination, event) pairs, by `deliveryKeyOf`: one `BatchGetItem` per 100 pairs, all
 * sent at once (the events API reads a whole page's records so). A pair without a record is absent.
 */
export async function getDeliveries(pairs: readonly { destinationId: string; eventId: string }[]): Promise<Map<string, Delivery>> {
  const itemKeys = [...new Map(pairs.map((p) => [deliveryKeyOf(p.destinationId, p.eventId), deliveryKey(p.destinationId, p.eventId)])).values()];
  const chunks: (typeof itemKeys)[] = [];
  for (let i = 0; i < itemKeys.length; i += 100) chunks.push(itemKeys.slice(i, i + 100));
  const found = await Promise.all(chunks.map((chunk) => getItemsByKey(chunk)));
  const deliveries = new Map<string, Delivery>();
  for (const items of found) for (const [key, item] of items) deliveries.set(key, DeliveryEntity.parse(item));
  return deliveries;
}

/** Delete; false when there was nothing to delete. */
export const deleteDestination = (merchantId: string, id: string): Promise<boolean> =>
  sendIfCondition(new DeleteCommand({ TableName: tableName(), Key: webhookDestinationKey(merchantId, id), ConditionExpression: 'attribute_exists(pk)' }));

/** Close the circuit and clear the failure count; null when the destination does not exist. */
export async function resetCircuit(merchantId: string, id: string): Promise<WebhookDestination | null> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: webhookDestinationKey(merchantId, id),
    UpdateExpression: 'SET circuitState = :closed, consecutiveFailures = :zero REMOVE circuitOpenedAt',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':closed': 'closed', ':zero': 0 },
  });
  return item && WebhookDestinationEntity.parse(item);
}

/**
 * The table key of a destination item with a circuit: a merchant's (`webhookDestinationKey`) or an
 * organization-API account's (`accountWebhookDestinationKey`). Both keep `circuitState`,
 * `consecutiveFailures` and `circuitOpenedAt` the same way, so the circuit below serves both.
 */
export interface CircuitKey {
  pk: string;
  sk: string;
}

/** The circuit key of a merchant's destination. */
export const merchantCircuitKey = (merchantId: string, id: string): CircuitKey => webhookDestinationKey(merchantId, id);

/**
 * Count one more consecutive failure while the circuit is closed, and open it when the count reaches
 * `threshold`, writing what `opening` answers (the owner's mail) in the same transaction. Returns true only for the
 * one call that opened it, so the owner is told exactly once.
 */
export async function recordCircuitFailure(key: CircuitKey, threshold: number, now: string, opening: () => Promise<TransactItem[]>): Promise<boolean> {
  // Counted once however many times the SDK sends it (`updateIfCondition`).
  const counted = await updateIfCondition({
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD consecutiveFailures :one',
    ConditionExpression: 'attribute_exists(pk) AND circuitState = :closed',
    ExpressionAttributeValues: { ':one': 1, ':closed': 'closed' },
  });
  if (!counted || Number(counted.consecutiveFailures) < threshold) return false;
  const open: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET circuitState = :open, circuitOpenedAt = :now',
      ConditionExpression: 'circuitState = :closed AND consecutiveFailures >= :threshold',
      ExpressionAttributeValues: { ':open': 'open', ':closed': 'closed', ':now': now, ':threshold': threshold },
    },
  };
  const parts = [
    ['circuit', [open]],
    ['told', await opening()],
  ] as const satisfies NamedParts<'circuit' | 'told'>;
  try {
    await transactWrite(parts);
  } catch (e) {
    // Another sender opened it first (or it was reset meanwhile): this one tells no one.
    if (failedParts(e, parts)?.has('circuit')) return false;
    throw e;
  }
  return true;
}

/**
 * The receiver answered (anything but a 5xx): it is up, so the consecutive-failure count starts again. The
 * sender calls this only when the count it read was not zero (see `sendClaimed`), so the happy path writes nothing.
 */
export async function recordCircuitSuccess(key: CircuitKey): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET consecutiveFailures = :zero',
      ConditionExpression: 'attribute_exists(pk) AND circuitState = :closed AND consecutiveFailures > :zero',
      ExpressionAttributeValues: { ':zero': 0, ':closed': 'closed' },
    }),
  );
}

/**
 * Claim the one attempt of (event, destination): written before the POST, so a redelivered queue message
 * finds it and sends nothing. False when the attempt (or a skip) was recorded already: of two senders' claims of one
 * delivery in the same millisecond the second loses, while the SDK's retry of a claim that landed is taken for written
 * (`putNew`: each write its own id).
 */
export const claimDeliveryAttempt = (d: Delivery): Promise<boolean> => putNew(DeliveryEntity.item(d));

/** Times a batch's claim is sent again while only contention stands in its way. */
const CLAIM_ATTEMPTS = 4;

/**
 * Claims the attempts of a queue batch at once: one `TransactWriteItems` of conditional puts (no record yet).
 * Answers the ones claimed. An attempt already recorded (a redelivered message) is left out and the others are
 * claimed again; a lone attempt is a conditional put (`claimDeliveryAttempt`: a transaction costs each item
 * two writes). Attempts of the same (destination, event) count once.
 */
export async function claimDeliveryAttempts(ds: readonly Delivery[]): Promise<Delivery[]> {
  let pending = [...new Map(ds.map((d) => [deliveryKeyOf(d.destinationId, d.eventId), d])).values()];
  for (let attempt = 1; pending.length > 1; ) {
    const parts = [
      [
        'delivery-claim',
        pending.map((d) => ({ Put: { TableName: tableName(), Item: DeliveryEntity.item(d), ConditionExpression: 'attribute_not_exists(pk)' } })),
      ],
    ] as const;
    const cancelled = await tryTransactWrite(parts);
    if (!cancelled) return pending;
    if (isContentionOnly(cancelled.reasons)) {
      if (++attempt > CLAIM_ATTEMPTS) throw cancelled.error;
      await backoff(attempt);
      continue;
    }
    if (!cancelled.refused.size) throw cancelled.error;
    pending = pending.filter((_, i) => cancelled.reasons[i] !== 'ConditionalCheckFailed');
  }
  return pending.length === 1 && (await claimDeliveryAttempt(pending[0]!)) ? pending : [];
}

/** Records the outcomes of claimed attempts (each written over its own claim), 25 per `BatchWriteItem`. */
export const completeDeliveries = (ds: readonly Delivery[]): Promise<void> => putItems(ds.map((d) => DeliveryEntity.item(d)));

/** Newest first, `limit` at a time; `cursor` is the last event id of the previous page. */
export async function listDeliveries(destinationId: string, limit: number, cursor?: string): Promise<{ items: Delivery[]; nextCursor: string | null }> {
  const { pk, skPrefix } = deliveriesOf(destinationId);
  const page = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: false,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: deliveryKey(destinationId, cursor) } : {}),
    }),
  );
  const items = (page.Items ?? []).map(DeliveryEntity.parse);
  return { items, nextCursor: page.LastEvaluatedKey ? items.at(-1)!.eventId : null };
}

/** What the delivery history may be narrowed to (each absent: any). */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: EventType;
  httpStatus?: number;
}

/**
 * One offset page of a destination's delivery history, newest first, narrowed by `filter`, with the count of all
 * its matches. The history lives 30 days (`historyTtl`), so the count reads at most a month of one destination.
 */
export async function deliveryPage(
  destinationId: string,
  filter: DeliveryFilter,
  offset: number,
  limit: number,
): Promise<{ totalCount: number; items: Delivery[] }> {
  const { pk, skPrefix } = deliveriesOf(destinationId);
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': pk, ':prefix': skPrefix };
  const narrow = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    parts.push(`#${attribute} = :${attribute}`);
  };
  if (filter.status) narrow('status', filter.status);
  if (filter.eventType) narrow('eventType', filter.eventType);
  if (filter.httpStatus !== undefined) narrow('httpStatus', filter.httpStatus);
  const page = await queryOffsetPage(
    {
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(parts.length ? { FilterExpression: parts.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
    { ascending: false, offset, limit },
  );
  return { totalCount: page.totalCount, items: page.items.map(DeliveryEntity.parse) };
}
