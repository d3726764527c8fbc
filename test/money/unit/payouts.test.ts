/** The pure rules of payout methods and withdrawals, and the paid-out part of the ledger's balance change. */
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../shared/domain/errors.ts';
import { balancesOf, journalDelta, payoutFailedJournal, payoutPaidJournal, payoutRequestedJournal } from '../../../shared/money/ledger.rules.ts';
import {
  canMoveTo,
  checkAccountNumber,
  fromStatusesOf,
  isValidIban,
  last4Of,
  minimumPayoutMinor,
  normalizeAccountNumber,
  payoutFingerprint,
  withdrawalStatuses,
} from '../../../shared/money/payouts.rules.ts';
import { idempotencyKeyHeader } from '../../../shared/domain/idempotency.ts';
import { requestPayout } from '../../../shared/money/routes.ts';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof BadRequestError ? e.code : String(e);
  }
  return 'no error';
};

describe('account numbers', () => {
  it('accepts IBANs with right check digits, whatever the spacing and case', () => {
    for (const iban of ['DE89 3704 0044 0532 0130 00', 'gb29nwbk60161331926819', 'FR14-2004-1010-0505-0001-3M02-606', 'NO9386011117947']) {
      expect(isValidIban(normalizeAccountNumber(iban)), iban).toBe(true);
    }
  });

  it("refuses IBANs with a wrong check digit, a wrong length or another country than the method's", () => {
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE8937040044')).toBe(false);
    expect(isValidIban(`DE89${'1'.repeat(31)}`)).toBe(false);
    expect(codeOf(() => checkAccountNumber({ accountNumber: 'DE89370400440532013001', country: 'DE' }))).toBe('payout_method.invalid_account_number');
    expect(codeOf(() => checkAccountNumber({ accountNumber: 'DE89370400440532013000', country: 'AT' }))).toBe('payout_method.invalid_account_number');
  });

  it('takes a local number of 4 to 17 digits with a routing number only', () => {
    expect(checkAccountNumber({ accountNumber: '0001-2345-6789', country: 'US', routingNumber: '021000021' })).toBe('000123456789');
    expect(codeOf(() => checkAccountNumber({ accountNumber: '000123456789', country: 'US' }))).toBe('payout_method.routing_number_required');
    expect(codeOf(() => checkAccountNumber({ accountNumber: '123', country: 'US', routingNumber: '021000021' }))).toBe('payout_method.invalid_account_number');
    expect(codeOf(() => checkAccountNumber({ accountNumber: '1'.repeat(18), country: 'US', routingNumber: '021000021' }))).toBe(
      'payout_method.invalid_account_number',
    );
  });

  it('keeps the last four characters only', () => {
    expect(last4Of(normalizeAccountNumber('DE89 3704 0044 0532 0130 00'))).toBe('3000');
  });
});

describe('withdrawal statuses', () => {
  it('move pending → in_transit → paid, and to failed or canceled from pending or in_transit only', () => {
    expect(canMoveTo('pending', 'in_transit')).toBe(true);
    expect(canMoveTo('in_transit', 'paid')).toBe(true);
    expect(canMoveTo('pending', 'paid')).toBe(false);
    expect(fromStatusesOf('failed')).toEqual(['pending', 'in_transit']);
    expect(fromStatusesOf('canceled')).toEqual(['pending', 'in_transit']);
    for (const final of ['paid', 'failed', 'canceled'] as const) {
      for (const to of withdrawalStatuses) expect(canMoveTo(final, to), `${final} → ${to}`).toBe(false);
    }
  });

  it('need at least one major unit', () => {
    expect(minimumPayoutMinor(2)).toBe(100);
    expect(minimumPayoutMinor(0)).toBe(1);
    expect(minimumPayoutMinor(3)).toBe(1000);
  });
});

describe('payout idempotency keys', () => {
  it('are required by the route and 1 to 255 printable ASCII characters', () => {
    expect(requestPayout.idempotencyKey).toBe('required');
    const required = (header: string | undefined) => idempotencyKeyHeader(header, { what: 'This operation' });
    expect(codeOf(() => required(undefined))).toBe('request.idempotency_key_required');
    expect(codeOf(() => required(''))).toBe('request.invalid_idempotency_key');
    expect(codeOf(() => required('k'.repeat(256)))).toBe('request.invalid_idempotency_key');
    expect(codeOf(() => required('clé'))).toBe('request.invalid_idempotency_key');
    expect(required('k'.repeat(255))).toHaveLength(255);
  });

  it('fingerprint the merchant, method, amount and currency, telling "all available" from an amount', () => {
    const base = { merchantId: 'm', payoutMethodId: 'pom_1', amountMinor: 1000, currency: 'EUR' };
    expect(payoutFingerprint(base)).toBe(payoutFingerprint({ ...base }));
    for (const other of [{ amountMinor: 1001 }, { amountMinor: null }, { currency: 'USD' }, { payoutMethodId: 'pom_2' }, { merchantId: 'n' }]) {
      expect(payoutFingerprint({ ...base, ...other }), JSON.stringify(other)).not.toBe(payoutFingerprint(base));
    }
  });
});

describe('payout journals', () => {
  const p = { merchantId: 'm', payoutId: 'po_1', currency: 'EUR', amountMinor: 5_000, at: '2026-01-01T00:00:00.000Z' };

  it('count a paid payout in paidOut in the balance change itself, as in the sum of the journals', () => {
    expect(journalDelta(payoutRequestedJournal(p))).toMatchObject({ available: -5_000, inTransit: 5_000, paidOut: 0 });
    expect(journalDelta(payoutPaidJournal(p))).toMatchObject({ inTransit: -5_000, paidOut: 5_000 });
    expect(balancesOf('m', [payoutRequestedJournal(p), payoutPaidJournal(p)])).toMatchObject({ available: -5_000, inTransit: 0, paidOut: 5_000 });
  });

  it('return a failed payout to available, repaying what is owed first', () => {
    expect(balancesOf('m', [payoutRequestedJournal(p), payoutFailedJournal({ ...p, owed: 0 })])).toMatchObject({ available: 0, inTransit: 0, paidOut: 0 });
    // 2,000 owed meanwhile (a refund larger than what was available): the returning 5,000 repays it, 3,000 is available.
    expect(journalDelta(payoutFailedJournal({ ...p, owed: 2_000 }))).toMatchObject({ inTransit: -5_000, owed: -2_000, available: 3_000 });
    expect(journalDelta(payoutFailedJournal({ ...p, owed: 9_000 }))).toMatchObject({ inTransit: -5_000, owed: -5_000, available: 0 });
  });
});
