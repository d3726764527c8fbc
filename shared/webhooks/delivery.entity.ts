/**
 * The delivery record of one (destination, event) pair (`WEBHOOK#<destId>` / `DELIVERY#<eventId>`), of merchant and
 * account destinations alike (destination ids never collide: `wh_…` / `whd_…`): claimed before the POST, completed
 * with its outcome, kept 30 days from the attempt.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { historyTtl } from '../platform/db/items.ts';
import { ttlAttribute } from '../platform/db/table.ts';
import { eventTypes, type EventType } from '../platform/events/catalog.ts';

export type DeliveryStatus = 'sending' | 'succeeded' | 'failed' | 'skipped';

export interface Delivery {
  destinationId: string;
  eventId: string;
  eventType: EventType;
  merchantId: string;
  status: DeliveryStatus;
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
  responseSnippet: string | null;
  attemptedAt: string;
}

/** Delivery records of merchant and account destinations alike (destination ids never collide: `wh_…` / `whd_…`). */
export const deliveryKey = (destinationId: string, eventId: string) => ({ pk: `WEBHOOK#${destinationId}`, sk: `DELIVERY#${eventId}` });
export const deliveriesOf = (destinationId: string) => ({ pk: `WEBHOOK#${destinationId}`, skPrefix: 'DELIVERY#' });

export const DeliveryEntity = entity<Delivery, { destinationId: string; eventId: string }>({
  kind: 'delivery',
  schema: v.object({
    destinationId: v.string(),
    eventId: v.string(),
    eventType: v.picklist(eventTypes),
    merchantId: v.string(),
    status: v.picklist(['sending', 'succeeded', 'failed', 'skipped']),
    httpStatus: orNull(v.number()),
    error: orNull(v.string()),
    durationMs: orNull(v.number()),
    responseSnippet: orNull(v.string()),
    attemptedAt: v.string(),
  }),
  key: (d) => deliveryKey(d.destinationId, d.eventId),
  attributes: (d) => ({ [ttlAttribute]: historyTtl(d.attemptedAt) }),
});
