/**
 * A subscription's invoices follow the money: through the organization API and the sandbox test clock, a
 * subscription cancelled by dunning leaves no open invoice (its unpaid renewal's is voided, once, with the reason,
 * and its PDF says so), and every refund of a charge — a prorated cancellation's, a merchant's — credits the paid
 * invoice with what it gave back.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, inject, it } from 'vitest';
import { setSandboxInstrumentDecline } from '../../../shared/payments/sandbox-cards.service.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { runDue } from '../../../shared/subscriptions/renewals.service.ts';
import { PORTAL_SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { getSubscriptionSummary } from '../../../shared/subscriptions/summaries.service.ts';
import { subscriptionPage } from '../../../shared/dashboard/subscriptions/subscriptions.service.ts';
import type { HttpEvent } from '../../../shared/platform/http/types.ts';
import { chargeInvoiceId } from '../../../shared/invoicing/invoices.rules.ts';
import { checkContract } from '../../support/contract.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, portalSession, uniqueEmail } from '../../support/fixtures.ts';
import { http } from '../../support/http.ts';
import { keptMailsTo, mailsArrived } from '../../support/mails.ts';
import { utcText } from '../../../shared/domain/time.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const DAY = 86_400_000;

const api = (org: Org, method: string, path: string, body?: unknown) =>
  orgCall(method, `${orgPath(org.organizationId)}${path}`, { fullKey: org.fullKey, ...(body === undefined ? {} : { body }) });

async function advanceTo(org: Org, to: string) {
  const res = await api(org, 'POST', '/test-clock/advance', { to });
  expect(res.status, res.text).toBe(200);
}

const invoice = async (org: Org, id: string) => {
  const res = await api(org, 'GET', `/customer-invoices/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
};

/** The text of the invoice's PDF (the merchant API's download). */
async function pdfText(org: Org, id: string): Promise<string> {
  const path = `/v1/public-api/merchants/${org.organizationId}/invoices/${id}/download`;
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { authorization: `Bearer ${org.merchantApiKey}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  checkContract('GET', path, res.status, null, new TextDecoder().decode(bytes), res.headers.get('content-type'), res.headers);
  expect(res.status).toBe(200);
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** A $10 monthly subscription of a California customer, its first period charged: its id and card. */
async function subscribed(org: Org) {
  const plan = await orgPlan(org, { name: 'Monthly plan', pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const email = uniqueEmail('dunned');
  const customer = await api(org, 'POST', '/customers', { email, primaryAddress: { customerAddress: { country: 'US', region: 'CA' } } });
  const card = await api(org, 'POST', `/customers/${customer.json.data.id}/payment-instruments`, { token: await cardToken(org) });
  const created = await api(org, 'POST', '/subscriptions', {
    customerId: customer.json.data.id,
    paymentInstrumentId: card.json.data.id,
    items: [{ plan: plan.id, quantity: 1 }],
  });
  expect(created.status, created.text).toBe(201);
  return {
    id: created.json.data.id as string,
    customerId: customer.json.data.id as string,
    email,
    instrumentId: card.json.data.id as string,
    periodEnd: created.json.data.currentPeriodEnd as string,
  };
}

/** A subscription of `subscribed` past due: its card declines from then on, and its renewal was declined, its invoice open. */
async function pastDue(org: Org) {
  const sub = await subscribed(org);
  await setSandboxInstrumentDecline(org.organizationId, sub.instrumentId, 'insufficient_funds');
  await advanceTo(org, new Date(Date.parse(sub.periodEnd) + DAY).toISOString());
  const renewalInvoice = chargeInvoiceId(`renewal:${sub.id}:2`);
  expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'open', totalAmount: 10.72, voidedAt: null, voidReason: null });
  expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('past-due');
  return { ...sub, renewalInvoice };
}

/** The organization's open invoices, through the merchant API. */
async function openInvoices(org: Org) {
  const open = await call('GET', `/v1/public-api/merchants/${org.organizationId}/invoices?status=open`, { key: org.merchantApiKey });
  expect(open.status, open.text).toBe(200);
  return open.json.data;
}

describe('a failed renewal', () => {
  it('is told to the customer once, by mail: what it came to, the next try, the end, and the billing portal', async () => {
    const org = await organizationAccount('Dunning mail shop');
    // Declined at the renewal, and again at the first retry a day later (pastDue's advance runs both).
    const sub = await pastDue(org);
    // The customer's mails: the renewal's reminder a week before it, then one telling the payment failed.
    const told = await mailsArrived(sub.email, 'payment');
    expect(told.map((m) => m.subject)).toEqual(['Your payment for Monthly plan failed']);
    const day = (days: number) => new Date(Date.parse(sub.periodEnd) + days * DAY).toISOString().slice(0, 10);
    expect(told[0]!.text).toBe(
      [
        `We could not charge 10.72 USD (including 0.72 USD tax) to your card on ${utcText(sub.periodEnd)} for your subscription "Monthly plan" with Dunning mail shop.`,
        '',
        `We will try again on ${day(1)}. If the payment has not gone through by ${day(8)}, the subscription is cancelled.`,
        '',
        `To check your subscription and your card, open your billing portal: ${new URL(inject('baseUrl')).origin}/portal/${org.organizationId} (it sends a sign-in link to this address).`,
        '',
        `Subscription reference: ${sub.id}`,
      ].join('\n'),
    );
    // The portal link is the portal's entry page.
    expect((await http('GET', `/portal/${org.organizationId}`, { baseUrl: new URL(inject('baseUrl')).origin })).status).toBe(200);
  });
});

describe('a mail to the customer', () => {
  it('is written with the step that tells of it: two runs of one reminder at once leave one mail', async () => {
    const org = await organizationAccount('Reminded once shop');
    const sub = await subscribed(org);
    const [stored, organization] = await Promise.all([getSubscriptionById(sub.id), getMerchant(org.organizationId)]);
    // Both decide the reminder on the version they read; one writes it, with its mail, and the other writes nothing.
    const at = new Date(Date.parse(sub.periodEnd) - 3 * DAY).toISOString();
    const runs = await Promise.all([runDue(organization!, stored!, at, 0), runDue(organization!, stored!, at, 0)]);
    for (const after of runs) expect(after.remindedFor).toEqual([sub.periodEnd]);
    const [reminder] = await mailsArrived(sub.email, 'renews');
    expect(reminder!.subject).toBe(`Your Monthly plan subscription renews on ${sub.periodEnd.slice(0, 10)}`);
    // The mail sender sends a mail within a second of its step: two more seconds, and still one.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await keptMailsTo(sub.email, 'renews')).toHaveLength(1);
  });
});

describe("a subscription's invoices when it ends", () => {
  it('voids the unpaid renewal’s invoice once dunning cancels the subscription, and the PDF says void', async () => {
    const org = await organizationAccount('Dunned shop');
    // The renewal is declined: its invoice stays open through dunning.
    const { renewalInvoice, ...sub } = await pastDue(org);

    // Dunning runs out: the system cancels it, and nothing it billed is left open.
    await advanceTo(org, new Date(Date.parse(sub.periodEnd) + 12 * DAY).toISOString());
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('canceled');
    // The customer is told, once: what never went through, that nothing is owed, and where the invoices are.
    const [cancelled] = await mailsArrived(sub.email, 'was cancelled');
    const day = (days: number) => new Date(Date.parse(sub.periodEnd) + days * DAY).toISOString().slice(0, 10);
    expect(cancelled!.text).toBe(
      [
        `Your subscription "Monthly plan" with Dunned shop was cancelled on ${day(8)}: the payment of 10.72 USD (including 0.72 USD tax) for it, declined on ${day(0)}, never went through.`,
        '',
        'Nothing more will be charged for it, and its unpaid invoice is voided: nothing is owed.',
        '',
        `Your billing portal has your subscriptions and invoices: ${new URL(inject('baseUrl')).origin}/portal/${org.organizationId} (it sends a sign-in link to this address).`,
        '',
        `Subscription reference: ${sub.id}`,
      ].join('\n'),
    );
    const voided = await invoice(org, renewalInvoice);
    expect(voided).toMatchObject({ status: 'voided', voidReason: 'subscription_ended', voidedAt: expect.any(String), paidOnDate: null });
    expect(await openInvoices(org)).toEqual([]);
    const pdf = await pdfText(org, renewalInvoice);
    expect(pdf).toContain('VOIDED');
    expect(pdf).toContain('(the subscription it billed ended unpaid; nothing is owed)');

    // The first period's invoice, paid, is untouched.
    expect(await invoice(org, chargeInvoiceId(`renewal:${sub.id}:1`))).toMatchObject({ status: 'paid', creditedAmount: 0 });
  });

  it('refuses a past-due renewal’s open invoice at checkout and its closing through the API: its retries pay it', async () => {
    const org = await organizationAccount('Checkout refused shop');
    const { renewalInvoice } = await pastDue(org);
    const checkout = await call('GET', `/v1/checkout/invoices/${renewalInvoice}`);
    expect(checkout.status, checkout.text).toBe(422);
    expect(checkout.json).toMatchObject({ code: 'checkout.invoice_not_payable', details: { status: 'open' } });
    // Nothing was made: the invoice links no order, and is still open for its retry.
    expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'open' });
    // Nor is it closed through the organization API: its subscription does that.
    for (const action of ['void', 'mark-uncollectible']) {
      const closed = await api(org, 'POST', `/customer-invoices/${renewalInvoice}/${action}`);
      expect(closed.status, `${action}: ${closed.text}`).toBe(422);
      expect(closed.json.errorCode).toBe('customer_invoice.subscription_invoice');
    }
    expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'open' });
  });

  it('voids the unpaid renewal’s invoice when a pause starts, and charges only the period its end starts', async () => {
    const org = await organizationAccount('Paused while past due');
    const { renewalInvoice, ...sub } = await pastDue(org);

    // Paused while past due: the declined period is no longer retried, so its invoice is not owed.
    const paused = await api(org, 'POST', '/subscription-pauses', { subscriptionId: sub.id });
    expect(paused.status, paused.text).toBe(201);
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('paused');
    expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'voided', voidReason: 'subscription_paused', voidedAt: expect.any(String) });
    expect(await pdfText(org, renewalInvoice)).toContain('(the subscription it billed was paused unpaid; nothing is owed)');

    // Resumed with a card that pays: one new period, charged once; the voided invoice stays voided, none is open.
    await setSandboxInstrumentDecline(org.organizationId, sub.instrumentId, null);
    const resumed = await api(org, 'DELETE', `/subscription-pauses/${paused.json.data.id}`);
    expect(resumed.status, resumed.text).toBe(200);
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('active');
    expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'voided' });
    expect(await openInvoices(org)).toEqual([]);
  });

  it("shows a past-due subscription's next charge as its retry charges it: the declined invoice, though the items changed since", async () => {
    const org = await organizationAccount('Past due, items changed');
    const { renewalInvoice, ...sub } = await pastDue(org);

    // While past due the items change to a 25.00 plan, from the next renewal: the retry still pays the 10.72 invoice.
    const dearer = await orgPlan(org, { pricing: { price: 25, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const changed = await api(org, 'PUT', `/subscriptions/${sub.id}/items`, {
      items: [{ plan: dearer.id }],
      retainRenewalTime: 'retain',
      proRataCredit: false,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('past-due');

    // The dashboard's next charge and the portal's are that invoice's, taxed; both say when dunning cancels it (8 days
    // after the decline) unless a retry is paid.
    const merchant = (await getMerchant(org.organizationId))!;
    const summary = await getSubscriptionSummary(merchant, sub.id);
    expect(summary.nextChargeMinor).toBe(1072);
    expect(summary.nextChargeTaxMinor).toBe(72);
    const cancelAt = new Date(Date.parse(summary.dunning!.declinedAt) + 8 * DAY).toISOString();
    expect(summary.dunning).toEqual({ declinedAt: expect.stringMatching(sub.periodEnd.slice(0, 13)), cancelAt });
    const dashboard = await subscriptionPage(merchant, 'owner', { cookies: [] } as unknown as HttpEvent, sub.id);
    expect(/<dd id="next-charge">(.*?)<\/dd>/s.exec(dashboard.body as string)?.[1]).toMatch(
      /^<span class="money">\$10\.72<\/span> on <time .*<\/time> \(including <span class="money">\$0\.72<\/span> tax\)$/,
    );
    expect(/<dd id="dunning">(.*?)<\/dd>/s.exec(dashboard.body as string)?.[1]).toMatch(
      new RegExp(
        `^on <time datetime="${summary.dunning!.declinedAt}".*: retried at the next charge, and cancelled on <time datetime="${cancelAt}".* unless a retry is paid.$`,
        's',
      ),
    );
    const origin = new URL(inject('baseUrl')).origin;
    const cookie = `${PORTAL_SESSION_COOKIE}=${await portalSession(org, sub.customerId)}`;
    const page = await http('GET', `/portal/${org.organizationId}/subscriptions`, { baseUrl: origin, headers: { cookie } });
    expect(page.status).toBe(200);
    const nextCharge = /id="next-charge-[^"]+">(.*?)<\/dd>/s.exec(page.text)?.[1];
    expect(nextCharge).toMatch(/^<span class="money">\$10\.72<\/span> on <time .*<\/time> \(including <span class="money">\$0\.72<\/span> tax\)$/);
    expect(page.text).toMatch(new RegExp(`If it never goes through, the subscription is cancelled on <time datetime="${cancelAt}"`));

    // The card works again: the next retry charges what the pages showed, and pays the invoice.
    await setSandboxInstrumentDecline(org.organizationId, sub.instrumentId, null);
    await advanceTo(org, new Date(Date.parse(sub.periodEnd) + 3 * DAY + 60_000).toISOString());
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('active');
    expect(await invoice(org, renewalInvoice)).toMatchObject({ status: 'paid', totalAmount: 10.72 });
    // The retry's payment says what it paid for, as the declined one did: the period of the items then.
    const charges = (await api(org, 'GET', `/transactions?subscriptionId=${sub.id}&limit=10&sortDirection=asc`)).json.data as Array<{
      status: string;
      description: string;
    }>;
    const [declined, retried] = charges.slice(-2);
    expect(declined!.status).toBe('declined');
    expect(retried).toMatchObject({ status: 'completed', description: declined!.description });
    expect(retried!.description).not.toContain(dearer.name);
  });

  it('credits the paid invoice of a period a prorated cancellation refunds, by the refund', async () => {
    const org = await organizationAccount('Credited shop');
    const sub = await subscribed(org);
    const cancelled = await api(org, 'POST', '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    const [charge] = (await api(org, 'GET', `/transactions?subscriptionId=${sub.id}`)).json.data as Array<{ id: string }>;
    const [refund] = (await api(org, 'GET', `/transactions/${charge!.id}/refunds`)).json.data as Array<{ amount: number }>;
    expect(refund!.amount).toBeGreaterThan(10);
    const credited = await invoice(org, chargeInvoiceId(`renewal:${sub.id}:1`));
    expect(credited).toMatchObject({ status: 'paid', totalAmount: 10.72, creditedAmount: refund!.amount });
    expect(await pdfText(org, credited.id)).toContain(`Credited by refund: ${refund!.amount.toFixed(2)} USD`);
  });

  it("credits the paid invoice of a charge by each of the merchant's refunds of it, once refunded, and the subscription runs on", async () => {
    const org = await organizationAccount('Refunding shop');
    const sub = await subscribed(org);
    const [charge] = (await api(org, 'GET', `/transactions?subscriptionId=${sub.id}`)).json.data as Array<{ id: string }>;
    const paid = chargeInvoiceId(`renewal:${sub.id}:1`);
    for (const amount of [2.5, 1.25]) {
      const refunded = await api(org, 'POST', `/transactions/${charge!.id}/refunds`, { amount });
      expect(refunded.status, refunded.text).toBe(201);
      expect(refunded.json.data.status).toBe('refunded');
    }
    expect(await invoice(org, paid)).toMatchObject({ status: 'paid', totalAmount: 10.72, creditedAmount: 3.75 });
    expect(await pdfText(org, paid)).toContain('Credited by refund: 3.75 USD');
    expect((await api(org, 'GET', `/subscriptions/${sub.id}`)).json.data.status).toBe('active');
  });
});
