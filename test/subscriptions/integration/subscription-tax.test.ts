/**
 * The platform is the merchant of record, so it owes the tax on every charge of a subscription, not only the
 * checkout's: through the real checkout and the sandbox test clock, a California subscription's renewal charges and
 * invoices the same 7.25 % as its checkout, its reminder names the amount with tax, and a prorated cancellation
 * refunds the unused time with its tax in proportion. A subscription made through the organization API is taxed at
 * its customer's address, and one whose customer has no country, or a country not sold to, is refused; its renewals are taxed
 * where the buyer is then (a customer who moved, a card with a billing country). The ledger holds the tax of every charge
 * back from the merchant, a renewal's as a checkout's, and a refund gives it back to the buyer, not from the merchant.
 */
import { describe, expect, inject, it } from 'vitest';
import { divideHalfEven } from '../../../shared/domain/money.ts';
import { utcText } from '../../../shared/domain/time.ts';
import { setSandboxInstrumentDecline } from '../../../shared/payments/sandbox-cards.service.ts';
import { prorate, secondsBetween } from '../../../shared/subscriptions/periods.rules.ts';
import { chargeInvoiceId, checkoutInvoiceId } from '../../../shared/invoicing/invoices.rules.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, uniqueEmail } from '../../support/fixtures.ts';
import { mailsArrived } from '../../support/mails.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const CALIFORNIA = { country: 'US', state: 'CA', postalCode: '94105' };
const DAY = 86_400_000;

const api = (org: Org, method: string, path: string, body?: unknown) =>
  orgCall(method, `${orgPath(org.organizationId)}${path}`, { fullKey: org.fullKey, ...(body === undefined ? {} : { body }) });

async function clockNow(org: Org): Promise<string> {
  return (await api(org, 'GET', '/test-clock')).json.data.now as string;
}

async function advanceTo(org: Org, to: string) {
  const res = await api(org, 'POST', '/test-clock/advance', { to });
  expect(res.status, res.text).toBe(200);
}

const chargesOf = async (org: Org, subscriptionId: string) => {
  const res = await api(org, 'GET', `/transactions?limit=100&sortDirection=asc&subscriptionId=${subscriptionId}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<{ id: string; status: string; amount: number; paymentInstrumentId: string | null }>;
};

/** The merchant's balances in `currency` (major units), through the merchant API. */
const balanceOf = async (org: Org, currency: string) => {
  const res = await call('GET', `/v1/public-api/merchants/${org.organizationId}/balances/summary`, { key: org.merchantApiKey });
  expect(res.status, res.text).toBe(200);
  return (res.json.balances as Array<{ currency: string; pending: number; available: number; owed: number }>).find((b) => b.currency === currency);
};

const invoice = async (org: Org, id: string) => {
  const res = await api(org, 'GET', `/customer-invoices/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
};

/** A $10 monthly plan bought at checkout by a buyer in `billingAddress` (with `promoCode`): the subscription and its first payment. */
async function boughtAtCheckout(org: Org, billingAddress: Record<string, string>, promoCode?: string) {
  const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const email = uniqueEmail('taxed');
  const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email, billingAddress } });
  expect(session.status, session.text).toBe(200);
  const paid = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, {
    body: { sessionId: session.json.sessionId, token: await cardToken(org), ...(promoCode ? { promoCode } : {}) },
  });
  expect(paid.status, paid.text).toBe(200);
  return { email, subscriptionId: paid.json.subscriptionId as string, first: paid.json as { amount: number; tax: number } };
}

describe('a subscription bought at checkout is taxed on every charge', () => {
  it('renews a California subscription at the checkout’s 7.25 %, invoiced line by line, after a reminder naming the amount with tax', async () => {
    const org = await organizationAccount('California renewals');
    const { email, subscriptionId, first } = await boughtAtCheckout(org, CALIFORNIA);
    expect(first).toMatchObject({ amount: 10.72, tax: 0.72 }); // 0.725: half to even
    const sub = (await api(org, 'GET', `/subscriptions/${subscriptionId}`)).json.data;
    // The checkout's payment has its invoice too: the first period's, paid, as charged.
    const [checkoutPayment] = await chargesOf(org, subscriptionId);
    const opening = await invoice(org, checkoutInvoiceId(checkoutPayment!.id));
    expect(opening).toMatchObject({ status: 'paid', totalTax: 0.72, totalAmount: 10.72, currency: 'USD', customerId: sub.customer.id });
    // Its line names the period it paid, as a renewal's does.
    const period = `(${sub.currentPeriodStart.slice(0, 10)} to ${sub.currentPeriodEnd.slice(0, 10)})`;
    expect(opening.items).toEqual([
      expect.objectContaining({ description: `${sub.name} ${period}`, quantity: 1, unitPrice: 10, taxRate: 7.25, taxAmount: 0.72 }),
    ]);

    // The reminder, a week before the renewal, names the seller and what will be charged.
    await advanceTo(org, new Date(Date.parse(sub.currentPeriodEnd) - 3 * DAY).toISOString());
    const [reminder] = await mailsArrived(email, 'renews');
    expect(reminder?.text).toContain(`" with California renewals renews on ${sub.currentPeriodEnd.slice(0, 10)} for 10.72 USD (including 0.72 USD tax)`);

    await advanceTo(org, new Date(Date.parse(sub.currentPeriodEnd) + DAY).toISOString());
    expect((await chargesOf(org, subscriptionId)).map((t) => [t.status, t.amount])).toEqual([
      ['completed', 10.72],
      ['completed', 10.72],
    ]);
    const renewal = await invoice(org, chargeInvoiceId(`renewal:${subscriptionId}:2`));
    expect(renewal).toMatchObject({ status: 'paid', totalTax: 0.72, totalAmount: 10.72, currency: 'USD' });
    expect(renewal.items).toEqual([expect.objectContaining({ quantity: 1, unitPrice: 10, amount: 10, taxRate: 7.25, taxAmount: 0.72 })]);
    // The platform owes the tax of each payment, the renewal's as the checkout's: the merchant is owed the rest less the
    // fee (5 % of 10.72: 0.54), 9.46 of each.
    expect(await balanceOf(org, 'USD')).toMatchObject({ pending: 18.92 });

    // Each payment is mailed a receipt: the checkout's, then the renewal's, dated at the renewal (the clock's time);
    // each names the rate its tax was charged at.
    const receipts = await mailsArrived(email, 'receipt', 2);
    expect(receipts.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your receipt R-\d{6} from California renewals$/), `Your receipt for ${sub.name}`]);
    expect(receipts[0]!.text).toContain('\nTax (7.25%): 0.72 USD\n');
    const renewed = (await api(org, 'GET', `/subscriptions/${subscriptionId}`)).json.data;
    expect(receipts[1]!.text.split('\n')[0]).toBe(
      `California renewals charged 10.72 USD (including 0.72 USD tax at 7.25%) to your visa ending in 4242 on ${utcText(sub.currentPeriodEnd)}, for your subscription "${sub.name}" for ${renewed.currentPeriodStart.slice(0, 10)} to ${renewed.currentPeriodEnd.slice(0, 10)}.`,
    );
    expect(receipts[1]!.text).toContain(`Your invoices are in your billing portal: ${new URL(inject('baseUrl')).origin}/portal/${org.organizationId}`);
    const [, renewalCharge] = await chargesOf(org, subscriptionId);
    expect(receipts[1]!.text).toContain(`Payment reference: ${renewalCharge!.id}\nSubscription reference: ${subscriptionId}`);
    expect(receipts[1]!.at).toBe(sub.currentPeriodEnd);
  });

  it('refunds the unused time of a prorated cancellation with its tax in proportion', async () => {
    const org = await organizationAccount('California refund');
    const { subscriptionId } = await boughtAtCheckout(org, CALIFORNIA);
    const sub = (await api(org, 'GET', `/subscriptions/${subscriptionId}`)).json.data;
    // A third of the way into the paid period.
    const start = Date.parse(sub.currentPeriodStart);
    await advanceTo(org, new Date(start + (Date.parse(sub.currentPeriodEnd) - start) / 3).toISOString());
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const refunds = (await api(org, 'GET', `/transactions/${(await chargesOf(org, subscriptionId))[0]!.id}/refunds`)).json.data as Array<{
      amount: number;
    }>;
    expect(refunds).toHaveLength(1);
    // The unused time's value before tax (prorated to the second, as the engine does), with the tax in the proportion
    // the payment was charged with (0.72 of 10.00: 7.25 % rounded).
    const churnedAt = cancelled.json.data.churnedAt as string;
    expect(churnedAt <= (await clockNow(org))).toBe(true);
    const net = prorate(1000, secondsBetween(churnedAt, sub.currentPeriodEnd), secondsBetween(sub.currentPeriodStart, sub.currentPeriodEnd));
    expect(net).toBeGreaterThan(600);
    expect(net).toBeLessThan(700);
    expect(Math.round(refunds[0]!.amount * 100)).toBe(Number(divideHalfEven(BigInt(net) * 1072n, 1000n)));
  });

  it('values a first period a promo code discounted at what was paid for it: a prorated cancellation refunds its unused part of that', async () => {
    const org = await organizationAccount('California half off');
    const code = `HALF-${org.organizationId.slice(0, 8)}`;
    expect((await api(org, 'POST', '/promo-codes', { code, percentOff: 50 })).status).toBe(201);
    const { subscriptionId, first } = await boughtAtCheckout(org, CALIFORNIA, code);
    // 10 less 50 %: 5, and 7.25 % of it (0.3625).
    expect(first).toMatchObject({ amount: 5.36, tax: 0.36 });
    const sub = (await api(org, 'GET', `/subscriptions/${subscriptionId}`)).json.data;
    const start = Date.parse(sub.currentPeriodStart);
    await advanceTo(org, new Date(start + (Date.parse(sub.currentPeriodEnd) - start) / 2).toISOString());
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const churnedAt = cancelled.json.data.churnedAt as string;
    // Half of the 5 paid (to the second), not of the plan's 10: about 2.50 and its tax, not all of the 5.36.
    const net = prorate(500, secondsBetween(churnedAt, sub.currentPeriodEnd), secondsBetween(sub.currentPeriodStart, sub.currentPeriodEnd));
    expect(net).toBeGreaterThan(240);
    expect(net).toBeLessThanOrEqual(250);
    const [payment] = await chargesOf(org, subscriptionId);
    const refunds = (await api(org, 'GET', `/transactions/${payment!.id}/refunds`)).json.data as Array<{ amount: number }>;
    // With the tax in the proportion the payment was charged with: 0.36 of 5.00.
    expect(refunds.map((r) => Math.round(r.amount * 100))).toEqual([Number(divideHalfEven(BigInt(net) * 536n, 500n))]);
    // Its invoice says what was charged, the code's discount in its line, and is credited by the refund.
    const paid = await invoice(org, checkoutInvoiceId(payment!.id));
    expect(paid).toMatchObject({ status: 'paid', totalAmount: 5.36, totalTax: 0.36, creditedAmount: refunds[0]!.amount });
    expect(paid.items).toEqual([expect.objectContaining({ description: expect.stringContaining(`(promo code ${code})`), unitPrice: 5, taxAmount: 0.36 })]);
    expect(cancelled.json.data.proratedInvoiceId).toBe(paid.id);
  });

  it("credits the first invoice by a merchant's refund of the checkout payment", async () => {
    const org = await organizationAccount('California refunds');
    const { subscriptionId, first } = await boughtAtCheckout(org, CALIFORNIA);
    const [payment] = await chargesOf(org, subscriptionId);
    const refunded = await api(org, 'POST', `/transactions/${payment!.id}/refunds`, { amount: 1.07 });
    expect(refunded.status, refunded.text).toBe(201);
    expect(await invoice(org, checkoutInvoiceId(payment!.id))).toMatchObject({ status: 'paid', totalAmount: first.amount, creditedAmount: 1.07 });
  });
});

describe('a subscription made through the organization API', () => {
  async function customerWithCard(org: Org, address?: Record<string, string>) {
    const customer = await api(org, 'POST', '/customers', { email: uniqueEmail('api'), ...(address ? { primaryAddress: { customerAddress: address } } : {}) });
    expect(customer.status, customer.text).toBe(201);
    const card = await api(org, 'POST', `/customers/${customer.json.data.id}/payment-instruments`, { token: await cardToken(org) });
    expect(card.status, card.text).toBe(201);
    return { customerId: customer.json.data.id as string, paymentInstrumentId: card.json.data.id as string };
  }

  /**
   * A new organization whose customer at `address`, with a card, subscribes to `quantity` of a monthly plan of `price`
   * USD: the organization, the buyer and the subscription.
   */
  async function subscribedAt(name: string, price: number, address: Record<string, string>, quantity = 1) {
    const org = await organizationAccount(name);
    const plan = await orgPlan(org, { pricing: { price, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const buyer = await customerWithCard(org, address);
    const created = await api(org, 'POST', '/subscriptions', { ...buyer, items: [{ plan: plan.id, quantity }] });
    expect(created.status, created.text).toBe(201);
    return { org, buyer, created, id: created.json.data.id as string };
  }

  it("is taxed at its customer's address from its first charge", async () => {
    const { org, id } = await subscribedAt('API taxed', 10, { country: 'US', region: 'CA', zip: '94105' }, 2);
    expect((await chargesOf(org, id)).map((t) => t.amount)).toEqual([21.45]);
    const first = await invoice(org, chargeInvoiceId(`renewal:${id}:1`));
    expect(first).toMatchObject({ totalTax: 1.45, totalAmount: 21.45 });
    expect(first.items).toEqual([expect.objectContaining({ quantity: 2, unitPrice: 10, taxRate: 7.25, taxAmount: 1.45 })]);
    // The tax is the platform's: the merchant is owed 21.45 less 1.45 less the fee (5 %: 1.07), and a full refund takes
    // back only that (the 1.45 is no longer owed to the tax office).
    expect(await balanceOf(org, 'USD')).toMatchObject({ pending: 18.93, owed: 0 });
    const [charge] = await chargesOf(org, id);
    expect((await api(org, 'POST', `/transactions/${charge!.id}/refunds`, {})).status).toBe(201);
    expect(await balanceOf(org, 'USD')).toMatchObject({ pending: 18.93, owed: 20 });
  });

  it('refuses a place the platform does not sell to or cannot tax, trial or not, and makes nothing', async () => {
    const org = await organizationAccount('API unsellable');
    const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const later = new Date(Date.parse(await clockNow(org)) + 7 * DAY).toISOString();
    for (const [address, reason] of [
      [{ country: 'AQ' }, 'country_not_sold'],
      [{ country: 'US' }, 'state_required'],
      [{ country: 'US', region: 'XX' }, 'state_unknown'],
    ] as const) {
      const buyer = await customerWithCard(org, address);
      for (const extra of [{}, { trial: { enabled: true, endAt: later } }, { startAt: later }]) {
        const refused = await api(org, 'POST', '/subscriptions', { ...buyer, items: [{ plan: plan.id, quantity: 1 }], ...extra });
        expect(refused.status, `${JSON.stringify(address)} ${JSON.stringify(extra)}: ${refused.text}`).toBe(422);
        expect(refused.json.errorCode).toBe('checkout.tax_unavailable');
        expect(refused.json.details).toContain(`reason: ${reason}`);
      }
    }
    expect((await api(org, 'GET', '/subscriptions')).json.totalCount).toBe(0);
  });

  it('taxes each renewal where the buyer is then: a new customer address, then a card with a billing country', async () => {
    const { org, buyer, created, id } = await subscribedAt('API moved', 10, { country: 'US', region: 'OR' });
    // Oregon: no sales tax. The customer moves to Germany: the next renewal is taxed at 19 %, and its reminder says so.
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'DE' } })).status).toBe(200);
    await advanceTo(org, new Date(Date.parse(created.json.data.currentPeriodEnd) + DAY).toISOString());
    const [reminder] = await mailsArrived((await api(org, 'GET', `/customers/${buyer.customerId}`)).json.data.email, 'renews');
    expect(reminder?.text).toContain('for 11.90 USD (including 1.90 USD tax)');
    // The card then gets a billing country (the UK), which comes before the customer's address.
    const card = await api(org, 'PATCH', `/payment-instruments/${buyer.paymentInstrumentId}`, { billingAddress: { country: 'GB' } });
    expect(card.status, card.text).toBe(200);
    const afterFirst = (await api(org, 'GET', `/subscriptions/${id}`)).json.data;
    await advanceTo(org, new Date(Date.parse(afterFirst.currentPeriodEnd) + DAY).toISOString());
    expect((await chargesOf(org, id)).map((t) => t.amount)).toEqual([10, 11.9, 12]);
    // Each invoice names where its buyer was taxed.
    expect(await invoice(org, chargeInvoiceId(`renewal:${id}:1`))).toMatchObject({
      totalTax: 0,
      buyer: expect.objectContaining({ country: 'US', state: 'OR' }),
    });
    expect(await invoice(org, chargeInvoiceId(`renewal:${id}:2`))).toMatchObject({
      totalTax: 1.9,
      totalAmount: 11.9,
      items: [expect.objectContaining({ taxRate: 19 })],
      buyer: expect.objectContaining({ country: 'DE', state: null }),
    });
    expect(await invoice(org, chargeInvoiceId(`renewal:${id}:3`))).toMatchObject({
      totalTax: 2,
      totalAmount: 12,
      items: [expect.objectContaining({ taxRate: 20 })],
      buyer: expect.objectContaining({ country: 'GB' }),
    });
    // The card then names a place the platform does not sell to: the next renewal is taxed where the last one was,
    // not left undone.
    expect((await api(org, 'PATCH', `/payment-instruments/${buyer.paymentInstrumentId}`, { billingAddress: { country: 'AQ' } })).status).toBe(200);
    const afterSecond = (await api(org, 'GET', `/subscriptions/${id}`)).json.data;
    await advanceTo(org, new Date(Date.parse(afterSecond.currentPeriodEnd) + DAY).toISOString());
    expect((await chargesOf(org, id)).map((t) => t.amount)).toEqual([10, 11.9, 12, 12]);
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data.status).toBe('active');
  });

  it('keeps, for a retry that pays its invoice as issued, the place it was taxed at: a prorated refund of that period gives back that tax', async () => {
    const { org, buyer, created, id } = await subscribedAt('API retried after a move', 30, { country: 'US', region: 'TX' });
    // Texas, 6.25 %: the renewal is declined; the customer then moves to New York (4 %) and the card pays again.
    await setSandboxInstrumentDecline(org.organizationId, buyer.paymentInstrumentId, 'insufficient_funds');
    await advanceTo(org, new Date(Date.parse(created.json.data.currentPeriodEnd) + 60_000).toISOString());
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data.status).toBe('past-due');
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'US', region: 'NY' } })).status).toBe(200);
    await setSandboxInstrumentDecline(org.organizationId, buyer.paymentInstrumentId, null);
    await advanceTo(org, new Date(Date.parse(created.json.data.currentPeriodEnd) + 1.5 * DAY).toISOString());
    // The retry pays the Texas invoice as issued.
    expect((await chargesOf(org, id)).map((t) => [t.status, t.amount])).toEqual([
      ['completed', 31.88],
      ['declined', 31.88],
      ['completed', 31.88],
    ]);
    const paid = (await api(org, 'GET', `/subscriptions/${id}`)).json.data;
    expect(paid.status).toBe('active');
    // Halfway through that period, a prorated cancellation gives back 15.00 with Texas's 6.25 % (0.94), not New York's.
    const half = new Date((Date.parse(paid.currentPeriodStart) + Date.parse(paid.currentPeriodEnd)) / 2).toISOString();
    await advanceTo(org, half);
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    expect(cancelled.json.data.lineItemsSubtotal).toEqual({ amount: -15.94, currency: 'USD' });
  });

  it("refunds each of a period's payments with the tax it was charged with, wherever the buyer is now: a UK period upgraded after a move to Oregon", async () => {
    const { org, buyer, created, id } = await subscribedAt('API moved, upgraded, cancelled', 10, { country: 'GB' });
    // The period is paid in the UK (20 %): 12.00. The customer moves to Oregon (no sales tax), and halfway through the
    // period the plan goes to 40 USD, prorated: 20.00 for the half left less 5.00 unused of the old, untaxed now.
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'US', region: 'OR' } })).status).toBe(200);
    const { currentPeriodStart, currentPeriodEnd } = created.json.data;
    await advanceTo(org, new Date((Date.parse(currentPeriodStart) + Date.parse(currentPeriodEnd)) / 2).toISOString());
    const bigger = await orgPlan(org, { pricing: { price: 40, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const upgraded = await api(org, 'PUT', `/subscriptions/${id}/items`, { items: [{ plan: bigger.id }], proRataCredit: true });
    expect(upgraded.status, upgraded.text).toBe(200);
    const [first, upgrade] = await chargesOf(org, id);
    expect([first!.amount, upgrade!.amount]).toEqual([12, 15]);
    // Cancelled at once, prorated: the half left is worth 20.00 before tax. The upgrade's payment gives back its 15.00
    // (no tax in it), the UK payment the other 5.00 with the UK's 20 % it was charged (6.00, of which 1.00 tax), not
    // Oregon's 0 %.
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const refundsOf = async (t: { id: string }) =>
      ((await api(org, 'GET', `/transactions/${t.id}/refunds`)).json.data as Array<{ amount: number }>).map((r) => r.amount);
    expect(await refundsOf(upgrade!)).toEqual([15]);
    expect(await refundsOf(first!)).toEqual([6]);
    expect(cancelled.json.data.lineItemsSubtotal).toEqual({ amount: -21, currency: 'USD' });
    // The merchant was owed 12.00 less 2.00 tax less a 0.60 fee, and 15.00 less a 0.75 fee (23.65); it now owes back
    // 20.00 — the 15.00, and the 6.00 less its 1.00 tax, which comes back from the tax owed, not from the merchant.
    expect(await balanceOf(org, 'USD')).toMatchObject({ pending: 23.65, owed: 20 });
  });

  it("resumes after a move at the new place's rate, the pause's credit taken off at it too: one rate over the payment, so its refund gives back that rate", async () => {
    const { org, buyer, created, id } = await subscribedAt('API paused in Oregon, resumed in Germany', 30, { country: 'US', region: 'OR' });
    const { currentPeriodStart, currentPeriodEnd } = created.json.data;
    await advanceTo(org, new Date((Date.parse(currentPeriodStart) + Date.parse(currentPeriodEnd)) / 2).toISOString());
    const paused = await api(org, 'POST', '/subscription-pauses', { subscriptionId: id, endAt: null, pausedBy: 'customer' });
    expect(paused.status, paused.text).toBe(201);
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data.credit).toBe(15);
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'DE' } })).status).toBe(200);
    const resumed = await api(org, 'DELETE', `/subscription-pauses/${paused.json.data.id}`);
    expect(resumed.status, resumed.text).toBe(200);
    // A new period of 30.00, less the 15.00 the pause kept, both at Germany's 19 %: 17.85, of which 2.85 VAT.
    const [, resume] = await chargesOf(org, id);
    expect(resume).toMatchObject({ amount: 17.85, status: 'completed' });
    const charged = await invoice(org, (await getSubscriptionById(id))!.periodInvoiceId!);
    expect(charged).toMatchObject({ totalAmount: 17.85, totalTax: 2.85, buyer: expect.objectContaining({ country: 'DE' }) });
    expect(charged.items.map((i: { amount: number; taxRate: number }) => [i.amount, i.taxRate])).toEqual([
      [30, 19],
      [-15, 19],
    ]);
    // Cancelled at once, prorated: the payment gives back all of itself, its tax in proportion — 19 % of what it paid
    // for (2.85 of 17.85), which is right because its tax is one rate over all of it.
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const refunds = (await api(org, 'GET', `/transactions/${resume!.id}/refunds`)).json.data as Array<{ amount: number }>;
    expect(refunds.map((r) => r.amount)).toEqual([17.85]);
  });

  it('invoices a period paid all by credit where the buyer is then, as a charged one', async () => {
    const { org, buyer, created, id } = await subscribedAt('API paid by credit', 40, { country: 'US', region: 'OR' });
    // Down to 10 USD at once, prorated: the unused 40 less 10 for the same time, about 30 of credit, pays the next period.
    const smaller = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const down = await api(org, 'PUT', `/subscriptions/${id}/items`, { items: [{ plan: smaller.id }], proRataCredit: true });
    expect(down.status, down.text).toBe(200);
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data.credit).toBeGreaterThan(29);
    // The customer moves to Germany before it.
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'DE' } })).status).toBe(200);
    await advanceTo(org, new Date(Date.parse(created.json.data.currentPeriodEnd) + DAY).toISOString());
    expect((await chargesOf(org, id)).map((t) => t.amount)).toEqual([40]);
    expect(await invoice(org, chargeInvoiceId(`renewal:${id}:2`))).toMatchObject({
      status: 'paid',
      totalAmount: 0,
      buyer: expect.objectContaining({ country: 'DE' }),
    });
  });

  it('reactivates where the buyer is now: its invoice names that place, and a prorated cancellation gives back its tax', async () => {
    const { org, buyer, id } = await subscribedAt('API reactivated', 10, { country: 'US', region: 'CA', zip: '94105' });
    expect((await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now' })).status).toBe(201);
    expect((await api(org, 'PATCH', `/customers/${buyer.customerId}`, { address: { country: 'DE' } })).status).toBe(200);
    const back = await api(org, 'POST', '/subscription-reactivations', { subscriptionId: id });
    expect(back.status, back.text).toBe(201);
    const [, reactivation] = await chargesOf(org, id);
    expect(reactivation!.amount).toBe(11.9);
    expect(await invoice(org, chargeInvoiceId(`reactivation:${back.json.data.id}`))).toMatchObject({
      totalAmount: 11.9,
      buyer: expect.objectContaining({ country: 'DE' }),
    });
    // Cancelled at once, prorated: the unused time comes back with the 19 % it was charged at (not California's 7.25 %).
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const refunds = (await api(org, 'GET', `/transactions/${reactivation!.id}/refunds`)).json.data as Array<{ amount: number }>;
    expect(refunds.map((r) => r.amount)).toEqual([expect.closeTo(11.9, 1)]);
    expect(refunds[0]!.amount).toBeGreaterThan(11.8);
  });

  it('charges a reactivation on the card it names, taxed where that card places the buyer; declined there, the subscription keeps its card', async () => {
    const { org, buyer, id } = await subscribedAt('API reactivated on another card', 10, { country: 'US', region: 'CA', zip: '94105' });
    const other = await api(org, 'POST', `/customers/${buyer.customerId}/payment-instruments`, { token: await cardToken(org) });
    expect(other.status, other.text).toBe(201);
    const otherId = other.json.data.id as string;
    expect((await api(org, 'PATCH', `/payment-instruments/${otherId}`, { billingAddress: { country: 'GB' } })).status).toBe(200);
    expect((await api(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now' })).status).toBe(201);

    // Declined on the card named: the subscription stays canceled, on its own card.
    await setSandboxInstrumentDecline(org.organizationId, otherId, 'insufficient_funds');
    const declined = await api(org, 'POST', '/subscription-reactivations', { subscriptionId: id, paymentInstrumentId: otherId });
    expect(declined.status, declined.text).toBe(402);
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data).toMatchObject({ status: 'canceled', paymentInstrumentId: buyer.paymentInstrumentId });
    // Nor where it was last taxed (the place its next charge's previews start from).
    expect((await getSubscriptionById(id))?.billingAddress).toMatchObject({ country: 'US', state: 'CA' });

    await setSandboxInstrumentDecline(org.organizationId, otherId, null);
    const back = await api(org, 'POST', '/subscription-reactivations', { subscriptionId: id, paymentInstrumentId: otherId });
    expect(back.status, back.text).toBe(201);
    const paid = (await chargesOf(org, id)).find((t) => t.id === back.json.data.transactionId);
    // 10.00 with the UK's 20 %, on the card named (not 10.72 with California's 7.25 % on the first card).
    expect(paid).toMatchObject({ status: 'completed', amount: 12, paymentInstrumentId: otherId });
    expect(await invoice(org, chargeInvoiceId(`reactivation:${back.json.data.id}`))).toMatchObject({
      totalTax: 2,
      buyer: expect.objectContaining({ country: 'GB' }),
    });
    expect((await api(org, 'GET', `/subscriptions/${id}`)).json.data).toMatchObject({ status: 'active', paymentInstrumentId: otherId });
  });

  it('refuses a customer with no country, and makes nothing', async () => {
    const org = await organizationAccount('API no address');
    const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const buyer = await customerWithCard(org);
    const refused = await api(org, 'POST', '/subscriptions', { ...buyer, items: [{ plan: plan.id, quantity: 1 }] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.errorCode).toBe('subscription.billing_address_required');
    expect((await api(org, 'GET', '/subscriptions')).json.totalCount).toBe(0);
  });
});
