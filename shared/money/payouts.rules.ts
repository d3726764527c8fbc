/**
 * Payout methods and withdrawals (payouts): the pure rules, no I/O.
 *
 * A payout method is a bank account of the merchant. Only the last four characters of its account number are
 * kept; the number itself is checked (length, characters, the IBAN checksum) and dropped.
 *
 * A withdrawal moves through `pending` → `in_transit` → `paid`; `pending` and `in_transit` may also end `failed`
 * (the bank refused the transfer) or `canceled` (stopped before it was paid). `paid`, `failed` and `canceled`
 * are final.
 */
import { createHash, randomBytes } from 'node:crypto';
import { BadRequestError } from '../domain/errors.ts';

export const payoutMethodTypes = ['bank-account'] as const;
export type PayoutMethodType = (typeof payoutMethodTypes)[number];
/** `verified` on sandbox at once; on live a method stays `pending` until its bank account is verified. */
export type PayoutMethodStatus = 'pending' | 'verified';

export interface PayoutMethod {
  id: string;
  merchantId: string;
  type: PayoutMethodType;
  holderName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217: payouts to this method are in this currency. */
  currency: string;
  /** The last four characters of the account number: all that is kept of it. */
  last4: string;
  status: PayoutMethodStatus;
  createdAt: string;
}

/** The most payout methods a merchant may have at once. */
export const MAX_PAYOUT_METHODS = 10;
export const HOLDER_NAME_MAX = 100;

/** `pom_` and 32 random hex digits. */
export const newPayoutMethodId = (): string => `pom_${randomBytes(16).toString('hex')}`;
/** `po_` and 32 random hex digits: a withdrawal's id (its `withdrawalId`, the `payoutId` of `payout.sent`). */
export const newWithdrawalId = (): string => `po_${randomBytes(16).toString('hex')}`;
/** The sandbox bank's reference of a withdrawal sent (`wd_` and 24 random hex digits). */
export const newExternalWithdrawalId = (): string => `wd_${randomBytes(12).toString('hex')}`;

export const PAYOUT_METHOD_ID_PATTERN = /^pom_[0-9a-f]{32}$/;
export const WITHDRAWAL_ID_PATTERN = /^po_[0-9a-f]{32}$/;
export const isPayoutMethodId = (id: string): boolean => PAYOUT_METHOD_ID_PATTERN.test(id);
export const isWithdrawalId = (id: string): boolean => WITHDRAWAL_ID_PATTERN.test(id);

/** An account number as given, without the spaces and dashes people write in it, uppercased. */
export const normalizeAccountNumber = (raw: string): string => raw.replace(/[\s-]/g, '').toUpperCase();

/** True when `n` (normalized) is an IBAN: two letters, two check digits, 11 to 30 letters or digits, mod 97 = 1. */
export function isValidIban(n: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(n)) return false;
  const rearranged = n.slice(4) + n.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** True when `n` (normalized) starts with two letters, so it is read as an IBAN. */
export const looksLikeIban = (n: string): boolean => /^[A-Z]{2}/.test(n);

/** A local account number (not an IBAN): 4 to 17 digits. */
export const isValidLocalAccountNumber = (n: string): boolean => /^[0-9]{4,17}$/.test(n);

/** A routing number, bank code or BIC: 3 to 20 letters or digits. */
export const ROUTING_NUMBER_PATTERN = /^[A-Z0-9]{3,20}$/;

/**
 * The account number's rules: an IBAN (two letters first) must pass its checksum and name the method's country;
 * any other number must be 4 to 17 digits and comes with a routing number. 400 `payout_method.invalid_account_number`
 * or `payout_method.routing_number_required` otherwise. Answers the normalized number.
 */
export function checkAccountNumber(input: { accountNumber: string; country: string; routingNumber?: string | null }): string {
  const n = normalizeAccountNumber(input.accountNumber);
  if (looksLikeIban(n)) {
    if (!isValidIban(n))
      throw new BadRequestError(
        'payout_method.invalid_account_number',
        'accountNumber: is not a valid IBAN (its length, characters or check digits are wrong).',
      );
    if (n.slice(0, 2) !== input.country) {
      throw new BadRequestError('payout_method.invalid_account_number', "accountNumber: the IBAN's country is not the payout method's country.");
    }
    return n;
  }
  if (!isValidLocalAccountNumber(n)) {
    throw new BadRequestError('payout_method.invalid_account_number', 'accountNumber: must be an IBAN or a local account number of 4 to 17 digits.');
  }
  if (!input.routingNumber) {
    throw new BadRequestError('payout_method.routing_number_required', "routingNumber: a local account number needs the bank's routing number.");
  }
  return n;
}

export const last4Of = (normalized: string): string => normalized.slice(-4);

// Withdrawals

export const withdrawalStatuses = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

/** The statuses each status may move to. */
export const withdrawalTransitions: Readonly<Record<WithdrawalStatus, readonly WithdrawalStatus[]>> = {
  pending: ['in_transit', 'failed', 'canceled'],
  in_transit: ['paid', 'failed', 'canceled'],
  paid: [],
  failed: [],
  canceled: [],
};

export const canMoveTo = (from: WithdrawalStatus, to: WithdrawalStatus): boolean => withdrawalTransitions[from].includes(to);
/** The statuses a withdrawal may be in to move to `to`. */
export const fromStatusesOf = (to: WithdrawalStatus): WithdrawalStatus[] => withdrawalStatuses.filter((s) => withdrawalTransitions[s].includes(to));

export interface Withdrawal {
  id: string;
  merchantId: string;
  payoutMethodId: string;
  /** The method's last four, kept with the withdrawal (the method may be removed later). */
  payoutMethodLast4: string;
  amountMinor: number;
  currency: string;
  status: WithdrawalStatus;
  /** The bank's reference, set when the withdrawal is sent (`in_transit`). */
  externalWithdrawalId: string | null;
  /** The Idempotency-Key it was requested with. */
  idempotencyKey: string;
  createdAt: string;
  updatedAt: string;
}

/** The smallest payout: one major unit of the currency (100 minor units of USD, 1 of JPY). */
export const minimumPayoutMinor = (exponent: number): number => 10 ** exponent;

/** The fingerprint of a payout request: the same key with another fingerprint is 422 `idempotency.key_reused`. */
export const payoutFingerprint = (r: { merchantId: string; payoutMethodId: string; amountMinor: number | null; currency: string }): string =>
  createHash('sha256')
    .update(JSON.stringify([r.merchantId, r.payoutMethodId, r.amountMinor, r.currency]))
    .digest('hex');
