/**
 * Disputes (organization face): the create body, the dispute record and the list query.
 */
import * as v from 'valibot';
import { disputeCategories, DISPUTE_ID, disputeStatuses, DISPUTE_LIMITS, initialDisputeStatuses, LAST_POSTED_AT } from './disputes.rules.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import {
  amountFitsCurrency,
  currency,
  listEnvelope,
  majorAmount,
  objectEnvelope,
  pagingQuery,
  queryList,
  instantInput,
  rangeInOrder,
} from '../platform/http/schemas/organization.ts';

const L = DISPUTE_LIMITS;

export const disputeStatus = named('DisputeStatus', v.picklist(disputeStatuses, `must be one of ${disputeStatuses.join(', ')}`));
export const disputeCategory = named('DisputeCategory', v.picklist(disputeCategories, `must be one of ${disputeCategories.join(', ')}`));

/**
 * `POST …/disputes/{disputeId}`: `transactionId` (required, at most 50), `amount` (major units, more than 0, at most
 * the currency's decimals) and `currency` (required); `reasonCode` (a card-network code or a text reason, default
 * `general`), `type` (the dispute category, default `uncategorized`), `status` (`response-needed` by default;
 * `unknown` and `under-review` too, never a decided status) and `postedAt` (default now) optional.
 */
export const createDisputeRequest = named(
  'CreateDisputeRequest',
  v.pipe(
    v.strictObject({
      transactionId: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(L.transactionId, `must be at most ${L.transactionId} characters`)),
      currency,
      amount: v.pipe(majorAmount, v.gtValue(0, 'must be more than 0')),
      reasonCode: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxCodePoints(L.reasonCode, `must be at most ${L.reasonCode} characters`),
          v.regex(/^[A-Za-z0-9._ -]+$/, 'must be a card-network code or a reason such as fraudulent'),
        ),
      ),
      type: v.optional(disputeCategory),
      status: v.optional(v.picklist(initialDisputeStatuses, `must be one of ${initialDisputeStatuses.join(', ')} when a dispute is created`)),
      postedAt: v.optional(v.pipe(instantInput, v.maxValue(LAST_POSTED_AT, 'must be on or before 9999-12-24'))),
    }),
    amountFitsCurrency('amount', 'currency'),
  ),
);

const disputeCustomer = v.nullable(v.strictObject({ id: v.nullable(v.string()), name: v.nullable(v.string()) }));

export const dispute = named(
  'Dispute',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(DISPUTE_ID)),
    organizationId: uuid,
    transactionId: v.string(),
    externalDisputeId: v.nullable(v.string()),
    caseId: v.nullable(v.string()),
    status: disputeStatus,
    category: disputeCategory,
    type: disputeCategory,
    reasonCode: v.string(),
    amount: v.pipe(v.number(), v.finite(), v.gtValue(0)),
    currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    customer: disputeCustomer,
    gatewaySlug: v.string(),
    postedAt: isoTime,
    deadlineAt: isoTime,
    resolvedAt: nullableIsoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
    deletedAt: v.null(),
  }),
);

export const disputeResponse = objectEnvelope('DisputeResponse', dispute);
export const disputeListResponse = listEnvelope('DisputeListResponse', dispute);

/** Paging, `sortBy` createdAt|updatedAt (default createdAt), `statuses` and `createdFrom`/`createdTo` (inclusive). */
export const listDisputesQuery = v.pipe(
  v.strictObject({
    ...pagingQuery,
    sortBy: v.optional(v.picklist(['createdAt', 'updatedAt'], 'must be createdAt or updatedAt'), 'createdAt'),
    statuses: v.optional(queryList(v.picklist(disputeStatuses, `must be one of ${disputeStatuses.join(', ')}`), disputeStatuses.length)),
    createdFrom: v.optional(instantInput),
    createdTo: v.optional(instantInput),
  }),
  rangeInOrder('createdFrom', 'createdTo'),
);

/** The value lists the operator's tools validate their arguments against. */
export { disputeAlertTypes, disputeCategories } from './disputes.rules.ts';
