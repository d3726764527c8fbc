/**
 * Checkout receipts through the local gateway, for the seller the buyer saw: each merchant's receipt numbers
 * (`R-000001`, …, beside the UUID receipt id: per merchant, none for a declined payment, never shared by concurrent
 * payments), the checkout's display name kept as the buyer saw it beside the platform as seller of record (also on
 * the merchant API's receipt and on the invoice PDF), and a trial started with nothing charged answering when it
 * ends and its first charge, in the organization's test-clock time. Test titles never hold card numbers (the run's
 * output is searched for them).
 */
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { sellerOfRecordFor } from '../../../infra/seller-of-record.ts';
import { config } from '../../../shared/platform/config.ts';
import { testCards } from '../../support/cards.ts';
import { call, cardToken, issuedCustomerInvoice, organizationAccount, orgCall, orgPath, orgPlan, PASSWORD, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** The sandbox processor's test cards, by what they do. */
const C = '/v1/checkout';
const DE = { country: 'DE' };
const SELLER = sellerOfRecordFor(config.stage);

async function newSession(planId: string, billingAddress: Record<string, string> = DE, quantity = 1) {
  const res = await call('POST', `${C}/plans/${planId}/session`, { body: { email: uniqueEmail('buyer'), quantity, billingAddress } });
  expect(res.status, res.text).toBe(200);
  return res.json as { sessionId: string };
}

/** Pays the plan in a new session with a fresh token of `card`: the confirm's answer as it came. */
async function payPlan(org: Org, planId: string, card: string = testCards.succeeds) {
  const s = await newSession(planId);
  return call('POST', `${C}/plans/${planId}/confirm`, { body: { sessionId: s.sessionId, token: await cardToken(org, card) } });
}

async function receiptOf(planId: string, receiptId: string) {
  const res = await call('GET', `${C}/plans/${planId}/receipts/${receiptId}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** The organization's owner signed in to the dashboard back end (its session token). */
async function ownerSession(org: Org): Promise<string> {
  const res = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
  expect(res.status, res.text).toBe(201);
  return res.json.token as string;
}

async function setDisplayName(org: Org, owner: string, displayName: string) {
  const res = await call('PUT', `/v1/dashboard/merchants/${org.organizationId}/checkout-customization`, { key: owner, body: { displayName } });
  expect(res.status, res.text).toBe(200);
}

/** The PDF's text, line by line. */
async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
}

describe('receipt numbers', () => {
  it("number a merchant's receipts R-000001, R-000002, … beside the receipt id: a decline takes none, an order's payment takes the next", async () => {
    const org = await organizationAccount('Numbered Receipts Ltd');
    const plan = await orgPlan(org, { pricing: { price: 20, formula: 'fixed-fee' } });

    const first = await payPlan(org, plan.id);
    expect(first.status, first.text).toBe(200);
    const receipt = await receiptOf(plan.id, first.json.receiptId);
    expect(receipt).toMatchObject({ receiptId: first.json.transactionId, receiptNumber: 'R-000001', transactionId: first.json.transactionId });

    // A declined payment has no receipt and takes no number: the next payment's is R-000002.
    const declined = await payPlan(org, plan.id, testCards.insufficientFunds);
    expect(declined.status, declined.text).toBe(402);
    const second = await payPlan(org, plan.id);
    expect(second.status, second.text).toBe(200);
    expect((await receiptOf(plan.id, second.json.receiptId)).receiptNumber).toBe('R-000002');

    // An order's payment counts among the merchant's receipts too.
    const order = await call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, {
      key: org.merchantApiKey,
      body: { currency: 'USD', lines: [{ description: 'Lamp', unitAmount: 30, quantity: 1 }] },
    });
    expect(order.status, order.text).toBe(201);
    const paidOrder = await call('POST', `${C}/orders/${order.json.id}/confirm`, {
      body: { email: uniqueEmail('buyer'), token: await cardToken(org), billingAddress: DE },
    });
    expect(paidOrder.status, paidOrder.text).toBe(200);
    const orderReceipt = await call('GET', `${C}/orders/${order.json.id}/receipts/${paidOrder.json.receiptId}`);
    expect(orderReceipt.status, orderReceipt.text).toBe(200);
    expect(orderReceipt.json.receiptNumber).toBe('R-000003');

    // The same receipt through the merchant API has the same number; reading it again changes nothing.
    const viaMerchantApi = await call('GET', `/v1/public-api/merchants/${org.organizationId}/checkout/plans/${plan.id}/receipts/${first.json.receiptId}`, {
      key: org.merchantApiKey,
    });
    expect(viaMerchantApi.status, viaMerchantApi.text).toBe(200);
    expect(viaMerchantApi.json).toEqual(receipt);
    expect(await receiptOf(plan.id, first.json.receiptId)).toEqual(receipt);

    // Numbers are per merchant: another merchant's first receipt is R-000001 too.
    const other = await organizationAccount('Other Receipts Ltd');
    const otherPlan = await orgPlan(other);
    const theirs = await payPlan(other, otherPlan.id);
    expect(theirs.status, theirs.text).toBe(200);
    expect((await receiptOf(otherPlan.id, theirs.json.receiptId)).receiptNumber).toBe('R-000001');
  });

  it("keep a refunded payment's receipt: what was paid, its number, and what refunds gave back", async () => {
    const org = await organizationAccount('Refunding Receipts Ltd');
    const plan = await orgPlan(org, { pricing: { price: 20, formula: 'fixed-fee' } });
    const paid = await payPlan(org, plan.id);
    expect(paid.status, paid.text).toBe(200);
    const before = await receiptOf(plan.id, paid.json.receiptId);
    expect(before).toMatchObject({ status: 'completed', refundedAmount: 0 });
    const refund = (amount?: number) =>
      orgCall('POST', `${orgPath(org.organizationId)}/transactions/${paid.json.transactionId}/refunds`, {
        fullKey: org.fullKey,
        body: amount === undefined ? {} : { amount },
      });

    expect((await refund(5)).status).toBe(201);
    expect(await receiptOf(plan.id, paid.json.receiptId)).toEqual({ ...before, status: 'partially-refunded', refundedAmount: 5 });
    expect((await refund()).status).toBe(201);
    const after = await receiptOf(plan.id, paid.json.receiptId);
    expect(after).toEqual({ ...before, status: 'refunded', refundedAmount: before.amount });
    const viaMerchantApi = await call('GET', `/v1/public-api/merchants/${org.organizationId}/checkout/plans/${plan.id}/receipts/${paid.json.receiptId}`, {
      key: org.merchantApiKey,
    });
    expect(viaMerchantApi.json).toEqual(after);
  });

  it('give concurrent payments of one merchant distinct numbers, with none skipped', async () => {
    const org = await organizationAccount('Busy Receipts Ltd');
    const plan = await orgPlan(org, { pricing: { price: 5, formula: 'fixed-fee' } });
    const n = 8;
    // Sessions and tokens first, so the confirms (and their settlements) run at the same time.
    const ready = await Promise.all(Array.from({ length: n }, async () => ({ sessionId: (await newSession(plan.id)).sessionId, token: await cardToken(org) })));
    const paid = await Promise.all(ready.map((body) => call('POST', `${C}/plans/${plan.id}/confirm`, { body })));
    expect(paid.map((p) => p.status)).toEqual(Array(n).fill(200));
    const numbers = await Promise.all(paid.map(async (p) => (await receiptOf(plan.id, p.json.receiptId)).receiptNumber as string));
    expect(new Set(numbers).size).toBe(n);
    expect([...numbers].sort()).toEqual(Array.from({ length: n }, (_, i) => `R-00000${i + 1}`));
  });
});

describe('the seller on receipts and invoices', () => {
  it('keeps the display name the buyer saw beside the platform as seller of record; the invoice PDF prints the display name beside it', async () => {
    const org = await organizationAccount('Lumen Holdings Ltd');
    const owner = await ownerSession(org);
    await setDisplayName(org, owner, 'Lumen Studio');
    const plan = await orgPlan(org, { pricing: { price: 20, formula: 'fixed-fee' } });
    expect((await call('GET', `${C}/plans/${plan.id}`)).json.merchantName).toBe('Lumen Studio');

    const paid = await payPlan(org, plan.id);
    expect(paid.status, paid.text).toBe(200);
    const receipt = await receiptOf(plan.id, paid.json.receiptId);
    expect(receipt).toMatchObject({ merchantId: org.organizationId, merchantName: 'Lumen Studio', receiptNumber: 'R-000001' });
    expect(receipt.sellerOfRecord).toEqual({
      name: SELLER.name,
      address: SELLER.address,
      city: SELLER.city,
      zip: SELLER.zip,
      state: SELLER.state,
      country: SELLER.country,
      phoneNumber: SELLER.phoneNumber,
      taxNumber: { type: SELLER.taxNumber.type, value: SELLER.taxNumber.value },
    });

    // A later change of the display name leaves the receipt as the buyer saw it; the next payment's has the new one.
    await setDisplayName(org, owner, 'Lumen Lighting');
    expect((await receiptOf(plan.id, paid.json.receiptId)).merchantName).toBe('Lumen Studio');
    const later = await payPlan(org, plan.id);
    expect(later.status, later.text).toBe(200);
    expect(await receiptOf(plan.id, later.json.receiptId)).toMatchObject({ merchantName: 'Lumen Lighting', receiptNumber: 'R-000002' });

    // The invoice PDF: the seller of record's block, then the merchant by the name its buyers see.
    const invoiceId = await issuedCustomerInvoice(org, {
      currency: 'EUR',
      buyer: { name: 'Ada Lovelace', country: 'DE' },
      items: [{ description: 'Lamp', quantity: 1, unitPrice: 20, taxRate: 19 }],
    });
    const pdf = await fetch(`${inject('baseUrl')}/v1/public-api/merchants/${org.organizationId}/invoices/${invoiceId}/download`, {
      headers: { authorization: `Bearer ${org.merchantApiKey}` },
    });
    expect(pdf.status).toBe(200);
    const lines = await pdfLines(new Uint8Array(await pdf.arrayBuffer()));
    const from = lines.findIndex((l) => l.startsWith('Seller of record'));
    const onBehalf = lines.findIndex((l) => l.startsWith('On behalf of'));
    expect(from, JSON.stringify(lines)).toBeGreaterThanOrEqual(0);
    expect(lines[from + 1]?.startsWith(SELLER.name), JSON.stringify(lines)).toBe(true);
    expect(onBehalf).toBeGreaterThan(from);
    expect(lines[onBehalf]).toBe('On behalf of Lumen Lighting');
    expect(lines.join('\n')).not.toContain('Lumen Holdings Ltd');
  });
});

describe('a trial started at checkout', () => {
  const startTrial = async (org: Org, planId: string, billingAddress: Record<string, string>, quantity = 1) => {
    const s = await newSession(planId, billingAddress, quantity);
    const res = await call('POST', `${C}/plans/${planId}/confirm`, { body: { sessionId: s.sessionId, token: await cardToken(org) } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ transactionId: null, receiptId: null, amount: 0 });
    return res.json;
  };
  const subscriptionOf = async (org: Org, id: string) =>
    (await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${id}`, { fullKey: org.fullKey })).json.data;

  it("answers when the trial ends (on the organization's test clock) and its first charge with tax; a trial-only plan has none", async () => {
    const org = await organizationAccount('Trial Answers Ltd');
    // The organization's clock runs 30 days ahead: the trial's end is in its time, not in real time.
    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    const advanced = await orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, {
      fullKey: org.fullKey,
      body: { to: new Date(Date.parse(clock.now) + 30 * 86_400_000).toISOString() },
    });
    expect(advanced.status, advanced.text).toBe(200);

    const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' }, trial: { unit: 'day', length: 7 } }, { productType: 'recurring' });
    // Two seats in California: 20.00 at 7.25 % is 1.45.
    const started = await startTrial(org, plan.id, { country: 'US', state: 'CA' }, 2);
    const sub = await subscriptionOf(org, started.subscriptionId);
    expect(started.trial).toEqual({ endsAt: sub.trialEndTime, firstCharge: { at: sub.trialEndTime, subtotal: 20, tax: 1.45, amount: 21.45 } });
    expect(Date.parse(started.trial.endsAt) - Date.now()).toBeGreaterThan(36 * 86_400_000);

    const trialOnly = await orgPlan(
      org,
      { pricing: { price: 10, formula: 'fixed-fee' }, trial: { unit: 'day', length: 7 }, isTrialOnly: true },
      { productType: 'recurring' },
    );
    const free = await startTrial(org, trialOnly.id, DE);
    expect(free.trial).toEqual({ endsAt: (await subscriptionOf(org, free.subscriptionId)).trialEndTime, firstCharge: null });
  });
});
