/**
 * The dashboard's payments area in a real browser: a plan paid at checkout through the API is found in the list by
 * searching its id, opened, and refunded in part through the two-step form (a wrong amount first, said clearly), and
 * the refund shows in the timeline; it is a `dashboard` refund, so no `payment.refunded` is sent. A Member added on
 * the Team page sees the payment without the refund form, and their own same-origin POST of the refund form, with
 * their valid CSRF token, is refused with 403 and refunds nothing. Every page is axe-clean with a screenshot.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceDispute } from '../../../shared/payments/disputes.service.ts';
import { listRefunds } from '../../../shared/payments/refunds.repository.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { call, cardToken, colleagues, orgCall, orgPath, orgPlan, person, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';
import { eventItemsOf } from '../../support/events.ts';

/** A root merchant whose owner signs in to the dashboard, with an activated organization-API account and its key. */
async function shop(name: string) {
  const merchant = await rootMerchant(name);
  const { createAccount } = await import('../../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name: `${name} backend`, mode: 'test', organizationId: merchant.merchantId });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  expect((await call('POST', `${base}/activate`, { body: { secret: account.secret } })).status).toBe(200);
  const key = await call('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  expect(key.status).toBe(201);
  return { organizationId: merchant.merchantId, fullKey: key.json.data.apiKey as string, ownerEmail: merchant.ownerEmail };
}

/** A one-time plan of $10 bought at checkout by a buyer in Germany ($11.90 with VAT): the payment's id. */
async function paidPlan(org: Awaited<ReturnType<typeof shop>>): Promise<string> {
  const plan = await orgPlan(org);
  const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email: uniqueEmail('buyer'), billingAddress: { country: 'DE' } } });
  expect(session.status, session.text).toBe(200);
  const token = await cardToken(org);
  const confirmed = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId: session.json.sessionId, token } });
  expect(confirmed.status, confirmed.text).toBe(200);
  expect(confirmed.json).toMatchObject({ status: 'completed', amount: 11.9 });
  return confirmed.json.transactionId as string;
}

const csrfOf = (page: import('playwright-core').Page) => page.locator('input[name=csrf_token]').first().inputValue();

describe('the dashboard: payments and refunds', { timeout: 120_000 }, () => {
  let browser: Browser;
  let org: Awaited<ReturnType<typeof shop>>;
  let transactionId: string;
  beforeAll(async () => {
    [browser, org] = await Promise.all([launchBrowser(), shop('Refund Pages Shop')]);
    transactionId = await paidPlan(org);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const paymentsPath = () => `/dashboard/merchants/${org.organizationId}/payments`;
  const paymentPath = () => `${paymentsPath()}/${transactionId}`;

  it('finds the paid plan by its id, refunds part of it after the confirmation, and shows the refund in the timeline', async () => {
    const w = await openPage(browser, { allowStatuses: [400] });
    const { page } = w;
    await signInThroughPages(page, org.ownerEmail, undefined, paymentsPath());
    await page.waitForURL(`${origin}${paymentsPath()}`);
    expect(await heading(page)).toBe('Payments');
    expect(await page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name: 'Payments' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page, 'payments');

    await page.getByLabel('Search').fill(transactionId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(new RegExp(`/payments\\?q=${transactionId}&status=&from=&to=$`));
    expect(await page.locator('#count').innerText()).toBe('1 payment match, newest first.');
    const rows = page.locator('main tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('$11.90');
    await expectAccessible(page, 'payments-search');

    // A filter that matches nothing says so, and a bad date is refused with what to type.
    await page.goto(`${origin}${paymentsPath()}?q=${transactionId}&status=refunded`);
    expect(await page.getByRole('main').innerText()).toContain('No payments match these filters.');
    await page.goto(`${origin}${paymentsPath()}?from=yesterday`);
    expect(await page.getByRole('alert').innerText()).toBe('From must be a date like 2025-01-31.');
    await expectAccessible(page, 'payments-bad-filter');

    await page.goto(`${origin}${paymentsPath()}?q=${transactionId}`);
    await rows.first().getByRole('link').click();
    await page.waitForURL(`${origin}${paymentPath()}`);
    expect(await heading(page)).toBe('Payment of $11.90');
    expect(await page.getByLabel('Amount').inputValue()).toBe('11.90');
    await expectAccessible(page, 'payment');

    await page.getByLabel('Amount').fill('4.005');
    await page.getByRole('button', { name: 'Review refund' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe('USD amounts have at most 2 decimals.');
    expect(await page.getByLabel('Amount').inputValue()).toBe('4.005');
    await expectAccessible(page, 'payment-refund-error');

    await page.getByLabel('Amount').fill('4');
    await page.getByLabel('Reason').fill('Damaged in transit');
    await page.getByRole('button', { name: 'Review refund' }).click();
    const question = page.getByRole('heading', { level: 2, name: /^Refund \$4\.00 of / });
    expect(await question.innerText()).toMatch(/^Refund \$4\.00 of .+ \(\$11\.90\)\?$/);
    await expectAccessible(page, 'payment-refund-review');
    expect(await listRefunds(transactionId)).toEqual([]);

    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.waitForURL(`${origin}${paymentPath()}?done=refunded`);
    expect(await page.getByRole('status').innerText()).toBe('The refund is done.');
    const timeline = page.getByRole('table', { name: 'What happened to this payment, oldest first' });
    const events = await timeline.locator('tbody tr').allInnerTexts();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatch(/Charge\s+\$11\.90\s+succeeded/);
    expect(events[1]).toMatch(/Refund\s+\$4\.00\s+refunded\s+Asked from the dashboard · Damaged in transit/);
    expect(await page.getByLabel('Amount').inputValue()).toBe('7.90');
    await expectAccessible(page, 'payment-refunded');

    const refunds = await listRefunds(transactionId);
    expect(refunds).toMatchObject([{ amountMinor: 400, source: 'dashboard', status: 'refunded', reason: 'Damaged in transit' }]);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'partially-refunded', refundedMinor: 400 });
    // Dashboard refunds send no webhook.
    const sent = await eventItemsOf(org.organizationId);
    expect(sent.filter((e) => e.type === 'payment.refunded')).toEqual([]);

    // The confirmation sent again (a double click, a reload) refunds nothing more: its key names the same refund.
    const again = await page.request.post(`${origin}${paymentPath()}`, {
      form: { csrf_token: await csrfOf(page), action: 'refund', amount: '4.00', reason: 'Damaged in transit', key: refunds[0]!.idempotencyKey! },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    expect(await listRefunds(transactionId)).toHaveLength(1);
    // A wrong amount sent straight to the confirmation step is refused with why, and refunds nothing.
    for (const [amount, message] of [
      ['abc', 'Enter the amount in USD as a number with a point before the decimals and no thousands separator, like 12.50.'],
      ['1,5', 'Enter the amount in USD as a number with a point before the decimals and no thousands separator, like 12.50.'],
      ['100', 'That is more than is left to refund: at most $7.90.'],
      ['0', 'Enter an amount more than 0.'],
    ] as const) {
      const res = await page.request.post(`${origin}${paymentPath()}`, {
        form: { csrf_token: await csrfOf(page), action: 'refund', amount, key: `dash_${randomUUID()}` },
        headers: { origin },
        maxRedirects: 0,
      });
      expect(res.status(), amount).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(await listRefunds(transactionId)).toHaveLength(1);
    // A confirmation without its review's key is not this page's: refused, refunding nothing.
    const keyless = await page.request.post(`${origin}${paymentPath()}`, {
      form: { csrf_token: await csrfOf(page), action: 'refund', amount: '1.00' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(keyless.status()).toBe(400);
    expect(await keyless.text()).toContain('This refund form is out of date');
    expect(await listRefunds(transactionId)).toHaveLength(1);
    // The rest refunded, the first confirmation sent again (the back button) still says it was refunded, not that
    // there is nothing left: it is answered as its refund was.
    const rest = await page.request.post(`${origin}${paymentPath()}`, {
      form: { csrf_token: await csrfOf(page), action: 'refund', amount: '7.90', key: `dash_${randomUUID()}` },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(rest.status(), await rest.text()).toBe(303);
    const replayed = await page.request.post(`${origin}${paymentPath()}`, {
      form: { csrf_token: await csrfOf(page), action: 'refund', amount: '4.00', reason: 'Damaged in transit', key: refunds[0]!.idempotencyKey! },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(replayed.status(), await replayed.text()).toBe(303);
    expect(replayed.headers().location).toMatch(/\?done=refunded$/);
    expect(await listRefunds(transactionId)).toHaveLength(2);
    await w.expectClean();
  });

  it('offers no refund of a disputed payment: the page says why, and a review posted anyway is refused with it; once lost, what it left', async () => {
    const disputedId = await paidPlan(org);
    const disputeId = `dsp-${randomUUID()}`;
    const dispute = await orgCall('POST', `${orgPath(org.organizationId)}/disputes/${disputeId}`, {
      fullKey: org.fullKey,
      body: {
        transactionId: disputedId,
        currency: 'USD',
        amount: 5,
        reasonCode: '13.1',
        type: 'consumer-disputes',
        status: 'response-needed',
        postedAt: new Date().toISOString(),
      },
    });
    expect(dispute.status, dispute.text).toBe(201);
    const w = await openPage(browser, { allowStatuses: [400, 422] });
    const { page } = w;
    const path = `${paymentsPath()}/${disputedId}`;
    await signInThroughPages(page, org.ownerEmail, undefined, path);
    await page.waitForURL(`${origin}${path}`);
    const why = 'This payment is disputed: its money is held for the dispute, so it cannot be refunded.';
    expect(await page.getByRole('region', { name: 'Refund' }).innerText()).toContain(why);
    expect(await page.getByRole('button', { name: /Refund/ }).count()).toBe(0);
    const res = await page.request.post(`${origin}${path}`, {
      form: { csrf_token: await csrfOf(page), action: 'review', amount: '1.00' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(422);
    expect(await res.text()).toContain(why);
    expect(await listRefunds(disputedId)).toEqual([]);
    // Lost for 5 of the 11.90: the chargeback gave those back, so the form offers the 6.90 left, and no more.
    await advanceDispute(org.organizationId, disputeId, 'lost');
    await page.goto(`${origin}${path}`);
    expect(await page.getByRole('region', { name: 'Refund' }).innerText()).toContain('$6.90 is left to refund');
    const over = await page.request.post(`${origin}${path}`, {
      form: { csrf_token: await csrfOf(page), action: 'review', amount: '7.00' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(over.status()).toBe(400);
    expect(await over.text()).toContain('That is more than is left to refund: at most $6.90.');
    await w.expectClean();
  });

  it('adds a Member on the Team page, who sees the payment without the refund form and whose own POST of it is refused', async () => {
    const member = await person(uniqueEmail('member'));
    await colleagues(org.ownerEmail, member);
    const owner = await openPage(browser);
    await signInThroughPages(owner.page, org.ownerEmail, undefined, `/dashboard/merchants/${org.organizationId}/team`);
    await owner.page.waitForURL(`${origin}/dashboard/merchants/${org.organizationId}/team`);
    expect(await heading(owner.page)).toBe('Team');
    await owner.page.getByLabel('Email').fill(member.email);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.page.getByRole('button', { name: 'Add member' }).click();
    await owner.page.waitForURL(/\/team\?done=added$/);
    expect(await owner.page.getByRole('status').innerText()).toBe('The member was added.');
    expect(await owner.page.getByRole('row', { name: new RegExp(member.email) }).innerText()).toContain('Member');
    await owner.expectClean();

    const w = await openPage(browser, { allowStatuses: [403] });
    const { page } = w;
    await signInThroughPages(page, member.email, undefined, paymentPath());
    await page.waitForURL(`${origin}${paymentPath()}`);
    expect(await heading(page)).toBe('Payment of $11.90');
    expect(await page.getByRole('button', { name: /Refund/ }).count()).toBe(0);
    expect(await page.getByLabel('Amount').count()).toBe(0);
    await expectAccessible(page, 'payment-member');

    const before = await getTransaction(org.organizationId, transactionId);
    const refundsBefore = (await listRefunds(transactionId)).length;
    const csrf = await csrfOf(page);
    for (const action of ['review', 'refund']) {
      const res = await page.request.post(`${origin}${paymentPath()}`, {
        form: { csrf_token: csrf, action, amount: '1.00', key: `dash_${randomUUID()}` },
        headers: { origin },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(403);
      expect(await res.text()).toContain('You cannot do that here');
    }
    expect(await listRefunds(transactionId)).toHaveLength(refundsBefore);
    expect(await getTransaction(org.organizationId, transactionId)).toEqual(before);
    await w.expectClean();
  });
});
