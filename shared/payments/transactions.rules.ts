/**
 * Transactions: their statuses (`CombinedStatus`), the transitions the platform makes between them, the answer
 * each processor outcome gives, and the fingerprint that tells a repeated request from a different one under the
 * same idempotency key. Pure functions; no I/O.
 */
import { createHash } from 'node:crypto';
import { compareText } from '../domain/collation.ts';

/** Every `CombinedStatus` value of the organization API, in the spec's order. */
export const combinedStatuses = [
  'abandoned',
  'canceled',
  'declined',
  'completed',
  'refunded',
  'voided',
  'partially-refunded',
  'waiting',
  'timeout',
  'not-sent',
  'disputed',
  'sending',
  'offsite',
] as const;
export type CombinedStatus = (typeof combinedStatuses)[number];

/**
 * The transitions the platform makes today. A transaction is born `sending` (written with its idempotency claim,
 * before the processor is called) and leaves it once, when the processor's answer is recorded: `completed` when
 * the charge succeeded, `declined` when the issuer declined it or the processor failed to process it (nothing was
 * charged either way). `declined` is final.
 */
export const transitions: Readonly<Partial<Record<CombinedStatus, readonly CombinedStatus[]>>> = {
  sending: ['completed', 'declined'],
  // Refunds (shared/payments/refunds.rules.ts): a refund that reaches `refunded` makes the transaction `refunded` when its
  // refunds add up to the whole amount, `partially-refunded` before that.
  completed: ['partially-refunded', 'refunded'],
  'partially-refunded': ['partially-refunded', 'refunded'],
};

/** The statuses a transaction can be refunded in (422 `refund.transaction_not_refundable` in any other). */
export const REFUNDABLE_STATUSES = ['completed', 'partially-refunded'] as const satisfies readonly CombinedStatus[];

/** The statuses of a payment that was captured: refunds move it on, and it keeps its receipt. */
export const PAID_STATUSES = [...REFUNDABLE_STATUSES, 'refunded'] as const satisfies readonly CombinedStatus[];
export type PaidStatus = (typeof PAID_STATUSES)[number];

/** Whether a transaction in `status` can be refunded (`REFUNDABLE_STATUSES`). */
export const isRefundableStatus = (status: CombinedStatus): status is (typeof REFUNDABLE_STATUSES)[number] =>
  (REFUNDABLE_STATUSES as readonly CombinedStatus[]).includes(status);

/** Whether a transaction in `status` is a captured payment (`PAID_STATUSES`). */
export const isPaidStatus = (status: CombinedStatus): status is PaidStatus => (PAID_STATUSES as readonly CombinedStatus[]).includes(status);

/** The status a new transaction is written with. */
export const INITIAL_STATUS: CombinedStatus = 'sending';

export const canTransition = (from: CombinedStatus, to: CombinedStatus): boolean => transitions[from]?.includes(to) ?? false;

/** What kind of money movement a transaction is: a sale authorizes and captures at once. */
export const paymentTypes = ['sale'] as const;
export type PaymentType = (typeof paymentTypes)[number];

/** Transaction ids: UUID v7 (time-ordered). */
export const isTransactionId = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id);

/** Longest `idempotencyKey` of a transaction's body (the spec's limit; header keys elsewhere take 255). */
export const TRANSACTION_IDEMPOTENCY_KEY_MAX = 100;

/** A canonical JSON text of `value`: object keys sorted at every level, so key order never matters. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The fingerprint of a request under an idempotency key: SHA-256 of its canonical JSON (field order and
 * whitespace do not matter; any changed value does).
 */
export const requestFingerprint = (request: Record<string, unknown>): string => createHash('sha256').update(canonical(request)).digest('hex');

/**
 * The key the processor's own idempotency runs on for the charge of (organization, operation, idempotency key): every
 * attempt and retry of one request names the same charge, so the processor makes at most one. The operation stands
 * outside the hash, so no key of one operation can name another operation's charge.
 */
export const processorIdempotencyKey = (organizationId: string, operation: string, idempotencyKey: string): string =>
  `txn:${organizationId}:${operation}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;

/** Why a transaction did not complete: the processor's decline code (or error code) and its message. */
export interface DeclineReason {
  code: string;
  message: string;
}

/**
 * What a processor answer becomes: the transaction's status and decline reason, and the HTTP answer of the
 * request — 201 with the transaction; 402 `payment.declined` when the issuer declined; 502
 * `payment.processor_error` when the processor could not process the charge (nothing was charged).
 */
export type Settlement =
  | { status: 'completed'; externalTransactionId: string; declineReason: null; httpStatus: 201 }
  | { status: 'declined'; externalTransactionId: string | null; declineReason: DeclineReason; httpStatus: 402 | 502 };

export type ProcessorAnswer =
  | { outcome: 'succeeded'; externalTransactionId: string }
  | { outcome: 'declined'; externalTransactionId: string; declineCode: string; declineMessage: string }
  | { outcome: 'error'; externalTransactionId: string | null; errorCode: string; errorMessage: string };

export function settlementOf(answer: ProcessorAnswer): Settlement {
  switch (answer.outcome) {
    case 'succeeded':
      return { status: 'completed', externalTransactionId: answer.externalTransactionId, declineReason: null, httpStatus: 201 };
    case 'declined':
      return {
        status: 'declined',
        externalTransactionId: answer.externalTransactionId,
        declineReason: { code: answer.declineCode, message: answer.declineMessage },
        httpStatus: 402,
      };
    case 'error':
      return {
        status: 'declined',
        externalTransactionId: answer.externalTransactionId,
        declineReason: { code: answer.errorCode, message: answer.errorMessage },
        httpStatus: 502,
      };
  }
}

// Listing

export const TRANSACTION_SORTS = ['createdAt', 'updatedAt', 'title', 'customerName', 'date', 'paymentType', 'gatewayName'] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];

/** Sorts the listing indexes answer directly; the others sort the matching transactions in memory. */
export const INDEXED_SORTS = ['createdAt', 'updatedAt'] as const satisfies readonly TransactionSort[];
export const isIndexedSort = (s: TransactionSort): s is (typeof INDEXED_SORTS)[number] => (INDEXED_SORTS as readonly string[]).includes(s);

/** Most matching transactions a list sorted in memory (title, customerName, date, paymentType, gatewayName) reads. */
export const IN_MEMORY_SORT_LIMIT = 10_000;

/** What an in-memory sort reads of a transaction. */
export interface SortableTransaction {
  id: string;
  createdAt: string;
  description: string | null;
  customerName: string | null;
  processedAt: string | null;
  paymentType: string;
  gatewayName: string;
  /** Read for a sort by `updatedAt` in memory (a list no index sorts by it: one subscription's). */
  updatedAt?: string;
}

function sortValue(t: SortableTransaction, sortBy: TransactionSort): string | null {
  switch (sortBy) {
    case 'title':
      return t.description;
    case 'customerName':
      return t.customerName;
    case 'date':
      return t.processedAt;
    case 'paymentType':
      return t.paymentType;
    case 'gatewayName':
      return t.gatewayName;
    case 'createdAt':
      return t.createdAt;
    case 'updatedAt':
      return t.updatedAt ?? null;
  }
}

/**
 * `items` in the order of `sortBy` and `direction`: `title` (the description) and `customerName` compare the way
 * people read them (case and accents ignored), `date` (when the processor answered), `paymentType` and
 * `gatewayName` as text. Transactions without the value come last in both directions; ties are broken by
 * creation time, then id, in the same direction.
 */
export function sortTransactions<T extends SortableTransaction>(items: readonly T[], sortBy: TransactionSort, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  const readable = sortBy === 'title' || sortBy === 'customerName';
  const keyed = items.map((t) => ({ t, value: sortValue(t, sortBy) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value !== b.value) return a.value === null ? 1 : -1;
    } else {
      const byValue = readable ? compareText(a.value, b.value) : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      if (byValue !== 0) return sign * byValue;
    }
    if (a.t.createdAt !== b.t.createdAt) return sign * (a.t.createdAt < b.t.createdAt ? -1 : 1);
    return sign * (a.t.id < b.t.id ? -1 : a.t.id > b.t.id ? 1 : 0);
  });
  return keyed.map((k) => k.t);
}
