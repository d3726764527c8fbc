/** Subscription pauses (organization face): the create and update bodies and the record (the spec's `updatedTime`). */
import * as v from 'valibot';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope } from '../platform/http/schemas/organization.ts';
import { description, subscriptionIdField } from './changes.schemas.ts';
import { pausedByValues, pauseStatuses } from './changes.rules.ts';

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
