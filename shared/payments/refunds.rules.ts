/**
 * Refunds of a transaction: their record, statuses and rules. Pure functions; no I/O.
 *
 * A refund gives back all or part of a captured payment. It is written `pending` together with its reservation
 * of the transaction's refundable amount (so the refunds of a transaction never add up to more than it, however
 * many run at once), then the processor is asked, then it settles once: `refunded` (the transaction becomes
 * `refunded` or `partially-refunded`, and the ledger books it) or `failed` (the reservation is given back).
 */
import { v7 as uuidv7 } from 'uuid';
import type { CombinedStatus } from './transactions.rules.ts';

export const refundStatuses = ['pending', 'refunded', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** Where a refund was asked for: the organization API, the dashboard, or the processor itself (the only one with a webhook). */
export const refundSources = ['api', 'dashboard', 'processor'] as const;
export type RefundSource = (typeof refundSources)[number];

/** Longest `reason` (free text, trimmed) and `Idempotency-Key`. */
export const REFUND_LIMITS = { reason: 255 } as const;

/** Refund ids: UUID v7 (time-ordered, so a transaction's refunds list in the order they were made). */
export const newRefundId = (): string => uuidv7();

/** Why a refund failed: the processor's error code and message. */
export interface RefundFailure {
  code: string;
  message: string;
}

export interface Refund {
  id: string;
  transactionId: string;
  organizationId: string;
  /** Positive integer minor units of `currency`. */
  amountMinor: number;
  /** The transaction's currency (ISO 4217, uppercase). */
  currency: string;
  reason: string | null;
  source: RefundSource;
  status: RefundStatus;
  /** The processor's id of the refund (`re_…`); null until it answered, and when it refused. */
  externalRefundId: string | null;
  failure: RefundFailure | null;
  /** The `Idempotency-Key` it was asked with, or null. */
  idempotencyKey: string | null;
  /** When it reached `refunded` or `failed`; null while pending. */
  processedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What is left to refund of the payment `t`: its amount less what is refunded or being refunded (`refundedMinor`) and
 * what a decided dispute took of it (`takenMinor`, which no refund gives back again), never below 0.
 */
export const refundableMinor = (t: { amountMinor: number; refundedMinor?: number | undefined }, takenMinor = 0): number =>
  Math.max(t.amountMinor - (t.refundedMinor ?? 0) - takenMinor, 0);

/** The statuses settled refunds move on (to `partially-refunded` or `refunded`); any other stays as it is. */
export const REFUNDS_MOVE_STATUS_FROM: readonly CombinedStatus[] = ['completed', 'partially-refunded'];

/**
 * The transaction's status once refunds of `settledMinor` in all reached `refunded`: `refunded` when they cover
 * the whole amount, `partially-refunded` before that; null when the status stays (a transaction in another
 * status, e.g. disputed, keeps it).
 */
export function statusAfterRefunds(current: CombinedStatus, amountMinor: number, settledMinor: number): CombinedStatus | null {
  if (!REFUNDS_MOVE_STATUS_FROM.includes(current)) return null;
  return settledMinor >= amountMinor ? 'refunded' : 'partially-refunded';
}

/**
 * The key the processor's own idempotency runs on for a refund: the refund's id, so every attempt and retry of
 * one refund names the same processor refund, and the processor makes it at most once.
 */
export const processorRefundKey = (refundId: string): string => `refund:${refundId}`;
