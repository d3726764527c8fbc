import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getInvoice, putInvoice } from '../../../shared/invoicing/invoices.repository.ts';
import { getOrderById } from '../../../shared/checkout/orders.repository.ts';
import { checkoutCurrencies } from '../../../shared/checkout/invoice-payable.rules.ts';
import { newInvoiceId, type Invoice, type InvoiceStatus } from '../../../shared/invoicing/port.ts';
import { call, organizationAccount } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const ORIGIN = { origin: 'https://shop.example' };
const byInvoice = (invoiceId: string) => call('GET', `/v1/checkout/invoices/${invoiceId}`, { headers: ORIGIN });

let org: Org;
beforeAll(async () => {
  org = await organizationAccount('Invoicing shop');
});

/** A new invoice of the test organization, written as the money issue will write it. */
async function invoice(fields: Partial<Omit<Invoice, 'id'>> = {}): Promise<Invoice> {
  const inv: Invoice = { id: newInvoiceId(), merchantId: org.organizationId, status: 'open', currency: 'USD', amountDueMinor: 12_345, ...fields };
  await putInvoice(inv);
  return inv;
}

describe('checkout by invoice: payable invoices', () => {
  it('creates the payable order of an open invoice: one line for the amount due, in major units, with mount fields and no customer data', async () => {
    const inv = await invoice();
    const res = await byInvoice(inv.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.order).toEqual({
      id: expect.stringMatching(/^ord_[0-9a-f]{32}$/),
      status: 'open',
      currency: 'USD',
      currencySign: '$',
      lines: [{ type: 'custom', planId: null, description: `Invoice ${inv.id}`, quantity: 1, unitAmount: 123.45, amount: 123.45 }],
      subtotal: 123.45,
      // The invoice's own tax, in its total (none on this one).
      tax: 0,
      total: 123.45,
      createdAt: expect.any(String),
      paidAt: null,
    });
    expect(res.json.merchantId).toBe(org.organizationId);
    expect(res.json.hostedFields.mountFunction).toBe('MorHostedFields.mount');
    expect(res.text).not.toMatch(/email|customer|purchaseUrl/i);
    const stored = await getOrderById(res.json.order.id);
    expect(stored).toMatchObject({ merchantId: org.organizationId, currency: 'USD', total: 12_345 });
    expect((await getInvoice(inv.id))!.payableOrderId).toBe(res.json.order.id);
  });

  it('creates the payable order of a past_due invoice from its own lines when they add up to the amount due', async () => {
    const inv = await invoice({
      status: 'past_due',
      currency: 'EUR',
      amountDueMinor: 2_500,
      lines: [
        { description: 'Seat', quantity: 2, unitAmountMinor: 1_000 },
        { description: 'Support', quantity: 1, unitAmountMinor: 500 },
      ],
    });
    const res = await byInvoice(inv.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.order).toMatchObject({
      currency: 'EUR',
      lines: [
        { type: 'custom', planId: null, description: 'Seat', quantity: 2, unitAmount: 10, amount: 20 },
        { type: 'custom', planId: null, description: 'Support', quantity: 1, unitAmount: 5, amount: 5 },
      ],
      total: 25,
    });
  });

  it("carries the invoice's tax in its read (in the total, due whatever the address) and the seller's URL policies", async () => {
    const put = await call('PUT', `/v1/public-api/organizations/${org.organizationId}/checkout-policies`, {
      headers: { authorization: `ApiKey ${org.fullKey}` },
      body: { termsUrl: 'https://shop.example/terms' },
    });
    expect(put.status, put.text).toBe(200);
    const inv = await invoice({ currency: 'EUR', amountDueMinor: 11_900, taxMinor: 1_900 });
    const res = await byInvoice(inv.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.order).toMatchObject({ subtotal: 100, tax: 19, total: 119 });
    expect(res.json).toMatchObject({ termsUrl: 'https://shop.example/terms', privacyUrl: null, returnPolicyUrl: null, eulaUrl: null });
  });

  it('answers the same order on a second call', async () => {
    const inv = await invoice();
    const first = await byInvoice(inv.id);
    const second = await byInvoice(inv.id);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    // The same order; each read mints its own client token.
    const withoutToken = ({ clientToken: _t, clientTokenExpiresAt: _e, ...rest }: Record<string, unknown>) => rest;
    expect(withoutToken(second.json)).toEqual(withoutToken(first.json));
    expect(second.json.clientToken).not.toBe(first.json.clientToken);
  });

  it('makes one order under five concurrent calls', async () => {
    const inv = await invoice({ status: 'past_due' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => byInvoice(inv.id)));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const ids = new Set(answers.map((res) => res.json.order.id));
    expect(ids.size).toBe(1);
    expect((await getInvoice(inv.id))!.payableOrderId).toBe([...ids][0]);
  });

  it("takes each of the ten supported currencies, with the amount in the currency's own minor units", async () => {
    expect(checkoutCurrencies).toHaveLength(10);
    const answers = await Promise.all(
      checkoutCurrencies.map(async (currency) => [currency, await byInvoice((await invoice({ currency, amountDueMinor: 500 })).id)] as const),
    );
    for (const [currency, res] of answers) {
      expect(res.status, `${currency} ${res.text}`).toBe(200);
      expect(res.json.order.currency).toBe(currency);
      expect(res.json.order.total).toBe(currency === 'JPY' ? 500 : 5);
    }
  });

  it('takes an amount of exactly 100000', async () => {
    const res = await byInvoice((await invoice({ amountDueMinor: 10_000_000 })).id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.order.total).toBe(100_000);
  });
});

describe('checkout by invoice: invoices that cannot be paid', () => {
  /** 422 checkout.invoice_not_payable with exactly `details: {status}`, and no order linked. */
  async function expectNotPayable(inv: Invoice) {
    const res = await byInvoice(inv.id);
    expect(res.status, res.text).toBe(422);
    expect(res.json).toEqual({ statusCode: 422, code: 'checkout.invoice_not_payable', message: expect.any(String), details: { status: inv.status } });
    expect(res.text).not.toContain(inv.currency);
    expect(res.text).not.toContain(String(inv.amountDueMinor));
    expect((await getInvoice(inv.id))!.payableOrderId).toBeUndefined();
  }

  for (const status of ['draft', 'paid', 'voided', 'uncollectible'] satisfies InvoiceStatus[]) {
    it(`answers 422 checkout.invoice_not_payable with only details.status for a ${status} invoice`, async () => {
      await expectNotPayable(await invoice({ status, amountDueMinor: 7_777 }));
    });
  }

  it('answers 422 for an open invoice in an unsupported currency', async () => {
    await expectNotPayable(await invoice({ currency: 'BRL', amountDueMinor: 4_321 }));
  });

  it('answers 422 for an amount of 100000.01', async () => {
    await expectNotPayable(await invoice({ status: 'past_due', amountDueMinor: 10_000_001 }));
  });
});

describe('checkout by invoice: unknown invoices and CORS', () => {
  it('answers 404 checkout.invoice_not_found for an unknown id, a malformed id and an invoice of an unknown merchant', async () => {
    const orphan = await invoice({ merchantId: randomUUID() });
    for (const id of [newInvoiceId(), 'not-an-invoice', `${newInvoiceId()}0`, orphan.id]) {
      const res = await byInvoice(id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ statusCode: 404, code: 'checkout.invoice_not_found' });
    }
    expect((await getInvoice(orphan.id))!.payableOrderId).toBeUndefined();
  });

  it('lets any origin read its answers, successes and errors alike, without credentials', async () => {
    const answers = [await byInvoice((await invoice()).id), await byInvoice((await invoice({ status: 'voided' })).id), await byInvoice(newInvoiceId())];
    expect(answers.map((res) => res.status)).toEqual([200, 422, 404]);
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});
