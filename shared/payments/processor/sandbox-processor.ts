/**
 * The sandbox processor: a processor inside the platform that behaves like a real one, for the sandbox
 * deployment. It keeps its own state in the table, apart from the platform's records:
 *
 * - its vault: one entry per vaulted card (`card_<24 alphanumerics>`), holding what the card will do when charged
 *   (its behaviour, e.g. `decline:insufficient_funds`), its brand, last four digits and expiry — never its number;
 * - its charges: one per idempotency key, written with a condition, so repeated or concurrent calls with one key
 *   make one charge and all answer its result. Charge ids are `pay_<24 alphanumerics>`.
 * - its refunds: one per idempotency key in the same way (`re_<24 alphanumerics>`), never more in all than the
 *   charge (a running total per charge, updated with a condition in the refund's own transaction).
 *
 * What a card does is decided by the documented test numbers (`sandboxTestCards`); any other valid card succeeds.
 * An operator may change what a vaulted card does from then on (`setSandboxCardBehaviour`, behind the
 * `decline-instrument` command), and set it back. A card whose expiry has passed by the time of the charge is
 * declined `expired_card`. No latency is added.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  cancellationReasons,
  db,
  failedParts,
  isConditionFailed,
  type NamedParts,
  partItems,
  partReasons,
  tableName,
  transactWrite,
} from '../../platform/db/client.ts';
import * as keys from '../../platform/db/keys.ts';
import type { TransactItem } from '../../platform/db/types.ts';
import { normalizeCardNumber, type CardBrand } from '../../domain/card-data.ts';
import { alphanumericId } from './ids.ts';
import type { ChargeInput, ChargeResult, DeclineCode, Processor, RefundInput, RefundResult, VaultableCard } from './processor.ts';

/** The key a charge is stored under: the idempotency key's SHA-256, base64url (bounded length, no digit runs). */
const keyHash = (idempotencyKey: string): string => createHash('sha256').update(idempotencyKey).digest('base64url');

/** What a vaulted card does when charged. */
export type SandboxBehaviour = 'succeed' | `decline:${DeclineCode}` | 'error:processing_error';

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

const upstreamId = (prefix: string): string => alphanumericId(prefix, 24);

/** Charge ids of the sandbox processor. */
export const SANDBOX_CHARGE_ID = /^pay_[A-Za-z0-9]{24}$/;
/** Card references of the sandbox processor's vault. */
export const SANDBOX_CARD_REFERENCE = /^card_[A-Za-z0-9]{24}$/;

/** A vault entry. */
export interface SandboxCard {
  reference: string;
  /** What a charge of the card does now. */
  behaviour: SandboxBehaviour;
  /** While an operator has changed `behaviour`: what the card did when it was vaulted (absent otherwise). */
  vaultedBehaviour?: SandboxBehaviour;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}

/** A charge as the sandbox processor recorded it. */
export interface SandboxCharge {
  id: string;
  reference: string;
  amountMinor: number;
  currency: string;
  description: string | null;
  result: ChargeResult;
  createdAt: string;
}

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
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.sandboxCard(entry.reference), entity: 'sandboxCard', ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { reference: entry.reference };
}

/** The vault entry of `reference`, or null. */
export async function getSandboxCard(reference: string): Promise<SandboxCard | null> {
  if (!SANDBOX_CARD_REFERENCE.test(reference)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.sandboxCard(reference), ConsistentRead: true }));
  if (!Item) return null;
  const { pk: _pk, sk: _sk, entity: _entity, ...card } = Item;
  return card as SandboxCard;
}

/**
 * Changes what charges of the vaulted card `reference` do from now on: `behaviour`, or with `'vaulted'` what the
 * card did when it was vaulted (its number's behaviour, kept in `vaultedBehaviour` while another is set). One
 * Update, conditional on the card being in the vault: null when it is not. Charges already made keep their result
 * (a retry under one of their keys answers it); setting a behaviour twice, or restoring twice, changes nothing more.
 */
export async function setSandboxCardBehaviour(reference: string, behaviour: SandboxBehaviour | 'vaulted'): Promise<SandboxCard | null> {
  if (!SANDBOX_CARD_REFERENCE.test(reference)) return null;
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.sandboxCard(reference),
        ...(behaviour === 'vaulted'
          ? { UpdateExpression: 'SET #behaviour = if_not_exists(#vaulted, #behaviour) REMOVE #vaulted' }
          : {
              UpdateExpression: 'SET #behaviour = :behaviour, #vaulted = if_not_exists(#vaulted, #behaviour)',
              ExpressionAttributeValues: { ':behaviour': behaviour },
            }),
        ExpressionAttributeNames: { '#behaviour': 'behaviour', '#vaulted': 'vaultedBehaviour' },
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    const { pk: _pk, sk: _sk, entity: _entity, ...card } = Attributes ?? {};
    return card as SandboxCard;
  } catch (e) {
    if (isConditionFailed(e)) return null;
    throw e;
  }
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

/**
 * One charge per idempotency key: the charge is written with `attribute_not_exists(pk)`; a call that finds the
 * key taken answers the stored result (or `idempotency_key_reused` when the key was used for another card,
 * amount or currency). Bad requests (unknown card, amount not a positive integer, currency not three capitals)
 * are answered without recording anything.
 */
async function charge(input: ChargeInput): Promise<ChargeResult> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
    return failure('invalid_amount', 'The amount must be a positive whole number of minor units.');
  if (!/^[A-Z]{3}$/.test(input.currency)) return failure('invalid_currency', 'The currency must be an ISO 4217 code.');
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) return failure('invalid_idempotency_key', 'The idempotency key must be 1 to 255 characters.');
  const card = await getSandboxCard(input.reference);
  if (!card) return failure('unknown_card', 'The processor has no card with this reference.');

  const now = new Date();
  const id = upstreamId('pay');
  const record: SandboxCharge = {
    id,
    reference: input.reference,
    amountMinor: input.amountMinor,
    currency: input.currency,
    description: input.description ?? null,
    result: decide(card, id, now),
    createdAt: now.toISOString(),
  };
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.sandboxCharge(keyHash(input.idempotencyKey)),
          ...keys.sandboxChargeListing(input.reference, record.createdAt, id),
          ...keys.sandboxChargeById(id),
          entity: 'sandboxCharge',
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return record.result;
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    const raw = (e as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    const first = raw ? (unmarshall(raw) as unknown as SandboxCharge) : await chargeUnderKey(input.idempotencyKey);
    if (!first) throw e;
    if (first.reference !== input.reference || first.amountMinor !== input.amountMinor || first.currency !== input.currency) {
      return failure('idempotency_key_reused', 'This idempotency key was used for a different charge.');
    }
    return first.result;
  }
}

async function chargeUnderKey(idempotencyKey: string): Promise<SandboxCharge | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.sandboxCharge(keyHash(idempotencyKey)), ConsistentRead: true }));
  return (Item as SandboxCharge | undefined) ?? null;
}

/** Every charge the sandbox processor made on the card `reference`, oldest first (for tests and support). */
export async function sandboxChargesOf(reference: string): Promise<SandboxCharge[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.sandboxChargesOf(reference).gsi1pk },
    }),
  );
  return (Items ?? []).map(
    (i) =>
      ({
        id: i.id,
        reference: i.reference,
        amountMinor: i.amountMinor,
        currency: i.currency,
        description: i.description ?? null,
        result: i.result,
        createdAt: i.createdAt,
      }) as SandboxCharge,
  );
}

// Refunds

/** A refund as the sandbox processor recorded it (one per idempotency key, failed ones too). */
export interface SandboxRefund {
  id: string;
  chargeId: string;
  amountMinor: number;
  currency: string;
  result: RefundResult;
  createdAt: string;
}

/** The charge `chargeId` (through its id index), or null. */
async function chargeById(chargeId: string): Promise<SandboxCharge | null> {
  if (!SANDBOX_CHARGE_ID.test(chargeId)) return null;
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.sandboxChargeById(chargeId).gsi2pk },
    }),
  );
  const i = Items?.[0];
  return i
    ? ({
        id: i.id,
        reference: i.reference,
        amountMinor: i.amountMinor,
        currency: i.currency,
        description: i.description ?? null,
        result: i.result,
        createdAt: i.createdAt,
      } as SandboxCharge)
    : null;
}

const refundFailure = (errorCode: string, errorMessage: string): RefundResult => ({ outcome: 'failed', externalRefundId: null, errorCode, errorMessage });

/** Adds `refundMinor` to the refunded total of the charge `chargeId` (of `chargedMinor`), on the condition that it stays within the charge. */
const takeFromCharge = (chargeId: string, chargedMinor: number, refundMinor: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.sandboxChargeRefunds(chargeId),
    UpdateExpression: 'SET entity = :entity, amountMinor = :charged ADD refundedMinor :r',
    ConditionExpression: 'attribute_not_exists(refundedMinor) OR refundedMinor <= :maxBefore',
    ExpressionAttributeValues: {
      ':entity': 'sandboxChargeRefunds',
      ':charged': chargedMinor,
      ':r': refundMinor,
      ':maxBefore': chargedMinor - refundMinor,
    },
  },
});

/**
 * One refund per idempotency key, like charges. A refund of a succeeded charge in its currency is made when the
 * charge's refunds stay within its amount: the refund record (`attribute_not_exists`) and the charge's refunded
 * total (conditional on leaving room for this one) are written in one transaction, so concurrent refunds never
 * give back more than was charged. A refused refund is recorded under its key too, so a retry answers the same.
 */
async function refund(input: RefundInput): Promise<RefundResult> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
    return refundFailure('invalid_amount', 'The amount must be a positive whole number of minor units.');
  if (!input.idempotencyKey || input.idempotencyKey.length > 255)
    return refundFailure('invalid_idempotency_key', 'The idempotency key must be 1 to 255 characters.');
  const hash = keyHash(input.idempotencyKey);
  const earlier = await refundUnderKey(hash);
  if (earlier) return sameRefund(earlier, input);

  const charge = await chargeById(input.externalTransactionId);
  const now = new Date().toISOString();
  const id = upstreamId('re');
  let result: RefundResult = { outcome: 'succeeded', externalRefundId: id };
  if (charge?.result.outcome !== 'succeeded') result = refundFailure('unknown_charge', 'The processor has no succeeded charge with this id.');
  else if (charge.currency !== input.currency) result = refundFailure('currency_mismatch', 'A refund is made in the currency of its charge.');
  else if (input.amountMinor > charge.amountMinor) result = refundFailure('amount_too_large', 'The refund is more than the charge.');
  const record: SandboxRefund = { id, chargeId: input.externalTransactionId, amountMinor: input.amountMinor, currency: input.currency, result, createdAt: now };
  const put = {
    Put: { TableName: tableName(), Item: { ...keys.sandboxRefund(hash), entity: 'sandboxRefund', ...record }, ConditionExpression: 'attribute_not_exists(pk)' },
  };
  // A succeeded refund is written with what it takes from the charge.
  const parts: NamedParts<'refund' | 'charge'> | null =
    result.outcome === 'succeeded'
      ? [
          ['refund', [put]],
          ['charge', [takeFromCharge(input.externalTransactionId, charge!.amountMinor, input.amountMinor)]],
        ]
      : null;
  try {
    if (parts) await transactWrite(partItems(parts), 10);
    else await db.send(new PutCommand(put.Put));
    return result;
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (!reasons && !isConditionFailed(e)) throw e;
    if (
      reasons &&
      parts &&
      partReasons(reasons, parts)
        .get('refund')
        ?.every((r) => r === 'None') &&
      failedParts(reasons, parts)?.has('charge')
    ) {
      // What is left of the charge is less than this refund: record the refusal under the key.
      const refused: SandboxRefund = { ...record, result: refundFailure('amount_too_large', 'The refund is more than what is left of the charge.') };
      try {
        await db.send(new PutCommand({ ...put.Put, Item: { ...keys.sandboxRefund(hash), entity: 'sandboxRefund', ...refused } }));
        return refused.result;
      } catch (again) {
        if (!isConditionFailed(again)) throw again;
      }
    }
    const first = await refundUnderKey(hash);
    if (!first) throw e;
    return sameRefund(first, input);
  }
}

/** How much of the charge `chargeId` the sandbox processor's refunds gave back, in minor units (for tests and support). */
export async function sandboxRefundedMinor(chargeId: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.sandboxChargeRefunds(chargeId), ConsistentRead: true }));
  return Number(Item?.refundedMinor ?? 0);
}

async function refundUnderKey(hash: string): Promise<SandboxRefund | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.sandboxRefund(hash), ConsistentRead: true }));
  return (Item as SandboxRefund | undefined) ?? null;
}

/** The answer of a key seen before: its result, or `idempotency_key_reused` for another charge, amount or currency. */
function sameRefund(first: SandboxRefund, input: RefundInput): RefundResult {
  if (first.chargeId !== input.externalTransactionId || first.amountMinor !== input.amountMinor || first.currency !== input.currency) {
    return refundFailure('idempotency_key_reused', 'This idempotency key was used for a different refund.');
  }
  return first.result;
}

/** The sandbox processor takes cards only. */
export const sandboxProcessor: Processor = {
  name: 'sandbox',
  acceptedBrands: sandboxCardBrands,
  paymentMethods: ['payment-card'],
  vaultCard,
  charge,
  refund,
  findCharge: async (idempotencyKey) => (await chargeUnderKey(idempotencyKey))?.result ?? null,
  findRefund: async (idempotencyKey) => (await refundUnderKey(keyHash(idempotencyKey)))?.result ?? null,
};
