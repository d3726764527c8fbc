import * as v from 'valibot';
import { eventTypes } from '../platform/events/catalog.ts';
import { CONNECTION_HEADER_NAMES } from './signing.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/urls.ts';
import { isoTime, nullableIsoTime, uuid, pageQuery, pagination } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { deliveryStatuses } from './delivery-vocabulary.schemas.ts';
import { queryInt } from '../platform/http/schemas/organization.ts';

const headerName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP header name'));
// What HTTP carries in a header value (a tab, visible ASCII and Latin-1, as the sender's HTTP client sends it): a
// value it could never send is refused here, not found out at each delivery.
const headerValue = v.pipe(
  v.string(),
  v.maxCodePoints(1024),
  v.regex(/^[^\r\n\0]*$/, 'must be one line'),
  v.regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must be printable ASCII or Latin-1 characters (an HTTP header value)'),
);

export const MAX_CUSTOM_HEADERS = 20;

/** A destination's custom headers, sent with each delivery: names HTTP allows, once each, no connection header. */
export const customHeaders = v.pipe(
  v.record(headerName, headerValue),
  v.check((h) => Object.keys(h).length <= MAX_CUSTOM_HEADERS, `must have at most ${MAX_CUSTOM_HEADERS} headers`),
  v.check((h) => new Set(Object.keys(h).map((n) => n.toLowerCase())).size === Object.keys(h).length, 'must not name a header twice (names ignore case)'),
  v.check(
    (h) => Object.keys(h).every((name) => !CONNECTION_HEADER_NAMES.has(name.toLowerCase())),
    'must not set connection headers such as Host or Content-Length',
  ),
);

const eventType = v.picklist(eventTypes, `must be one of ${eventTypes.join(', ')}`);

export const createWebhookDestinationRequest = named(
  'CreateWebhookDestinationRequest',
  v.strictObject({
    url: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxCodePoints(MAX_WEBHOOK_URL_LENGTH)),
    eventTypes: v.pipe(
      v.array(eventType),
      v.minLength(1, 'must name at least one event type'),
      v.check((types) => new Set(types).size === types.length, 'must not repeat an event type'),
    ),
    headers: v.optional(customHeaders),
    receiveSubMerchantEvents: v.optional(v.boolean()),
  }),
);

const deliveryStatus = v.picklist(deliveryStatuses, `must be one of ${deliveryStatuses.join(', ')}`);

/**
 * The delivery history's query: `page` ≥ 1 with `limit` 1..100 (default 20), and the filters: `status`,
 * `eventType` and `httpStatus` (the receiver's response code, 100..599).
 */
export const listDeliveriesQuery = v.strictObject({
  ...pageQuery,
  status: v.optional(deliveryStatus),
  eventType: v.optional(eventType),
  httpStatus: v.optional(queryInt(100, 599)),
});

const destinationFields = {
  id: v.string(),
  merchantId: uuid,
  url: v.string(),
  eventTypes: v.array(eventType),
  headerNames: v.array(v.string()),
  receiveSubMerchantEvents: v.boolean(),
  circuit: v.strictObject({ state: v.picklist(['closed', 'open']), consecutiveFailures: v.number(), openedAt: nullableIsoTime }),
  createdAt: isoTime,
};

/** A destination as team members see it: never the secret, custom headers by name only. */
export const webhookDestination = named('WebhookDestination', v.strictObject(destinationFields));
/** One page of the merchant's destinations, in the dashboard back end's list shape `{data, pagination}`. */
export const webhookDestinationPage = named('WebhookDestinationPage', v.strictObject({ data: v.array(webhookDestination), pagination }));
/** The destination and its 64-hex signing secret, shown in this response only. */
export const createdWebhookDestination = named(
  'CreatedWebhookDestination',
  v.strictObject({
    ...destinationFields,
    secret: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  }),
);

export const webhookPingResult = named(
  'WebhookPingResult',
  v.strictObject({
    delivered: v.boolean(),
    httpStatus: v.nullable(v.number()),
    error: v.nullable(v.string()),
    durationMs: v.number(),
  }),
);

/** One page of a destination's delivery history, newest first, in the dashboard back end's list shape `{data, pagination}`. */
export const webhookDeliveryPage = named(
  'WebhookDeliveryPage',
  v.strictObject({
    data: v.array(
      v.strictObject({
        destinationId: v.string(),
        eventId: v.string(),
        eventType: eventType,
        merchantId: uuid,
        status: deliveryStatus,
        httpStatus: v.nullable(v.number()),
        error: v.nullable(v.string()),
        durationMs: v.nullable(v.number()),
        responseSnippet: v.nullable(v.string()),
        attemptedAt: isoTime,
      }),
    ),
    pagination,
  }),
);
