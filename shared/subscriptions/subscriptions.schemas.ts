/**
 * Subscriptions (organization face): the create and items-update bodies, the Subscription record (the spec's
 * field names, `bilingCycle` spelled so), the list query, and the bodies, records and list
 * queries of cancellations, pauses and reactivations (the spec's names: `updatedTime` on pauses and reactivations).
 */
import * as v from 'valibot';
import { intervalUnits, pricingFormulas } from '../catalog/plan-vocabulary.schemas.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery, queryBoolean, queryList, queryTime } from '../platform/http/schemas/organization.ts';
import {
  CANCELLATION_SORTS,
  CHANGE_LIMITS,
  cancellationReasons,
  cancellationStatuses,
  cancelledByValues,
  churnTimePolicies,
  pausedByValues,
  pauseStatuses,
} from './changes.rules.ts';
import { SUBSCRIPTION_LIMITS as L, SUBSCRIPTION_SORTS, subscriptionStatuses } from './subscriptions.rules.ts';

const requiredText = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

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
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(L.search))),
  showTestData: v.optional(queryBoolean, 'true'),
});

export const getSubscriptionQuery = v.strictObject({ showTestData: v.optional(queryBoolean, 'true') });

// Cancellations, pauses, reactivations

const description = v.nullable(v.pipe(v.string(), v.maxLength(CHANGE_LIMITS.description, `must be at most ${CHANGE_LIMITS.description} characters`)));
const subscriptionIdField = requiredText(CHANGE_LIMITS.subscriptionId);
const reason = v.picklist(cancellationReasons, `must be one of ${cancellationReasons.join(', ')}`);
const policy = v.nullable(v.picklist(churnTimePolicies, 'must be now or at-next-renewal'));

/** `POST /subscription-cancellations`. */
export const createCancellationRequest = named(
  'CreateSubscriptionCancellationRequest',
  v.strictObject({
    subscriptionId: subscriptionIdField,
    reason: v.optional(v.nullable(reason)),
    cancelAt: v.optional(v.nullable(isoTime)),
    description: v.optional(description),
    status: v.optional(v.picklist(['draft', 'confirmed'], 'must be draft or confirmed')),
    churnTimePolicy: v.optional(policy),
    prorated: v.optional(v.boolean()),
    cancelledBy: v.optional(v.picklist(['customer', 'merchant'], 'must be customer or merchant')),
  }),
);

/** `PATCH /subscription-cancellations/{id}`: the spec's update body, and `status` to confirm a draft or revoke. */
export const updateCancellationRequest = named(
  'UpdateSubscriptionCancellationRequest',
  v.strictObject({
    subscriptionId: v.optional(subscriptionIdField),
    description: v.optional(description),
    reason: v.optional(v.nullable(reason)),
    prorated: v.optional(v.boolean()),
    churnedAt: v.optional(v.nullable(isoTime)),
    churnTimePolicy: v.optional(policy),
    status: v.optional(v.picklist(['confirmed', 'revoked'], 'must be confirmed or revoked')),
  }),
);

const cancellation = named(
  'SubscriptionCancellation',
  v.strictObject({
    id: uuid,
    organizationId: uuid,
    subscriptionId: uuid,
    proratedInvoiceId: v.nullable(v.string()),
    appliedInvoiceId: v.nullable(v.string()),
    cancelledBy: v.picklist(cancelledByValues),
    reason: v.nullable(reason),
    description: v.nullable(v.string()),
    prorated: v.boolean(),
    status: v.picklist(cancellationStatuses),
    cancelledAt: nullableIsoTime,
    updatedAt: isoTime,
    churnedAt: nullableIsoTime,
    churnTimePolicy: policy,
    lineItems: v.array(
      v.strictObject({
        type: v.picklist(['debit', 'credit']),
        description: v.string(),
        unitPriceAmount: v.number(),
        unitPriceCurrency: v.string(),
        quantity: v.number(),
        periodStartsAt: isoTime,
        periodEndsAt: isoTime,
        createdAt: isoTime,
      }),
    ),
    lineItemsSubtotal: v.nullable(v.strictObject({ amount: v.number(), currency: v.string() })),
    createdAt: isoTime,
    isTestData: v.boolean(),
  }),
);
export const cancellationResponse = objectEnvelope('SubscriptionCancellationResponse', cancellation);
export const cancellationListResponse = listEnvelope('SubscriptionCancellationListResponse', cancellation);

export const listCancellationsQuery = v.strictObject({
  ...pagingQuery,
  sortBy: v.optional(v.picklist(CANCELLATION_SORTS, `must be one of ${CANCELLATION_SORTS.join(', ')}`), 'createdAt'),
  showTestData: v.optional(queryBoolean, 'true'),
  statuses: v.optional(queryList(v.picklist(cancellationStatuses), cancellationStatuses.length)),
  createdFrom: v.optional(queryTime),
  createdTo: v.optional(queryTime),
  reasons: v.optional(queryList(reason, cancellationReasons.length)),
  cancelledBy: v.optional(queryList(v.picklist(cancelledByValues), cancelledByValues.length)),
});

/** The list query of pauses and of reactivations: paging and a creation range. */
export const listChangesQuery = v.strictObject({ ...pagingQuery, createdFrom: v.optional(queryTime), createdTo: v.optional(queryTime) });

const pauseFields = {
  pausedBy: v.optional(v.picklist(pausedByValues, 'must be customer or merchant')),
  description: v.optional(description),
  effectiveAt: v.optional(v.nullable(isoTime)),
  endAt: v.optional(v.nullable(isoTime)),
};
/** `POST /subscription-pauses`. */
export const createPauseRequest = named('CreateSubscriptionPauseRequest', v.strictObject({ subscriptionId: subscriptionIdField, ...pauseFields }));
/** `PATCH /subscription-pauses/{id}`. */
export const updatePauseRequest = named('UpdateSubscriptionPauseRequest', v.strictObject({ subscriptionId: v.optional(subscriptionIdField), ...pauseFields }));

const pause = named(
  'SubscriptionPause',
  v.strictObject({
    id: uuid,
    subscriptionId: uuid,
    status: v.picklist(pauseStatuses),
    pausedBy: v.picklist(pausedByValues),
    description: v.nullable(v.string()),
    effectiveAt: isoTime,
    endAt: nullableIsoTime,
    createdAt: isoTime,
    updatedTime: isoTime,
  }),
);
export const pauseResponse = objectEnvelope('SubscriptionPauseResponse', pause);
export const pauseListResponse = listEnvelope('SubscriptionPauseListResponse', pause);

/** `POST /subscription-reactivations`. */
export const createReactivationRequest = named(
  'CreateSubscriptionReactivationRequest',
  v.strictObject({
    subscriptionId: subscriptionIdField,
    description: v.optional(description),
    effectiveAt: v.optional(v.nullable(isoTime)),
    renewalAt: v.optional(v.nullable(isoTime)),
    paymentInstrumentId: v.optional(v.nullable(requiredText(CHANGE_LIMITS.id))),
    cancellationId: v.optional(v.nullable(requiredText(CHANGE_LIMITS.id))),
  }),
);

const reactivation = named(
  'SubscriptionReactivation',
  v.strictObject({
    id: uuid,
    subscriptionId: uuid,
    cancellationId: v.nullable(v.string()),
    description: v.nullable(v.string()),
    effectiveAt: isoTime,
    renewalAt: nullableIsoTime,
    paymentInstrumentId: v.nullable(v.string()),
    transactionId: v.nullable(v.string()),
    createdAt: isoTime,
    updatedTime: isoTime,
  }),
);
export const reactivationResponse = objectEnvelope('SubscriptionReactivationResponse', reactivation);
export const reactivationListResponse = listEnvelope('SubscriptionReactivationListResponse', reactivation);
