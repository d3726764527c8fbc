/** Subscription reactivations (organization face): the create body and the record (the spec's `updatedTime`). */
import * as v from 'valibot';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope } from '../platform/http/schemas/organization.ts';
import { description, requiredText, subscriptionIdField } from './changes.schemas.ts';
import { CHANGE_LIMITS } from './changes.rules.ts';

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
