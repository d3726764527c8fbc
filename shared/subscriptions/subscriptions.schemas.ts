/**
 * Subscriptions (organization face): the create and items-update bodies, the Subscription record (the spec's
 * field names, `bilingCycle` spelled so) and the list query. The cancellations', pauses' and reactivations' are in
 * their own files (`cancellations.schemas.ts`, `pauses.schemas.ts`, `reactivations.schemas.ts`), so a route carries
 * only its own resource's schemas.
 */
import * as v from 'valibot';
import { intervalUnits, pricingFormulas } from '../catalog/plan-vocabulary.schemas.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery, queryBoolean, queryList } from '../platform/http/schemas/organization.ts';
import { requiredText } from './changes.schemas.ts';
import { SUBSCRIPTION_LIMITS as L, SUBSCRIPTION_SORTS, subscriptionStatuses } from './subscriptions.rules.ts';

const itemInput = v.strictObject({
  plan: requiredText(L.id),
  quantity: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(L.quantity)), 1),
});
const items = v.pipe(v.array(itemInput), v.minLength(1, 'must name at least one plan'), v.maxLength(L.items, `must have at most ${L.items} items`));

/**
 * `POST /subscriptions`: a customer's subscription to one or more recurring plans of one currency and cycle.
 * - `customerId` (required) and `paymentInstrumentId` (one of the customer's; absent: its primary instrument).
 * - `startAt`: when it starts (absent or past: now). `trial`: `{enabled, endAt}` (absent: the plan's trial).
 * - `isTrialOnly`: ends when the trial ends, never charged. `renewalTime`: the first renewal (the periods' anchor).
 */
export const createSubscriptionRequest = named(
  'CreateSubscriptionRequest',
  v.strictObject({
    customerId: requiredText(L.id),
    paymentInstrumentId: v.optional(v.nullable(requiredText(L.id))),
    items,
    startAt: v.optional(v.nullable(isoTime)),
    trial: v.optional(v.nullable(v.strictObject({ enabled: v.boolean(), endAt: v.optional(v.nullable(isoTime)) }))),
    isTrialOnly: v.optional(v.boolean(), false),
    renewalTime: v.optional(v.nullable(isoTime)),
  }),
);

/** `PUT /subscriptions/{id}/items`: the new items; `retainRenewalTime` `retain` (default) or `reset`; `proRataCredit`. */
export const updateSubscriptionItemsRequest = named(
  'UpdateSubscriptionItemsRequest',
  v.strictObject({
    items,
    retainRenewalTime: v.optional(v.picklist(['retain', 'reset'], 'must be retain or reset'), 'retain'),
    proRataCredit: v.optional(v.boolean(), false),
  }),
);

const cycle = named('SubscriptionBillingCycle', v.strictObject({ unit: v.picklist(intervalUnits.map((u) => `${u}s` as const)), length: v.number() }));

export const subscription = named(
  'Subscription',
  v.strictObject({
    id: uuid,
    createdAt: isoTime,
    updatedAt: isoTime,
    deletedAt: nullableIsoTime,
    organizationId: uuid,
    price: v.number(),
    currency: v.string(),
    status: v.picklist(subscriptionStatuses),
    name: v.string(),
    customer: v.strictObject({ id: v.string(), name: v.nullable(v.string()), email: v.nullable(v.string()) }),
    bilingCycle: cycle,
    isAutoPay: v.boolean(),
    paymentInstrumentId: v.nullable(v.string()),
    startTime: isoTime,
    trialEndTime: nullableIsoTime,
    isTrialOnly: v.boolean(),
    currentPeriodStart: nullableIsoTime,
    currentPeriodEnd: nullableIsoTime,
    nextCharge: nullableIsoTime,
    endTime: nullableIsoTime,
    delinquencyPeriod: v.number(),
    renewalRemindersSentAt: v.array(isoTime),
    credit: v.number(),
    orderId: v.nullable(v.string()),
    isTestData: v.boolean(),
    items: v.array(
      v.strictObject({
        price: v.number(),
        quantity: v.number(),
        formula: v.picklist(pricingFormulas),
        currency: v.string(),
        planId: v.string(),
        planName: v.string(),
        bilingCycle: cycle,
      }),
    ),
  }),
);

export const subscriptionResponse = objectEnvelope('SubscriptionResponse', subscription);
export const subscriptionListResponse = listEnvelope('SubscriptionListResponse', subscription);

export const listSubscriptionsQuery = v.strictObject({
  ...pagingQuery,
  sortBy: v.optional(v.picklist(SUBSCRIPTION_SORTS, `must be one of ${SUBSCRIPTION_SORTS.join(', ')}`), 'createdAt'),
  statuses: v.optional(queryList(v.picklist(subscriptionStatuses, `must be one of ${subscriptionStatuses.join(', ')}`), subscriptionStatuses.length)),
  customerId: v.optional(requiredText(L.id)),
  planId: v.optional(requiredText(L.id)),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(L.search))),
  showTestData: v.optional(queryBoolean, 'true'),
});

export const getSubscriptionQuery = v.strictObject({ showTestData: v.optional(queryBoolean, 'true') });
