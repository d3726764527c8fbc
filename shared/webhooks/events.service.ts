/**
 * The events API: a merchant's events of the last 30 days, each with the exact body its webhooks carried and what
 * happened at each destination (delivered, failed, skipped, pending). A merchant reconciles from it after its
 * receiver was down; nothing here sends anything again. Events are in the order of their ids (UUID v7, minted when
 * written: `createdAt`, real time); a test clock dates what it makes (`occurredAt`) and never moves an event in it.
 */
import type * as v from 'valibot';
import type { Merchant } from '../domain/merchants.ts';
import { eventNotFound } from '../domain/unknown-ids.ts';
import { deliveryBody, getEvent } from '../platform/events/outbox.ts';
import type { OutboxEvent } from '../platform/events/event.entity.ts';
import { eventPage } from './events.repository.ts';
import { eventCursorOf, isEventId, oldestEventTime } from './events.rules.ts';
import type { eventDeliveryStatuses, listEventsQuery } from './events.schemas.ts';
import { deliveryKeyOf, getDeliveries, listDestinations } from './webhooks.repository.ts';
import type { Delivery, DeliveryStatus } from './delivery.entity.ts';
import type { WebhookDestination } from './webhook-destination.entity.ts';

type EventDeliveryStatus = (typeof eventDeliveryStatuses)[number];

/** One destination's delivery of an event, as the events API shows it. */
interface EventDeliveryView {
  destinationId: string;
  status: EventDeliveryStatus;
  httpStatus: number | null;
  error: string | null;
  attemptedAt: string | null;
}

/** A delivery record's status in the events API's words (an attempt still `sending` is `pending`). */
const statusOf: Readonly<Record<DeliveryStatus, EventDeliveryStatus>> = {
  succeeded: 'delivered',
  failed: 'failed',
  skipped: 'skipped',
  sending: 'pending',
};

const deliveryView = (d: Delivery): EventDeliveryView => ({
  destinationId: d.destinationId,
  status: statusOf[d.status],
  httpStatus: d.httpStatus,
  error: d.error,
  attemptedAt: d.attemptedAt,
});

/**
 * The destinations whose deliveries a caller sees on `merchant`'s events: the merchant's own and, when the
 * caller's key is the parent's, the parent's destinations that receive sub-merchant events. A sub-merchant's own
 * key does not see its parent's destinations. Read once per request (one Query per merchant, at once).
 */
async function destinationsShown(merchant: Merchant, callerMerchantId: string): Promise<WebhookDestination[]> {
  const parentId = merchant.parentId !== null && merchant.parentId === callerMerchantId ? merchant.parentId : null;
  const [own, parents] = await Promise.all([listDestinations(merchant.id), parentId ? listDestinations(parentId) : Promise.resolve([])]);
  const byAge = (a: WebhookDestination, b: WebhookDestination) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
  return [...own.sort(byAge), ...parents.filter((d) => d.receiveSubMerchantEvents).sort(byAge)];
}

/**
 * Each event with its deliveries: for every destination subscribed to its type, the delivery record, or
 * `pending` when there is none yet (a destination created after the event never gets it, and is left out). The
 * records of the whole page are read at once (`getDeliveries`: one `BatchGetItem` per 100).
 */
async function withDeliveries(events: readonly OutboxEvent[], destinations: readonly WebhookDestination[]) {
  const subscribed = (e: OutboxEvent) => destinations.filter((d) => d.eventTypes.includes(e.type));
  const records = await getDeliveries(events.flatMap((e) => subscribed(e).map((d) => ({ destinationId: d.id, eventId: e.id }))));
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    merchantId: e.merchantId,
    createdAt: e.createdAt,
    occurredAt: e.occurredAt,
    payload: JSON.parse(deliveryBody(e)) as Record<string, unknown>,
    deliveries: subscribed(e).flatMap((d): EventDeliveryView[] => {
      const record = records.get(deliveryKeyOf(d.id, e.id));
      if (record) return [deliveryView(record)];
      return d.createdAt <= e.createdAt ? [{ destinationId: d.id, status: 'pending', httpStatus: null, error: null, attemptedAt: null }] : [];
    }),
  }));
}

/**
 * A page of `merchant`'s events, newest first, as `{data, nextCursor}` (null on the last page): those written after
 * `after` when it is given (a poller's place: the id of the last event it has). The range is clamped to the 30 days
 * the history keeps; the events, the destinations and then the page's delivery records are three round trips, the
 * first two at once.
 */
export async function listEvents(merchant: Merchant, callerMerchantId: string, query: v.InferOutput<typeof listEventsQuery>, now = new Date()) {
  const oldest = oldestEventTime(now);
  const from = query.createdFrom && query.createdFrom > oldest ? query.createdFrom : oldest;
  const [page, destinations] = await Promise.all([
    eventPage(merchant.id, { from, to: query.createdTo, types: query.type, since: query.after, after: query.cursor, limit: query.limit }),
    destinationsShown(merchant, callerMerchantId),
  ]);
  return {
    data: await withDeliveries(page.items, destinations),
    nextCursor: page.more && page.lastKey ? eventCursorOf(page.lastKey) : null,
  };
}

/**
 * One event of `merchant` with its deliveries. An id that is malformed, unknown, another merchant's (even one the
 * key reaches: the path names the merchant) or older than 30 days is the same 404 `event.not_found`.
 */
export async function getMerchantEvent(merchant: Merchant, callerMerchantId: string, eventId: string, now = new Date()) {
  if (!isEventId(eventId)) throw eventNotFound();
  const [event, destinations] = await Promise.all([getEvent(eventId), destinationsShown(merchant, callerMerchantId)]);
  if (!event || event.merchantId !== merchant.id || event.createdAt < oldestEventTime(now)) throw eventNotFound();
  const [view] = await withDeliveries([event], destinations);
  return view!;
}
