/** Subscription cancellations (organization face): the create and update bodies, the record and the list query. */
import * as v from 'valibot';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery, queryBoolean, queryList, instantInput } from '../platform/http/schemas/organization.ts';
import { description, subscriptionIdField } from './changes.schemas.ts';
import { CANCELLATION_SORTS, cancellationReasons, cancellationStatuses, cancelledByValues, churnTimePolicies } from './changes.rules.ts';

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
  createdFrom: v.optional(instantInput),
  createdTo: v.optional(instantInput),
  reasons: v.optional(queryList(reason, cancellationReasons.length)),
  cancelledBy: v.optional(queryList(v.picklist(cancelledByValues), cancelledByValues.length)),
});
