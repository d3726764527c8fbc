import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  canMoveDispute,
  deadlineOf,
  disputeStatuses,
  disputeTransitions,
  initialDisputeStatuses,
  isDisputeId,
  isFinalDisputeStatus,
  LAST_POSTED_AT,
  outcomeOf,
} from '../../../shared/payments/disputes.rules.ts';
import {
  balanceDelta,
  disputeLostJournal,
  disputeOpenedJournal,
  disputeWonJournal,
  isBalanced,
  refundJournal,
  taxInDisputed,
} from '../../../shared/money/ledger.rules.ts';
import { eventPayloadSchemas } from '../../../shared/platform/events/catalog.ts';
import { createDisputeRequest } from '../../../shared/payments/disputes.schemas.ts';

describe('dispute statuses', () => {
  it('never moves a won, lost or forfeited dispute, and nothing moves back to unknown', () => {
    for (const final of ['won', 'lost', 'forfeited'] as const) {
      expect(isFinalDisputeStatus(final)).toBe(true);
      for (const to of disputeStatuses) expect(canMoveDispute(final, to)).toBe(false);
    }
    for (const from of disputeStatuses) expect(canMoveDispute(from, 'unknown')).toBe(false);
    for (const from of disputeStatuses) expect(canMoveDispute(from, from)).toBe(false);
  });

  it('moves an open dispute through review to a decision', () => {
    expect(canMoveDispute('response-needed', 'under-review')).toBe(true);
    expect(canMoveDispute('under-review', 'won')).toBe(true);
    expect(canMoveDispute('under-review', 'lost')).toBe(true);
    expect(canMoveDispute('response-needed', 'forfeited')).toBe(true);
    expect(canMoveDispute('under-review', 'forfeited')).toBe(false);
    expect(Object.keys(disputeTransitions).sort()).toEqual([...disputeStatuses].sort());
  });

  it('writes dispute.won for won, dispute.lost for lost and forfeited, dispute.updated otherwise', () => {
    expect(outcomeOf('won')).toEqual({ event: 'dispute.won', journal: 'dispute_won' });
    expect(outcomeOf('lost')).toEqual({ event: 'dispute.lost', journal: 'dispute_lost' });
    expect(outcomeOf('forfeited')).toEqual({ event: 'dispute.updated', journal: 'dispute_lost' });
    expect(outcomeOf('under-review')).toEqual({ event: 'dispute.updated', journal: null });
    expect(outcomeOf('response-needed')).toEqual({ event: 'dispute.updated', journal: null });
  });

  it('accepts ids of 1 to 64 letters, digits, underscores and hyphens', () => {
    expect(isDisputeId('a')).toBe(true);
    expect(isDisputeId('x'.repeat(64))).toBe(true);
    expect(isDisputeId('x'.repeat(65))).toBe(false);
    expect(isDisputeId('')).toBe(false);
    expect(isDisputeId('dp/1')).toBe(false);
    expect(isDisputeId('dp.1')).toBe(false);
  });

  it('gives the merchant seven days from posting to answer', () => {
    expect(deadlineOf('2026-03-01T12:00:00.000Z')).toBe('2026-03-08T12:00:00.000Z');
  });
});

describe('dispute create body', () => {
  const base = { transactionId: 't'.repeat(50), currency: 'USD', amount: 10 };
  it('takes a transactionId of 50 characters and refuses 51', () => {
    expect(v.safeParse(createDisputeRequest, base).success).toBe(true);
    expect(v.safeParse(createDisputeRequest, { ...base, transactionId: 't'.repeat(51) }).success).toBe(false);
  });
  it("takes only the initial statuses and the spec's categories", () => {
    for (const status of initialDisputeStatuses) expect(v.safeParse(createDisputeRequest, { ...base, status }).success).toBe(true);
    for (const status of ['won', 'lost', 'forfeited', 'open']) expect(v.safeParse(createDisputeRequest, { ...base, status }).success).toBe(false);
    expect(v.safeParse(createDisputeRequest, { ...base, type: 'consumer-disputes' }).success).toBe(true);
    expect(v.safeParse(createDisputeRequest, { ...base, type: 'friendly' }).success).toBe(false);
  });
  it('takes a postedAt whose deadline is still of year 9999, and refuses one after', () => {
    expect(v.safeParse(createDisputeRequest, { ...base, postedAt: '9999-12-24T23:59:59.999Z' }).success).toBe(true);
    const late = v.safeParse(createDisputeRequest, { ...base, postedAt: '9999-12-25T00:00:00.000Z' });
    expect(late.success).toBe(false);
    expect(late.issues?.[0]?.message).toBe('must be on or before 9999-12-24');
    expect(deadlineOf(LAST_POSTED_AT)).toBe('9999-12-31T23:59:59.999Z');
    // An offset that carries the time into another year of UTC is no way round it.
    for (const postedAt of ['9999-12-31T23:00:00-23:00', '9999-12-24T23:30:00-01:00', '0000-01-01T00:30:00+01:00']) {
      expect(v.safeParse(createDisputeRequest, { ...base, postedAt }).success, postedAt).toBe(false);
    }
  });
  it('refuses amounts of zero and more decimals than the currency has', () => {
    expect(v.safeParse(createDisputeRequest, { ...base, amount: 0 }).success).toBe(false);
    expect(v.safeParse(createDisputeRequest, { ...base, currency: 'JPY', amount: 1.5 }).success).toBe(false);
  });
});

describe('dispute journals', () => {
  const m = 'm1';
  it('reserves from available and owes the shortfall, then releases or takes out the reserve', () => {
    const opened = disputeOpenedJournal({ merchantId: m, disputeId: 'o/d', currency: 'USD', amountMinor: 1_000, taxMinor: 0, available: 400, at: 'now' });
    expect(isBalanced(opened.entries)).toBe(true);
    expect(balanceDelta(m, opened.entries)).toMatchObject({ available: -400, owed: 600, reserved: 1_000 });
    const won = disputeWonJournal({ merchantId: m, disputeId: 'o/d', currency: 'USD', amountMinor: 1_000, taxMinor: 0, owed: 600, at: 'now' });
    expect(balanceDelta(m, won.entries)).toMatchObject({ available: 400, owed: -600, reserved: -1_000 });
    const lost = disputeLostJournal({ merchantId: m, disputeId: 'o/d', currency: 'USD', amountMinor: 1_000, taxMinor: 0, at: 'now' });
    expect(isBalanced(lost.entries)).toBe(true);
    expect(balanceDelta(m, lost.entries)).toMatchObject({ reserved: -1_000, available: 0 });
  });
  it('holds from the merchant only the amount less its tax, and gives the tax back when lost, as a refund does', () => {
    // A payment of 119.00 with 19.00 of tax, disputed in full: the merchant never had the tax, so it is not held from them.
    const d = { merchantId: m, disputeId: 'o/d', currency: 'EUR', amountMinor: 11_900, taxMinor: taxInDisputed(11_900, 1_900, 11_900), at: 'now' };
    expect(d.taxMinor).toBe(1_900);
    const opened = disputeOpenedJournal({ ...d, available: 20_000 });
    expect(balanceDelta(m, opened.entries)).toMatchObject({ available: -10_000, reserved: 10_000, owed: 0 });
    const won = disputeWonJournal({ ...d, owed: 0 });
    expect(balanceDelta(m, won.entries)).toMatchObject({ available: 10_000, reserved: -10_000 });
    const lost = disputeLostJournal(d);
    expect(isBalanced(lost.entries)).toBe(true);
    expect(lost.entries).toEqual([
      { account: `merchant:${m}:reserved`, amount: 10_000 },
      { account: 'platform:tax', amount: 1_900 },
      { account: 'platform:cash', amount: -11_900 },
    ]);
    // Disputed after a refund of the first 59.50: the rest's tax is what the refund left (9.50).
    const refundBack = refundJournal({
      merchantId: m,
      refundId: 'r',
      currency: 'EUR',
      grossMinor: 11_900,
      taxMinor: 1_900,
      refundedBeforeMinor: 0,
      refundMinor: 5_950,
      available: 0,
      at: 'now',
    });
    const refundTax = refundBack.entries.find((e) => e.account === 'platform:tax')!.amount;
    expect(refundTax + taxInDisputed(11_900, 1_900, 5_950)).toBe(1_900);
  });
});

describe('dispute event payloads', () => {
  it("carry the spec's statuses in dispute.updated", () => {
    const body = { disputeId: 'd', externalDisputeId: null, amount: 1, currency: 'usd', reason: 'general' };
    expect(v.safeParse(eventPayloadSchemas['dispute.updated'], { ...body, status: 'under-review' }).success).toBe(true);
    expect(v.safeParse(eventPayloadSchemas['dispute.updated'], { ...body, status: 'won' }).success).toBe(false);
  });
});
