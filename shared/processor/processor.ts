/**
 * The processor port: every card the platform tokenizes is vaulted at a processor, and every charge goes
 * through one. The processor keeps the card; the platform keeps its reference, the brand, the last four digits,
 * the expiry and a keyed fingerprint.
 *
 * This file is the port alone. Adapters: the sandbox processor (shared/processor/sandbox-processor.ts), which runs
 * inside the platform and behaves like a real one (its own ids, decline reasons, idempotent charges). Which adapter a
 * deployment uses is the registry's (shared/processor/registry.ts).
 */
import type { CardBrand, CardInput } from '../domain/card-data.ts';
import type { PaymentMethod } from '../domain/payment-methods.ts';

/** A card handed to a processor's vault: the raw data plus what validation found. */
export type VaultableCard = CardInput & { brand: CardBrand; last4: string };

export interface ChargeInput {
  /** The processor's reference of the vaulted card. */
  reference: string;
  /** Positive integer amount in the currency's minor units. */
  amountMinor: number;
  /** ISO 4217 code. */
  currency: string;
  /**
   * The processor runs one charge per key: a repeated (or concurrent) call with the same key answers the first
   * call's result. Callers make it unique per intended charge (e.g. scoped by organization and transaction).
   */
  idempotencyKey: string;
  description?: string;
}

/** Why a charge was declined (the card's issuer said no). */
export type DeclineCode = 'generic_decline' | 'insufficient_funds' | 'expired_card';

/**
 * What the processor answered: the charge succeeded; it was declined (a decline code the buyer can act on);
 * or it failed (the processor could not process it, or the request was wrong — nothing was charged).
 */
export type ChargeResult =
  | { outcome: 'succeeded'; externalTransactionId: string }
  | { outcome: 'declined'; externalTransactionId: string; declineCode: DeclineCode; declineMessage: string }
  | { outcome: 'error'; externalTransactionId: string | null; errorCode: string; errorMessage: string };

export interface Processor {
  /** Short name, e.g. `sandbox`. */
  readonly name: string;
  /** The card brands it vaults and charges (a card of another brand is refused before it is sent). */
  readonly acceptedBrands: readonly CardBrand[];
  /** The payment methods it takes (values of `PaymentMethodEnum`). */
  readonly paymentMethods: readonly PaymentMethod[];
  /** Keeps the card at the processor and answers its reference (the raw data goes nowhere else). */
  vaultCard(card: VaultableCard): Promise<{ reference: string }>;
  /** Authorizes and captures `amountMinor` on the vaulted card, at most once per `idempotencyKey`. */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * The processor's own record of the charge made under `idempotencyKey` (its result), or null when it has none:
   * what the reconciler settles a charge from when the platform did not record the answer.
   */
  findCharge(idempotencyKey: string): Promise<ChargeResult | null>;
}

/**
 * The same processor's refunds, a port of their own (`refundProcessorFor`): a function that charges carries none of
 * their code, one that refunds none of the vault's.
 */
export interface RefundProcessor {
  /** Gives back `amountMinor` of a captured charge, at most once per `idempotencyKey`. */
  refund(input: RefundInput): Promise<RefundResult>;
  /** The processor's own record of the refund made under `idempotencyKey`, or null when it has none. */
  findRefund(idempotencyKey: string): Promise<RefundResult | null>;
}

export interface RefundInput {
  /** The processor's id of the charge (`pay_…`). */
  externalTransactionId: string;
  /** Positive integer amount in the currency's minor units; the charge's refunds never add up to more than it. */
  amountMinor: number;
  /** ISO 4217 code: the charge's. */
  currency: string;
  /** One refund per key: a repeated (or concurrent) call with the same key answers the first call's result. */
  idempotencyKey: string;
}

/**
 * What the processor answered a refund: made (its id `re_…`), or failed (nothing was given back: an unknown
 * charge, more than the charge has left, another currency, or a key used for another refund).
 */
export type RefundResult =
  | { outcome: 'succeeded'; externalRefundId: string }
  | { outcome: 'failed'; externalRefundId: string | null; errorCode: string; errorMessage: string };
