/**
 * Cancellations, pauses and reactivations of subscriptions: their enums (the spec's), records and limits. Pure.
 *
 * - A cancellation is `draft` (no effect until confirmed), `confirmed` (the subscription ends at `churnedAt`: at once
 *   for `churnTimePolicy` `now`, at the end of the paid period for `at-next-renewal`, the default, or at `cancelAt`),
 *   `completed` once the subscription has ended, or `revoked` (changed before it took effect: the subscription carries
 *   on). One open (draft or confirmed) cancellation per subscription.
 * - A pause is `pending` until `effectiveAt`, `active` until `endAt` (null: until it is deleted), then `completed`.
 * - A reactivation brings back an ended subscription, or revokes a confirmed cancellation that has not taken effect.
 */

export const cancellationReasons = [
  'did-not-use',
  'did-not-want',
  'missing-features',
  'bugs-or-problems',
  'do-not-remember',
  'risk-warning',
  'contract-expired',
  'too-expensive',
  'other',
  'billing-failure',
] as const;
export type CancellationReason = (typeof cancellationReasons)[number];
export const cancellationStatuses = ['draft', 'confirmed', 'completed', 'revoked'] as const;
export type CancellationStatus = (typeof cancellationStatuses)[number];
export const cancelledByValues = ['customer', 'merchant', 'system'] as const;
export type CancelledBy = (typeof cancelledByValues)[number];
export const churnTimePolicies = ['now', 'at-next-renewal'] as const;
export type ChurnTimePolicy = (typeof churnTimePolicies)[number];
export const pausedByValues = ['customer', 'merchant'] as const;
export type PausedBy = (typeof pausedByValues)[number];
export const pauseStatuses = ['pending', 'active', 'completed'] as const;
export type PauseStatus = (typeof pauseStatuses)[number];

/** What every change record has (the rest is its kind's). */
export interface ChangeRecord {
  id: string;
  organizationId: string;
  subscriptionId: string;
  isTestData: boolean;
  createdAt: string;
  updatedAt: string;
}

export const CHANGE_LIMITS = { subscriptionId: 50, description: 255, id: 50 } as const;

export const CANCELLATION_SORTS = ['createdAt', 'updatedAt', 'cancelledAt', 'churnedAt'] as const;
export type CancellationSort = (typeof CANCELLATION_SORTS)[number];

export interface CancellationLineItem {
  type: 'debit' | 'credit';
  description: string;
  /** Minor units. */
  unitPriceMinor: number;
  currency: string;
  quantity: number;
  periodStartsAt: string;
  periodEndsAt: string;
  createdAt: string;
}

export interface Cancellation extends ChangeRecord {
  proratedInvoiceId: string | null;
  appliedInvoiceId: string | null;
  cancelledBy: CancelledBy;
  reason: CancellationReason | null;
  description: string | null;
  prorated: boolean;
  status: CancellationStatus;
  /** When it was confirmed; null while draft. */
  cancelledAt: string | null;
  /** When the subscription ends (or ended); null while draft at the next renewal not yet known. */
  churnedAt: string | null;
  churnTimePolicy: ChurnTimePolicy | null;
  /** A date of its own the subscription ends at (instead of the policy's). */
  cancelAt: string | null;
  lineItems: CancellationLineItem[];
  /** The refunds of what a prorated cancellation at once gave back, one per payment refunded (newest payment first). */
  refundIds: string[];
}

export interface PauseRecord extends ChangeRecord {
  status: PauseStatus;
  pausedBy: PausedBy;
  description: string | null;
  effectiveAt: string;
  endAt: string | null;
}

export interface Reactivation extends ChangeRecord {
  cancellationId: string | null;
  description: string | null;
  effectiveAt: string;
  renewalAt: string | null;
  paymentInstrumentId: string | null;
  /** The payment of the period it started; null when none was charged (a revoked cancellation). */
  transactionId: string | null;
}

/**
 * When the paid time of a subscription ends after `now`, which a cancellation at the next renewal waits for: its
 * period's end (active, past due) or its trial's; null for one with none left (pending, paused, ended, or past due on
 * a period that has ended unpaid), which such a cancellation ends at once.
 */
export function paidUntil(s: { status: string; periodEnd: string | null; trialEndAt: string | null }, now: string): string | null {
  const until = s.status === 'active' || s.status === 'past-due' ? s.periodEnd : s.status === 'trial' ? s.trialEndAt : null;
  return until && until > now ? until : null;
}

/** When a confirmed cancellation ends a subscription whose paid time still to come ends at `paidEnd` (`paidUntil`; null: none). */
export function churnTime(c: Pick<Cancellation, 'churnTimePolicy' | 'cancelAt'>, now: string, paidEnd: string | null): string {
  if (c.cancelAt) return c.cancelAt > now ? c.cancelAt : now;
  return c.churnTimePolicy === 'now' ? now : (paidEnd ?? now);
}
