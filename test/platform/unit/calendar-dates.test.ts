/**
 * A request's dates must exist: ISO 8601 text is checked for its form and for its calendar date (no 30 February, no
 * 31 April), so a typo is a 400 rather than an invoice or a dispute quietly dated days later.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { issueCustomerInvoiceRequest } from '../../../shared/invoicing/invoices.schemas.ts';
import { createDisputeRequest } from '../../../shared/payments/disputes.schemas.ts';
import { isoTime } from '../../../shared/platform/http/schemas/common.ts';
import { instantInput } from '../../../shared/platform/http/schemas/organization.ts';

const refused = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success === false;

describe('dates in requests', () => {
  it('refuse a day the month does not have, in every form that takes an instant', () => {
    for (const bad of ['2027-02-29T00:00:00Z', '2026-02-30T12:00:00.000Z', '2027-04-31T00:00:00+02:00', '2026-06-31T23:59:59Z']) {
      expect(refused(isoTime, bad), bad).toBe(true);
      expect(refused(instantInput, bad), bad).toBe(true);
      expect(refused(issueCustomerInvoiceRequest, { issuedAt: bad, dueAt: '2030-01-01T00:00:00Z' }), bad).toBe(true);
      expect(refused(createDisputeRequest, { transactionId: 't', currency: 'USD', amount: 1, postedAt: bad }), bad).toBe(true);
    }
  });

  it('take the days that exist, leap days included, normalised', () => {
    expect(refused(createDisputeRequest, { transactionId: 't', currency: 'USD', amount: 1, postedAt: '2028-02-29T00:00:00Z' })).toBe(false);
    expect(v.parse(instantInput, '2028-02-29T10:00:00+01:00')).toBe('2028-02-29T09:00:00.000Z');
    expect(v.parse(isoTime, '2026-12-31T23:59:59.999Z')).toBe('2026-12-31T23:59:59.999Z');
    expect(v.parse(issueCustomerInvoiceRequest, { issuedAt: '2027-03-31T00:00:00Z', dueAt: '2027-04-30T00:00:00Z' })).toEqual({
      issuedAt: '2027-03-31T00:00:00.000Z',
      dueAt: '2027-04-30T00:00:00.000Z',
    });
  });
});
