/**
 * The events API's schemas (merchant face): the list's query, an event with the exact body its webhooks carried
 * and what happened at each destination, and the list page.
 */
import * as v from 'valibot';
import { eventPayloadSchemas, eventTypes, type EventType } from '../platform/events/catalog.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { queryInt, queryList, instantInput } from '../platform/http/schemas/organization.ts';
import { positionOfCursor, positionOfEventId } from './events.rules.ts';

const eventType = v.picklist(eventTypes, `must be one of ${eventTypes.join(', ')}`);

/** A query parameter naming a place in the events list, read by `positionOf`; anything it does not read is `refused`. */
const listPosition = <P>(description: string, positionOf: (text: string) => P | null, refused: string) =>
  v.pipe(
    v.string(),
    v.description(description),
    v.rawTransform<string, P>(({ dataset, addIssue, NEVER }) => {
      const position = positionOf(dataset.value);
      if (position) return position;
      addIssue({ message: refused });
      return NEVER;
    }),
  );

/**
 * The list's query: `type` (one or more catalog types, comma-separated), `createdFrom` / `createdTo` (ISO 8601,
 * both inclusive, on `createdAt`: real time; the history goes back 30 days), `after` (an event id: only the events
 * written after that one), `limit` 1..100 (default 20) and `cursor` (a page's `nextCursor`: the page after it). A
 * cursor this API did not give out, or an `after` that is not an event id, is a 400.
 */
export const listEventsQuery = v.pipe(
  v.strictObject({
    type: v.optional(queryList(eventType, eventTypes.length, 'event types')),
    createdFrom: v.optional(instantInput),
    createdTo: v.optional(instantInput),
    after: v.optional(
      listPosition(
        "an event's `id`: only the events written after it (the events' order is their ids', whatever their `occurredAt`)",
        positionOfEventId,
        'must be the id of an event (evt_ and 32 hex digits)',
      ),
    ),
    limit: v.optional(queryInt(1, 100), '20'),
    cursor: v.optional(listPosition('the `nextCursor` of the previous page (opaque)', positionOfCursor, 'must be the nextCursor of a previous page')),
  }),
  v.forward(
    v.check((q) => !q.createdFrom || !q.createdTo || q.createdFrom <= q.createdTo, 'must not be later than createdTo'),
    ['createdFrom'],
  ),
);

/** What happened to an event at one destination. */
export const eventDeliveryStatuses = ['delivered', 'failed', 'skipped', 'pending'] as const;

/**
 * One destination's delivery of an event: `delivered` (answered 2xx), `failed` (another answer, a timeout or a
 * network error: `error` says which), `skipped` (its circuit was open) or `pending` (no attempt finished yet).
 */
const eventDelivery = named(
  'PublicApiEventDelivery',
  v.strictObject({
    destinationId: v.string(),
    status: v.picklist(eventDeliveryStatuses),
    httpStatus: v.nullable(v.number()),
    error: v.nullable(v.string()),
    attemptedAt: nullableIsoTime,
  }),
);

/**
 * An event of one type: `payload` is exactly the body its webhooks carried (the catalog's fields and `merchantId`).
 * `createdAt` is when the platform wrote it (real time; its place in the list), `occurredAt` when it happened: the
 * sandbox test clock's time for what a test clock made, else real time (then `createdAt`, or a moment before).
 */
const eventOfType = <T extends EventType>(type: T) =>
  v.strictObject({
    id: v.pipe(v.string(), v.regex(/^evt_[0-9a-f]{32}$/)),
    type: v.literal(type),
    merchantId: uuid,
    createdAt: v.pipe(isoTime, v.description('when the event was written: real time, the order of the list')),
    occurredAt: v.pipe(isoTime, v.description("when it happened: the sandbox test clock's time for what a test clock made, else real time")),
    payload: v.strictObject({ ...eventPayloadSchemas[type].entries, merchantId: uuid }),
    deliveries: v.array(eventDelivery),
  });

type EventSchema = ReturnType<typeof eventOfType<EventType>>;

/** `PublicApiEvent`: an event, its webhook body, and each destination's delivery. */
export const publicApiEvent = named('PublicApiEvent', v.variant('type', eventTypes.map(eventOfType) as [EventSchema, ...EventSchema[]]));

/** A page of events, newest first (by `createdAt`, the ids' order); `nextCursor` is null on the last page. */
export const publicApiEventList = named(
  'PublicApiEventListResponse',
  v.strictObject({
    data: v.array(publicApiEvent),
    nextCursor: v.nullable(v.string()),
  }),
);
