/**
 * The sandbox processor: a processor inside the platform that behaves like a real one, for the sandbox
 * deployment. It keeps its own state in the table, apart from the platform's records:
 *
 * - its vault: one entry per vaulted card (`card_<24 alphanumerics>`), holding what the card will do when charged
 *   (its behaviour, e.g. `decline:insufficient_funds`), its brand, last four digits and expiry — never its number;
 * - its charges: one per idempotency key, written with a condition, so repeated or concurrent calls with one key
 *   make one charge and all answer its result. Charge ids are `pay_<24 alphanumerics>`.
 * - its refunds (./sandbox-refunds.ts): one per idempotency key in the same way (`re_<24 alphanumerics>`), never
 *   more in all than the charge (a running total per charge, updated with a condition in the refund's own
 *   transaction).
 *
 * What a card does is decided by the documented test numbers (`sandboxTestCards`); any other valid card succeeds.
 * An operator may change what a vaulted card does from then on (`setSandboxCardBehaviour`, behind the
 * `decline-instrument` command), and set it back. A card whose expiry has passed by the time of the charge is
 * declined `expired_card`. No latency is added.
 */
import { createHash } from 'node:crypto';
import { normalizeCardNumber, type CardBrand } from '../domain/card-data.ts';
import { alphanumericId } from './ids.ts';
import type { ChargeInput, ChargeResult, DeclineCode, Processor, VaultableCard } from './processor.ts';
import type { SandboxBehaviour, SandboxCard } from './sandbox-card.entity.ts';
import type { SandboxCharge } from './sandbox-charge.entity.ts';
import * as repo from './sandbox-processor.repository.ts';

export type { SandboxBehaviour, SandboxCard } from './sandbox-card.entity.ts';
export type { SandboxCharge } from './sandbox-charge.entity.ts';

/** The key a charge is stored under: the idempotency key's SHA-256, base64url (bounded length, no digit runs). */
export const keyHash = (idempotencyKey: string): string => createHash('sha256').update(idempotencyKey).digest('base64url');

export interface SandboxTestCard {
  /** As people type it (groups of digits). */
  number: string;
  brand: CardBrand;
  behaviour: SandboxBehaviour;
  description: string;
}

/**
 * The documented test cards; any other valid card number succeeds. Every card attaches: tokenizing vaults the card
 * and attaching it to a customer charges nothing, so what a card does shows at its charges only. The decline cards
 * therefore attach too; `4000 0000 0000 0341` (Stripe's number for a card that attaches and then declines every
 * charge) behaves like `4000 0000 0000 0002` here, and is the one documented for a saved card that declines later
 * (a renewal decline after a first charge made with another card).
 */
export const sandboxTestCards: readonly SandboxTestCard[] = [
  { number: '4242 4242 4242 4242', brand: 'visa', behaviour: 'succeed', description: 'Succeeds' },
  { number: '4000 0000 0000 0002', brand: 'visa', behaviour: 'decline:generic_decline', description: 'Declined: generic decline' },
  {
    number: '4000 0000 0000 0341',
    brand: 'visa',
    behaviour: 'decline:generic_decline',
    description: 'Attaches, then declines every charge: generic decline',
  },
  { number: '4000 0000 0000 9995', brand: 'visa', behaviour: 'decline:insufficient_funds', description: 'Declined: insufficient funds' },
  { number: '4000 0000 0000 0069', brand: 'visa', behaviour: 'decline:expired_card', description: 'Declined: expired card' },
  { number: '4000 0000 0000 0119', brand: 'visa', behaviour: 'error:processing_error', description: 'Fails: processing error' },
  { number: '5555 5555 5555 4444', brand: 'mastercard', behaviour: 'succeed', description: 'Succeeds (Mastercard)' },
  { number: '3782 822463 10005', brand: 'american-express', behaviour: 'succeed', description: 'Succeeds (American Express, 4-digit CVC)' },
  { number: '6011 1111 1111 1117', brand: 'discover', behaviour: 'succeed', description: 'Succeeds (Discover)' },
];

const behaviourByNumber = new Map(sandboxTestCards.map((c) => [normalizeCardNumber(c.number), c.behaviour]));

/** The behaviour of a card number: the test card's, or `succeed`. */
export const sandboxBehaviourOf = (number: string): SandboxBehaviour => behaviourByNumber.get(normalizeCardNumber(number)) ?? 'succeed';

const declineMessages: Record<DeclineCode, string> = {
  generic_decline: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
};

/** Card brands the sandbox processor accepts. */
export const sandboxCardBrands: readonly CardBrand[] = ['visa', 'mastercard', 'american-express', 'discover', 'diners-club', 'jcb', 'unionpay', 'maestro'];

export const upstreamId = (prefix: string): string => alphanumericId(prefix, 24);

/** Charge ids of the sandbox processor. */
export const SANDBOX_CHARGE_ID = /^pay_[A-Za-z0-9]{24}$/;
/** Card references of the sandbox processor's vault. */
export const SANDBOX_CARD_REFERENCE = /^card_[A-Za-z0-9]{24}$/;

async function vaultCard(card: VaultableCard): Promise<{ reference: string }> {
  const entry: SandboxCard = {
    reference: upstreamId('card'),
    behaviour: sandboxBehaviourOf(card.number),
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    createdAt: new Date().toISOString(),
  };
  await repo.putSandboxCard(entry);
  return { reference: entry.reference };
}

/** The vault entry of `reference`, or null. */
export async function getSandboxCard(reference: string): Promise<SandboxCard | null> {
  if (!SANDBOX_CARD_REFERENCE.test(reference)) return null;
  return repo.getSandboxCardEntry(reference);
}

/**
 * Changes what charges of the vaulted card `reference` do from now on: `behaviour`, or with `'vaulted'` what the
 * card did when it was vaulted (its number's behaviour, kept in `vaultedBehaviour` while another is set). One
 * Update, conditional on the card being in the vault: null when it is not. Charges already made keep their result
 * (a retry under one of their keys answers it); setting a behaviour twice, or restoring twice, changes nothing more.
 */
export async function setSandboxCardBehaviour(reference: string, behaviour: SandboxBehaviour | 'vaulted'): Promise<SandboxCard | null> {
  if (!SANDBOX_CARD_REFERENCE.test(reference)) return null;
  return repo.updateSandboxCardBehaviour(reference, behaviour);
}

const failure = (errorCode: string, errorMessage: string): ChargeResult => ({ outcome: 'error', externalTransactionId: null, errorCode, errorMessage });

/** What charging `card` gives at `now` (a card that expired since it was vaulted is declined). */
function decide(card: SandboxCard, id: string, now: Date): ChargeResult {
  const expired = Date.UTC(card.expYear, card.expMonth, 1) <= now.getTime();
  const behaviour: SandboxBehaviour = expired ? 'decline:expired_card' : card.behaviour;
  if (behaviour === 'succeed') return { outcome: 'succeeded', externalTransactionId: id };
  if (behaviour === 'error:processing_error') {
    return {
      outcome: 'error',
      externalTransactionId: id,
      errorCode: 'processing_error',
      errorMessage: 'The processor could not process the card. Nothing was charged; try again later.',
    };
  }
  const declineCode = behaviour.slice('decline:'.length) as DeclineCode;
  return { outcome: 'declined', externalTransactionId: id, declineCode, declineMessage: declineMessages[declineCode] };
}

/** What a charge or a refund with a bad amount or key is told. */
export const INVALID_AMOUNT = 'The amount must be a positive whole number of minor units.';
export const INVALID_KEY = 'The idempotency key must be 1 to 255 characters.';

/**
 * One charge per idempotency key: the charge is written with `attribute_not_exists(pk)`; a call that finds the
 * key taken answers the stored result (or `idempotency_key_reused` when the key was used for another card,
 * amount or currency). Bad requests (unknown card, amount not a positive integer, currency not three capitals)
 * are answered without recording anything.
 */
async function charge(input: ChargeInput): Promise<ChargeResult> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) return failure('invalid_amount', INVALID_AMOUNT);
  if (!/^[A-Z]{3}$/.test(input.currency)) return failure('invalid_currency', 'The currency must be an ISO 4217 code.');
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) return failure('invalid_idempotency_key', INVALID_KEY);
  const card = await getSandboxCard(input.reference);
  if (!card) return failure('unknown_card', 'The processor has no card with this reference.');

  const now = new Date();
  const id = upstreamId('pay');
  const record: SandboxCharge = {
    id,
    keyHash: keyHash(input.idempotencyKey),
    reference: input.reference,
    amountMinor: input.amountMinor,
    currency: input.currency,
    description: input.description ?? null,
    result: decide(card, id, now),
    createdAt: now.toISOString(),
  };
  const first = await repo.putSandboxCharge(record);
  if (!first) return record.result;
  if (first.reference !== input.reference || first.amountMinor !== input.amountMinor || first.currency !== input.currency) {
    return failure('idempotency_key_reused', 'This idempotency key was used for a different charge.');
  }
  return first.result;
}

/** Every charge the sandbox processor made on the card `reference`, oldest first (for tests and support). */
export async function sandboxChargesOf(reference: string): Promise<SandboxCharge[]> {
  return repo.listSandboxCharges(reference);
}

/** The sandbox processor takes cards only. */
export const sandboxProcessor: Processor = {
  name: 'sandbox',
  acceptedBrands: sandboxCardBrands,
  paymentMethods: ['payment-card'],
  vaultCard,
  charge,
  findCharge: async (idempotencyKey) => (await repo.getSandboxCharge(keyHash(idempotencyKey)))?.result ?? null,
};
