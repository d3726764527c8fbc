import { describe, expect, it } from 'vitest';
import {
  canTransition,
  combinedStatuses,
  processorIdempotencyKey,
  requestFingerprint,
  settlementOf,
  sortTransactions,
  transitions,
  type SortableTransaction,
} from '../../../shared/payments/transactions.rules.ts';

describe('transaction statuses', () => {
  it('uses only CombinedStatus values and leaves sending once, for completed or declined', () => {
    for (const [from, tos] of Object.entries(transitions)) {
      expect(combinedStatuses).toContain(from);
      for (const to of tos!) expect(combinedStatuses).toContain(to);
    }
    expect(canTransition('sending', 'completed')).toBe(true);
    expect(canTransition('sending', 'declined')).toBe(true);
    expect(canTransition('completed', 'declined')).toBe(false);
    expect(canTransition('declined', 'completed')).toBe(false);
    expect(canTransition('sending', 'refunded')).toBe(false);
  });

  it('maps each processor outcome to its status, decline reason and HTTP status', () => {
    expect(settlementOf({ outcome: 'succeeded', externalTransactionId: 'pay_1' })).toEqual({
      status: 'completed',
      externalTransactionId: 'pay_1',
      declineReason: null,
      httpStatus: 201,
    });
    expect(settlementOf({ outcome: 'declined', externalTransactionId: 'pay_2', declineCode: 'insufficient_funds', declineMessage: 'No funds.' })).toEqual({
      status: 'declined',
      externalTransactionId: 'pay_2',
      declineReason: { code: 'insufficient_funds', message: 'No funds.' },
      httpStatus: 402,
    });
    expect(settlementOf({ outcome: 'error', externalTransactionId: null, errorCode: 'processing_error', errorMessage: 'Try later.' })).toEqual({
      status: 'declined',
      externalTransactionId: null,
      declineReason: { code: 'processing_error', message: 'Try later.' },
      httpStatus: 502,
    });
  });
});

describe('request fingerprints and processor keys', () => {
  it('gives the same fingerprint whatever the field order, and another one for any changed value', () => {
    const a = requestFingerprint({ idempotencyKey: 'k', amount: 10, currency: 'USD', customer: { email: 'a@x.io', firstName: 'A' } });
    expect(requestFingerprint({ customer: { firstName: 'A', email: 'a@x.io' }, currency: 'USD', amount: 10, idempotencyKey: 'k' })).toBe(a);
    expect(
      requestFingerprint({ idempotencyKey: 'k', amount: 10, currency: 'USD', customer: { email: 'a@x.io', firstName: 'A' }, description: undefined }),
    ).toBe(a);
    expect(requestFingerprint({ idempotencyKey: 'k', amount: 10.5, currency: 'USD', customer: { email: 'a@x.io', firstName: 'A' } })).not.toBe(a);
    expect(requestFingerprint({ idempotencyKey: 'k', amount: 10, currency: 'USD', customer: { email: 'a@x.io', firstName: 'B' } })).not.toBe(a);
    expect(requestFingerprint({ idempotencyKey: 'k', amount: 10, currency: 'USD', customer: { email: 'a@x.io', firstName: 'A' }, description: null })).not.toBe(
      a,
    );
  });

  it('derives one processor key per organization, operation and idempotency key', () => {
    const key = processorIdempotencyKey('org-1', 'transactions', 'order-7');
    expect(processorIdempotencyKey('org-1', 'transactions', 'order-7')).toBe(key);
    expect(processorIdempotencyKey('org-2', 'transactions', 'order-7')).not.toBe(key);
    expect(processorIdempotencyKey('org-1', 'transactions', 'order-8')).not.toBe(key);
    expect(processorIdempotencyKey('00000000-0000-4000-8000-000000000000', 'checkout', 'x'.repeat(255)).length).toBeLessThanOrEqual(255);
    // A key of one operation never names another's charge, whatever its text.
    expect(processorIdempotencyKey('org-1', 'transactions', 'checkout:order-7')).not.toBe(processorIdempotencyKey('org-1', 'checkout', 'order-7'));
  });
});

describe('sorting transactions in memory', () => {
  const t = (id: string, createdAt: string, fields: Partial<SortableTransaction> = {}): SortableTransaction => ({
    id,
    createdAt,
    description: null,
    customerName: null,
    processedAt: null,
    paymentType: 'sale',
    gatewayName: 'sandbox',
    ...fields,
  });
  const items = [
    t('1', '2025-01-01T00:00:01.000Z', { description: 'beta', customerName: 'Émile', processedAt: '2025-01-01T00:00:05.000Z' }),
    t('2', '2025-01-01T00:00:02.000Z', { description: 'Alpha', customerName: 'zoe', processedAt: '2025-01-01T00:00:03.000Z' }),
    t('3', '2025-01-01T00:00:03.000Z'),
    t('4', '2025-01-01T00:00:04.000Z', { description: 'alpha', customerName: 'emile' }),
  ];
  const ids = (sorted: SortableTransaction[]) => sorted.map((x) => x.id);

  it('compares titles and names the way people read them, ties by creation, and puts missing values last both ways', () => {
    expect(ids(sortTransactions(items, 'title', 'asc'))).toEqual(['2', '4', '1', '3']);
    expect(ids(sortTransactions(items, 'title', 'desc'))).toEqual(['1', '4', '2', '3']);
    expect(ids(sortTransactions(items, 'customerName', 'asc'))).toEqual(['1', '4', '2', '3']);
    expect(ids(sortTransactions(items, 'customerName', 'desc'))).toEqual(['2', '4', '1', '3']);
  });

  it('sorts date by when the processor answered, and equal values by creation', () => {
    expect(ids(sortTransactions(items, 'date', 'asc'))).toEqual(['2', '1', '3', '4']);
    expect(ids(sortTransactions(items, 'date', 'desc'))).toEqual(['1', '2', '4', '3']);
    expect(ids(sortTransactions(items, 'gatewayName', 'asc'))).toEqual(['1', '2', '3', '4']);
    expect(ids(sortTransactions(items, 'paymentType', 'desc'))).toEqual(['4', '3', '2', '1']);
  });
});
