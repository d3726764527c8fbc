/**
 * Webhook destinations of the organization face (`/api/v1/webhook-destinations`): they belong to the calling
 * account and receive `transaction-processed` and `transaction-declined` of every organization it is linked to.
 * Also the body those deliveries carry (`OrganizationWebhookEvent`).
 */
import * as v from 'valibot';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/urls.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery } from '../platform/http/schemas/organization.ts';

/** The event types of the organization face's webhooks. */
export const organizationEventTypes = ['transaction-processed', 'transaction-declined'] as const;
export type OrganizationEventType = (typeof organizationEventTypes)[number];

export const ORG_WEBHOOK_LIMITS = {
  /** Basic-auth user name and password (characters). */
  username: 255,
  password: 255,
  /** Destinations one account may have at a time. */
  destinations: 10,
} as const;

const organizationEventType = v.picklist(organizationEventTypes, `must be one of ${organizationEventTypes.join(', ')}`);

const url = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(MAX_WEBHOOK_URL_LENGTH));

const eventTypes = v.pipe(
  v.array(organizationEventType),
  v.minLength(1, 'must name at least one event type'),
  v.check((types) => new Set(types).size === types.length, 'must not repeat an event type'),
);

/** `{type: "basic", username, password}`: RFC 7617 forbids a colon in the user name; no control characters. */
const basicAuthInput = v.strictObject({
  type: v.literal('basic', 'must be basic'),
  username: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxCodePoints(ORG_WEBHOOK_LIMITS.username, `must be at most ${ORG_WEBHOOK_LIMITS.username} characters`),
    v.regex(/^[^:\u0000-\u001f\u007f]*$/, 'must not contain a colon or control characters'),
  ),
  password: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxCodePoints(ORG_WEBHOOK_LIMITS.password, `must be at most ${ORG_WEBHOOK_LIMITS.password} characters`),
    v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
  ),
});

/** `url` (required), optional `auth` and `eventTypes` (both types when absent). */
export const createOrganizationWebhookDestinationRequest = named(
  'CreateOrganizationWebhookDestinationRequest',
  v.strictObject({
    url,
    auth: v.optional(basicAuthInput),
    eventTypes: v.optional(eventTypes),
  }),
);

/** The fields to change (at least one): `auth` replaces the credentials as a whole, `null` removes them. */
export const updateOrganizationWebhookDestinationRequest = named(
  'UpdateOrganizationWebhookDestinationRequest',
  v.pipe(
    v.strictObject({
      url: v.optional(url),
      auth: v.optional(v.nullable(basicAuthInput)),
      eventTypes: v.optional(eventTypes),
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
  ),
);

/** Paging of the account's destinations, sorted by creation (`sortDirection`, default desc). */
export const listOrganizationWebhookDestinationsQuery = v.strictObject({ ...pagingQuery });

export const organizationWebhookDestinationId = v.pipe(v.string(), v.regex(/^whd_[0-9a-f]{32}$/));

const destinationFields = {
  id: organizationWebhookDestinationId,
  url: v.string(),
  /** The password is never returned. */
  auth: v.nullable(v.strictObject({ type: v.literal('basic'), username: v.string() })),
  eventTypes: v.array(organizationEventType),
  circuit: v.strictObject({
    state: v.picklist(['closed', 'open']),
    consecutiveFailures: v.pipe(v.number(), v.integer(), v.minValue(0)),
    openedAt: nullableIsoTime,
  }),
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const organizationWebhookDestination = named('OrganizationWebhookDestination', v.strictObject(destinationFields));
export const organizationWebhookDestinationResponse = objectEnvelope('OrganizationWebhookDestinationResponse', organizationWebhookDestination);
export const organizationWebhookDestinationListResponse = listEnvelope('OrganizationWebhookDestinationListResponse', organizationWebhookDestination);
/** The destination and its 64-hex signing secret, shown in this response only. */
export const createdOrganizationWebhookDestinationResponse = objectEnvelope(
  'CreatedOrganizationWebhookDestinationResponse',
  named('CreatedOrganizationWebhookDestination', v.strictObject({ ...destinationFields, secret: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) })),
);

/**
 * The body of a delivery to an account destination: an envelope on this face (unlike merchant webhooks, whose
 * bodies are the bare payload). `createdAt` is when the transaction happened; `amount` is in major units with
 * an uppercase `currency`.
 */
export const organizationWebhookEvent = named(
  'OrganizationWebhookEvent',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(/^evt_[0-9a-f]{32}$/)),
    type: organizationEventType,
    createdAt: isoTime,
    organizationId: uuid,
    data: v.strictObject({
      transactionId: v.string(),
      externalTransactionId: v.nullable(v.string()),
      status: v.picklist(['completed', 'declined']),
      amount: v.nullable(v.number()),
      currency: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
      declineReason: v.nullable(v.string()),
      customerId: v.nullable(v.string()),
      orderId: v.nullable(v.string()),
      subscriptionId: v.nullable(v.string()),
    }),
  }),
);
