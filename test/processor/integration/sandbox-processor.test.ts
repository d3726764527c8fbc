/**
 * The processor port and the sandbox processor against DynamoDB Local: vaulting keeps behaviour not numbers,
 * outcomes follow the documented test cards, charges are idempotent under races, and live refuses.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as sandboxCardKeys from '../../../shared/processor/sandbox-card.entity.ts';
import { normalizeCardNumber, validateCard } from '../../../shared/customers/cards.rules.ts';
import { DomainError } from '../../../shared/domain/errors.ts';
import type { ChargeResult } from '../../../shared/processor/processor.ts';
import { processorFor, refundProcessorFor } from '../../../shared/processor/registry.ts';
import { sandboxRefundProcessor } from '../../../shared/processor/sandbox-refunds.ts';
import {
  SANDBOX_CARD_REFERENCE,
  SANDBOX_CHARGE_ID,
  getSandboxCard,
  sandboxChargesOf,
  sandboxProcessor,
  sandboxTestCards,
  setSandboxCardBehaviour,
} from '../../../shared/processor/sandbox-processor.ts';
import { nextYear } from '../../support/dates.ts';

async function vault(number: string, cvc = number.replace(/\D/g, '').startsWith('3') ? '1234' : '123', expYear = nextYear) {
  const card = { number, cvc, expMonth: 6, expYear };
  const valid = expYear > 2000 && expYear >= new Date().getUTCFullYear() ? validateCard(card) : { brand: 'visa' as const, last4: number.slice(-4) };
  return (await sandboxProcessor.vaultCard({ ...card, brand: valid.brand, last4: valid.last4 })).reference;
}

const charge = (reference: string, idempotencyKey = randomUUID(), amountMinor = 1999, currency = 'USD') =>
  sandboxProcessor.charge({ reference, amountMinor, currency, idempotencyKey, description: 'Order 1' });

const expected: Record<string, (r: ChargeResult) => void> = {
  succeed: (r) => expect(r).toEqual({ outcome: 'succeeded', externalTransactionId: expect.stringMatching(SANDBOX_CHARGE_ID) }),
  'decline:generic_decline': (r) =>
    expect(r).toEqual({
      outcome: 'declined',
      externalTransactionId: expect.stringMatching(SANDBOX_CHARGE_ID),
      declineCode: 'generic_decline',
      declineMessage: 'The card was declined.',
    }),
  'decline:insufficient_funds': (r) =>
    expect(r).toEqual({
      outcome: 'declined',
      externalTransactionId: expect.stringMatching(SANDBOX_CHARGE_ID),
      declineCode: 'insufficient_funds',
      declineMessage: 'The card has insufficient funds.',
    }),
  'decline:expired_card': (r) =>
    expect(r).toEqual({
      outcome: 'declined',
      externalTransactionId: expect.stringMatching(SANDBOX_CHARGE_ID),
      declineCode: 'expired_card',
      declineMessage: 'The card has expired.',
    }),
  'error:processing_error': (r) =>
    expect(r).toEqual({
      outcome: 'error',
      externalTransactionId: expect.stringMatching(SANDBOX_CHARGE_ID),
      errorCode: 'processing_error',
      errorMessage: expect.any(String),
    }),
};

describe('the sandbox processor', () => {
  // Test titles name the cards by what they do: the run's output is searched for card numbers too.
  it.each(sandboxTestCards.map((c) => [c.description, c.behaviour, c] as const))(
    'vaults the test card "%s" keeping its behaviour (%s), brand, last four and expiry, and never its number',
    async (_description, behaviour, card) => {
      const { number } = card;
      const reference = await vault(number);
      expect(reference).toMatch(SANDBOX_CARD_REFERENCE);
      expect(await getSandboxCard(reference)).toEqual({
        reference,
        behaviour,
        brand: card.brand,
        last4: normalizeCardNumber(number).slice(-4),
        expMonth: 6,
        expYear: nextYear,
        createdAt: expect.any(String),
      });
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: sandboxCardKeys.sandboxCard(reference) }));
      const stored = JSON.stringify(Item);
      expect(stored).not.toContain(normalizeCardNumber(number));
      expect(stored).not.toMatch(/"(cvc|cvv|number)"/);
    },
  );

  it.each(sandboxTestCards.map((c) => [c.description, c.behaviour, c.number] as const))(
    'charges the test card "%s" with the outcome %s',
    async (_d, behaviour, number) => {
      const reference = await vault(number);
      const result = await charge(reference);
      expected[behaviour]!(result);
      const charges = await sandboxChargesOf(reference);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({ reference, amountMinor: 1999, currency: 'USD', description: 'Order 1', result });
    },
  );

  it('lets any other valid card succeed', async () => {
    expected.succeed!(await charge(await vault('4111 1111 1111 1111')));
  });

  it('gives every charge its own pay_<24 alphanumerics> id', async () => {
    const reference = await vault('4242424242424242');
    const ids = await Promise.all(Array.from({ length: 5 }, () => charge(reference).then((r) => r.externalTransactionId)));
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(SANDBOX_CHARGE_ID);
  });

  it('makes one charge for ten racing calls with one idempotency key, and all of them answer it', async () => {
    const reference = await vault('4242424242424242');
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => charge(reference, key)));
    const charges = await sandboxChargesOf(reference);
    expect(charges).toHaveLength(1);
    for (const r of results) expect(r).toEqual(charges[0]!.result);
    expect(await charge(reference, key)).toEqual(charges[0]!.result);
  });

  it('replays a decline under its key as well, without a second charge', async () => {
    const reference = await vault('4000000000009995');
    const key = randomUUID();
    const first = await charge(reference, key);
    expect(await charge(reference, key)).toEqual(first);
    expect(await sandboxChargesOf(reference)).toHaveLength(1);
  });

  it('refuses a key reused for another amount, currency or card, and charges nothing more', async () => {
    const reference = await vault('4242424242424242');
    const other = await vault('5555555555554444');
    const key = randomUUID();
    await charge(reference, key, 1000);
    for (const again of [charge(reference, key, 2000), charge(reference, key, 1000, 'EUR'), charge(other, key, 1000)]) {
      expect(await again).toEqual({ outcome: 'error', externalTransactionId: null, errorCode: 'idempotency_key_reused', errorMessage: expect.any(String) });
    }
    expect(await sandboxChargesOf(reference)).toHaveLength(1);
    expect(await sandboxChargesOf(other)).toHaveLength(0);
  });

  it.each([
    ['an unknown card', 'card_AAAAAAAAAAAAAAAAAAAAAAAA', 1000, 'USD', 'unknown_card'],
    ['a malformed reference', 'nope', 1000, 'USD', 'unknown_card'],
    ['a zero amount', null, 0, 'USD', 'invalid_amount'],
    ['a fractional amount', null, 10.5, 'USD', 'invalid_amount'],
    ['a lowercase currency', null, 1000, 'usd', 'invalid_currency'],
  ])('answers %s with an error outcome and records no charge', async (_what, ref, amount, currency, errorCode) => {
    const reference = ref ?? (await vault('4242424242424242'));
    const result = await charge(reference, randomUUID(), amount as number, currency as string);
    expect(result).toEqual({ outcome: 'error', externalTransactionId: null, errorCode, errorMessage: expect.any(String) });
    expect(await sandboxChargesOf(reference)).toHaveLength(0);
  });

  it('vaults the card that attaches then declines, and declines every one of its charges (generic_decline)', async () => {
    const card = sandboxTestCards.find((c) => c.description.startsWith('Attaches, then declines'))!;
    expect(card).toMatchObject({ number: '4000 0000 0000 0341', brand: 'visa', behaviour: 'decline:generic_decline' });
    const reference = await vault(card.number);
    expect(await getSandboxCard(reference)).toMatchObject({ reference, behaviour: 'decline:generic_decline', last4: '0341' });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await charge(reference));
    for (const r of results) expected['decline:generic_decline']!(r);
    expect(new Set(results.map((r) => r.externalTransactionId)).size).toBe(3);
    expect(await sandboxChargesOf(reference)).toHaveLength(3);
  });

  it('changes what a vaulted card does from now on, keeps what it did when vaulted, and restores it', async () => {
    const reference = await vault('4242424242424242');
    const firstKey = randomUUID();
    const first = await charge(reference, firstKey);
    expected.succeed!(first);

    const declining = await setSandboxCardBehaviour(reference, 'decline:insufficient_funds');
    expect(declining).toMatchObject({ reference, behaviour: 'decline:insufficient_funds', vaultedBehaviour: 'succeed', last4: '4242' });
    expect(declining).not.toHaveProperty('pk');
    expect(await getSandboxCard(reference)).toEqual(declining);
    expected['decline:insufficient_funds']!(await charge(reference));
    // A charge already made keeps its result under its key.
    expect(await charge(reference, firstKey)).toEqual(first);

    // Another change keeps the behaviour the card was vaulted with.
    expect(await setSandboxCardBehaviour(reference, 'decline:expired_card')).toMatchObject({ behaviour: 'decline:expired_card', vaultedBehaviour: 'succeed' });
    expected['decline:expired_card']!(await charge(reference));

    const restored = await setSandboxCardBehaviour(reference, 'vaulted');
    expect(restored).toMatchObject({ reference, behaviour: 'succeed' });
    expect(restored).not.toHaveProperty('vaultedBehaviour');
    expected.succeed!(await charge(reference));
    // Restoring again changes nothing.
    expect(await setSandboxCardBehaviour(reference, 'vaulted')).toEqual(restored);
    expect(await getSandboxCard(reference)).toEqual(restored);
    expect((await sandboxChargesOf(reference)).map((c) => c.result.outcome)).toEqual(['succeeded', 'declined', 'declined', 'succeeded']);
  });

  it('restores a decline card to its own decline, not to success', async () => {
    const reference = await vault('4000000000009995');
    await setSandboxCardBehaviour(reference, 'succeed');
    expected.succeed!(await charge(reference));
    expect(await setSandboxCardBehaviour(reference, 'vaulted')).toMatchObject({ behaviour: 'decline:insufficient_funds' });
    expected['decline:insufficient_funds']!(await charge(reference));
  });

  it.each([
    ['an unknown card', 'card_AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed reference', 'nope'],
  ])('changes nothing for %s, and writes no vault entry', async (_what, reference) => {
    expect(await setSandboxCardBehaviour(reference, 'decline:generic_decline')).toBeNull();
    expect(await setSandboxCardBehaviour(reference, 'vaulted')).toBeNull();
    expect(await getSandboxCard(reference)).toBeNull();
  });

  it('declines a card whose expiry passed after it was vaulted as expired_card', async () => {
    const reference = await vault('4242424242424242', '123', 2020);
    expected['decline:expired_card']!(await charge(reference));
  });
});

describe('processorFor', () => {
  it('gives the sandbox deployment the sandbox processor, which takes cards', () => {
    const p = processorFor('sandbox');
    expect(p.name).toBe('sandbox');
    expect(p.paymentMethods).toEqual(['payment-card']);
    expect(p.acceptedBrands).toEqual(expect.arrayContaining(['visa', 'mastercard', 'american-express', 'discover']));
  });

  it('refuses on live, where no processor is configured, with 503 payments.processor_unavailable', () => {
    let error: unknown;
    try {
      processorFor('live', {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 503, code: 'payments.processor_unavailable' });
  });

  it('lets only a local live stack opt into the sandbox processor', () => {
    expect(processorFor('live', { LIVE_USES_SANDBOX_PROCESSOR: '1', MOR_LOCAL: '1' }).name).toBe('sandbox');
    expect(() => processorFor('live', { LIVE_USES_SANDBOX_PROCESSOR: '1' })).toThrow(/processor/i);
    expect(() => processorFor('live', { LIVE_USES_SANDBOX_PROCESSOR: '0', MOR_LOCAL: '1' })).toThrow(/processor/i);
  });

  it("gives the same deployments the sandbox processor's refunds, and refuses them alike where there is none", () => {
    expect(refundProcessorFor('sandbox')).toBe(sandboxRefundProcessor);
    expect(refundProcessorFor('live', { LIVE_USES_SANDBOX_PROCESSOR: '1', MOR_LOCAL: '1' })).toBe(sandboxRefundProcessor);
    for (const env of [{}, { LIVE_USES_SANDBOX_PROCESSOR: '1' }, { LIVE_USES_SANDBOX_PROCESSOR: '0', MOR_LOCAL: '1' }]) {
      expect(() => refundProcessorFor('live', env)).toThrow(expect.objectContaining({ status: 503, code: 'payments.processor_unavailable' }));
    }
  });
});
