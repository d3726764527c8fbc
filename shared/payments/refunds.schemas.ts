/**
 * Refunds: the body of a refund request (organization API and dashboard), the refund record, and the list query.
 */
import * as v from 'valibot';
import { REFUND_LIMITS, refundSources, refundStatuses } from './refunds.rules.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, majorAmount, objectEnvelope, pagingQuery } from '../platform/http/schemas/organization.ts';

/**
 * `POST …/transactions/{transactionId}/refunds`: `amount` in major units of the transaction's currency (more
 * than 0; absent: all that is left to refund), `reason` free text (trimmed, at most 255 characters).
 */
export const createRefundRequest = named(
  'CreateRefundRequest',
  v.strictObject({
    amount: v.optional(v.pipe(majorAmount, v.gtValue(0, 'must be more than 0'))),
    reason: v.optional(v.nullable(v.pipe(v.string(), v.maxCodePoints(REFUND_LIMITS.reason, `must be at most ${REFUND_LIMITS.reason} characters`)))),
  }),
);

const refundFailure = named('RefundFailureReason', v.strictObject({ code: v.string(), message: v.string() }));

export const refund = named(
  'Refund',
  v.strictObject({
    id: v.pipe(uuid, v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7/, 'must be a UUID v7')),
    transactionId: uuid,
    organizationId: uuid,
    amount: v.pipe(v.number(), v.finite(), v.gtValue(0)),
    currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    reason: v.nullable(v.string()),
    source: v.picklist(refundSources),
    status: v.picklist(refundStatuses),
    externalRefundId: v.nullable(v.string()),
    failureReason: v.nullable(refundFailure),
    idempotencyKey: v.nullable(v.string()),
    processedAt: nullableIsoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const refundResponse = objectEnvelope('RefundResponse', refund);
export const refundListResponse = listEnvelope('RefundListResponse', refund);

/** The refunds of a transaction: offset paging, oldest first with `sortDirection=asc` (newest first by default). */
export const listRefundsQuery = v.strictObject({ ...pagingQuery });
