/**
 * A merchant's webhook destination (`MERCHANT#<merchantId>` / `WEBHOOK#<destId>`, listed by a Query of the
 * merchant's partition, and under the person who added it: shared/people/made.entity.ts), with its circuit:
 * `circuitState`, `consecutiveFailures` and `circuitOpenedAt`, kept as an account's destinations keep them
 * (shared/webhooks/webhooks.repository.ts updates both).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { eventTypes, type EventType } from '../platform/events/catalog.ts';

export interface WebhookDestination {
  id: string;
  merchantId: string;
  url: string;
  eventTypes: EventType[];
  headers: Record<string, string>;
  receiveSubMerchantEvents: boolean;
  circuitState: 'closed' | 'open';
  consecutiveFailures: number;
  circuitOpenedAt: string | null;
  createdAt: string;
  /** Who added it, signed in on the dashboard; null for destinations added before destinations recorded it. */
  madeBy: string | null;
}

export const webhookDestinationKey = (merchantId: string, destinationId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `WEBHOOK#${destinationId}` });
export const webhookDestinationsOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'WEBHOOK#' });

export const WebhookDestinationEntity = entity<WebhookDestination, { merchantId: string; id: string }>({
  kind: 'webhookDestination',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    url: v.string(),
    eventTypes: v.array(v.picklist(eventTypes)),
    headers: v.optional(v.record(v.string(), v.string()), {}),
    receiveSubMerchantEvents: v.optional(v.boolean(), false),
    circuitState: v.picklist(['closed', 'open']),
    consecutiveFailures: v.optional(v.number(), 0),
    circuitOpenedAt: orNull(v.string()),
    createdAt: v.string(),
    madeBy: orNull(v.string()),
  }),
  key: (d) => webhookDestinationKey(d.merchantId, d.id),
});
