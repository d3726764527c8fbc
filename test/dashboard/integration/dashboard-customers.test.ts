/**
 * The dashboard's customers, subscriptions and invoices, in a real browser: a customer found by search, their page
 * (a saved card shows its brand, last four digits and expiry, nothing more), their subscription paused, resumed and
 * cancelled at the end of its period (the page says when it ends), a refusal of the subscriptions service shown on
 * the page, and an invoice's PDF downloaded; a past-due subscription's page says when its payment failed and when
 * dunning cancels it. Every page is axe-clean with a screenshot. Over HTTP: a Member may read
 * a subscription's page but not cancel it (403, nothing changed).
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSandboxInstrumentDecline } from '../../../shared/payments/sandbox-cards.service.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { nextYear } from '../../support/dates.ts';
import { http } from '../../support/http.ts';
import { call, joinTeam, cardToken, orgCall, orgPath, orgPlan, PASSWORD, person, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { invoicePdfsPrefix } from '../../support/browser.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';

/** A root merchant with its owner and an organization-API key on it (as `organizationAccount`, keeping the owner's e-mail). */
async function shopWithApi(name: string) {
  const owner = await rootMerchant(name);
  const { createAccount } = await import('../../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name: `${name} backend`, mode: 'test', organizationId: owner.merchantId });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  expect((await call('POST', `${base}/activate`, { body: { secret: account.secret } })).status).toBe(200);
  const key = await call('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  expect(key.status).toBe(201);
  return { ...owner, organizationId: owner.merchantId, fullKey: key.json.data.apiKey as string };
}

type Shop = Awaited<ReturnType<typeof shopWithApi>>;

/** A customer with a saved card, subscribed to a monthly plan (its first period charged and invoiced at once). */
async function subscriber(shop: Shop, lastName: string) {
  const plan = await orgPlan(shop, { name: 'Pro monthly', pricing: { price: 12.5, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const customer = await orgCall('POST', `${orgPath(shop.organizationId)}/customers`, {
    fullKey: shop.fullKey,
    body: { email: uniqueEmail('ada'), firstName: 'Ada', lastName, primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } },
  });
  expect(customer.status, customer.text).toBe(201);
  const customerId = customer.json.data.id as string;
  const card = await orgCall('POST', `${orgPath(shop.organizationId)}/customers/${customerId}/payment-instruments`, {
    fullKey: shop.fullKey,
    body: { token: await cardToken(shop) },
  });
  expect(card.status, card.text).toBe(201);
  const sub = await orgCall('POST', `${orgPath(shop.organizationId)}/subscriptions`, {
    fullKey: shop.fullKey,
    body: { customerId, paymentInstrumentId: card.json.data.id, items: [{ plan: plan.id }] },
  });
  expect(sub.status, sub.text).toBe(201);
  expect(sub.json.data.status).toBe('active');
  return { customerId, subscriptionId: sub.json.data.id as string };
}

const getSubscription = (shop: Shop, id: string) => orgCall('GET', `${orgPath(shop.organizationId)}/subscriptions/${id}`, { fullKey: shop.fullKey });

describe('the dashboard: customers, subscriptions and invoices', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('finds a customer, opens them and their subscription, pauses, resumes and cancels it at period end, and downloads an invoice', async () => {
    const shop = await shopWithApi('Lovelace Goods');
    const lastName = `Lovelace${Date.now().toString(36)}`;
    const { subscriptionId } = await subscriber(shop, lastName);

    // Refusals of the service come back as a 409 page; confirmations are accepted.
    // The invoice's PDF is a redirect to its stored file.
    const w = await openPage(browser, { allowStatuses: [409], allowRequests: [invoicePdfsPrefix()] });
    const { page } = w;
    page.on('dialog', (d) => void d.accept());
    await signInThroughPages(page, shop.ownerEmail);
    await page.waitForURL(`${origin}/dashboard`);
    const base = `${origin}/dashboard/merchants/${shop.merchantId}`;

    await page.goto(`${base}/customers`);
    expect(await heading(page)).toBe('Customers');
    await expectAccessible(page, 'customers');
    await page.getByRole('searchbox', { name: 'Search' }).fill(lastName.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${base}/customers?search=${lastName.toLowerCase()}`);
    const rows = page.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(2);
    await expectAccessible(page, 'customers-search');

    await page.getByRole('link', { name: `Ada ${lastName}` }).click();
    expect(await heading(page)).toBe(`Ada ${lastName}`);
    const main = await page.getByRole('main').innerText();
    expect(main).toContain(`Visa ending in 4242, expires 12/${nextYear}`);
    expect(main).not.toMatch(/4242424242|424242/);
    expect(await page.getByRole('region', { name: 'Subscriptions' }).getByRole('row').count()).toBe(2);
    expect(await page.getByRole('region', { name: 'Invoices' }).getByRole('row').count()).toBe(2);
    expect(await page.getByRole('region', { name: 'Payments' }).innerText()).toContain('$12.50');
    await expectAccessible(page, 'customer');

    // The subscriptions list, filtered by status, leads to the same subscription.
    await page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name: 'Subscriptions' }).click();
    expect(await heading(page)).toBe('Subscriptions');
    await page.goto(`${base}/subscriptions?status=active`);
    expect(await page.getByRole('main').innerText()).toContain('Pro monthly');
    await expectAccessible(page, 'subscriptions');
    await page.getByRole('main').getByRole('link', { name: 'Pro monthly' }).first().click();
    await page.waitForURL(`${base}/subscriptions/${subscriptionId}`);
    expect(await heading(page)).toBe('Pro monthly');
    expect(await page.locator('#next-charge').innerText()).toMatch(/^\$12\.50 on /);
    expect(await page.getByRole('region', { name: 'Periods' }).getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'subscription');

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(`${base}/subscriptions/${subscriptionId}?done=paused`);
    expect(await page.getByRole('status').innerText()).toContain('The subscription is paused.');
    expect(await page.getByRole('region', { name: 'Summary' }).innerText()).toContain('Paused since');
    expect((await getSubscription(shop, subscriptionId)).json.data.status).toBe('paused');
    await expectAccessible(page, 'subscription-paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(`${base}/subscriptions/${subscriptionId}?done=resumed`);
    expect(await page.getByRole('status').innerText()).toContain('The subscription runs again');
    expect((await getSubscription(shop, subscriptionId)).json.data.status).toBe('active');
    // The new period has its invoice (paid by the credit of the pause, or charged for what the credit left).
    expect(await page.getByRole('region', { name: 'Invoices' }).getByRole('row').count()).toBe(3);

    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.waitForURL(`${base}/subscriptions/${subscriptionId}?done=cancel_scheduled`);
    const after = (await getSubscription(shop, subscriptionId)).json.data;
    expect(after.status).toBe('active');
    expect(after.endTime).toBe(after.currentPeriodEnd);
    expect(await page.locator('#ends time').getAttribute('datetime')).toBe(after.endTime);
    expect(await page.locator('#ends').innerText()).toMatch(/^Ends on /);
    // Shown in the browser's zone, which it names (the test browser's is UTC).
    expect(await page.locator('#ends time').innerText()).toMatch(/\d{1,2}:\d\d\s?[AP]M UTC$/);
    expect(await page.getByRole('button', { name: 'Cancel at period end' }).count()).toBe(0);
    await expectAccessible(page, 'subscription-ending');
    // The same form sent again (the back button, a double click): answered as done, not refused as a second one.
    const again = await page.request.post(`${base}/subscriptions/${subscriptionId}/cancel`, {
      form: { csrf_token: await page.locator('input[name=csrf_token]').first().inputValue(), action: 'cancel_at_period_end' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    expect(again.headers().location).toMatch(/\?done=cancel_scheduled$/);

    // A second cancellation: the service's refusal, on the page, and nothing changed.
    await page.getByRole('button', { name: 'Cancel now' }).click();
    expect(await heading(page)).toBe('That could not be done');
    expect(await page.getByRole('alert').innerText()).toBe('The subscription has an open cancellation: update or revoke it instead.');
    expect((await getSubscription(shop, subscriptionId)).json.data.status).toBe('active');
    await expectAccessible(page, 'subscription-refused');
    await page.getByRole('link', { name: 'Back to the previous page' }).click();
    await page.waitForURL(`${base}/subscriptions/${subscriptionId}?done=cancel_scheduled`);
    expect(await heading(page)).toBe('Pro monthly');

    await page.getByRole('link', { name: 'Invoices', exact: true }).click();
    expect(await heading(page)).toBe('Invoices');
    expect(await page.getByRole('table').getByRole('row').count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page, 'invoices');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('link', { name: /^Download PDF/ })
        .first()
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^(INV|SUB)-\d+\.pdf$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await w.expectClean();
  });

  it('shows a past-due subscription with the payment it owes, when it failed and when dunning cancels it', async () => {
    const shop = await shopWithApi('Past due goods');
    const { subscriptionId } = await subscriber(shop, `Late${Date.now().toString(36)}`);
    const instrumentId = (await getSubscription(shop, subscriptionId)).json.data.paymentInstrumentId as string;
    // Its card declines from now on, and the renewal a month on is declined.
    await setSandboxInstrumentDecline(shop.organizationId, instrumentId, 'insufficient_funds');
    const clock = await orgCall('GET', `${orgPath(shop.organizationId)}/test-clock`, { fullKey: shop.fullKey });
    const to = new Date(Date.parse(clock.json.data.now) + 32 * 86_400_000).toISOString();
    expect((await orgCall('POST', `${orgPath(shop.organizationId)}/test-clock/advance`, { fullKey: shop.fullKey, body: { to } })).status).toBe(200);
    expect((await getSubscription(shop, subscriptionId)).json.data.status).toBe('past-due');

    const w = await openPage(browser);
    await signInThroughPages(w.page, shop.ownerEmail);
    await w.page.waitForURL(`${origin}/dashboard`);
    await w.page.goto(`${origin}/dashboard/merchants/${shop.merchantId}/subscriptions/${subscriptionId}`);
    expect(await w.page.locator('#next-charge').innerText()).toMatch(/^\$12\.50 on /);
    expect(await w.page.locator('#dunning').innerText()).toMatch(/^on .+: retried at the next charge, and cancelled on .+ unless a retry is paid\.$/);
    await expectAccessible(w.page, 'subscription-past-due');
    await w.expectClean();
    await w.context.close();
  });

  it("lets a Member read a subscription's page but not cancel it: 403, and nothing changes", async () => {
    const shop = await shopWithApi('Member Rules Shop');
    const { subscriptionId } = await subscriber(shop, 'Member');
    const ownerSession = (await call('POST', '/v1/dashboard/sessions', { body: { email: shop.ownerEmail, password: PASSWORD } })).json.token as string;
    const member = await person();
    await joinTeam(shop.merchantId, ownerSession, member);

    const path = `/dashboard/merchants/${shop.merchantId}/subscriptions/${subscriptionId}`;
    const cookie = `${SESSION_COOKIE}=${member.token}`;
    const before = (await getSubscription(shop, subscriptionId)).json.data;
    const read = await http('GET', path, { baseUrl: origin, headers: { cookie } });
    expect(read.status).toBe(200);
    expect(read.text).toContain('An owner or admin can cancel, pause or resume this subscription.');
    expect(read.text).not.toContain('Cancel now');

    const cancel = await http('POST', `${path}/cancel`, {
      baseUrl: origin,
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrfTokenOf(member.token), action: 'cancel_now' }).toString(),
    });
    expect(cancel.status).toBe(403);
    expect(cancel.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const after = (await getSubscription(shop, subscriptionId)).json.data;
    expect(after).toEqual(before);
    const cancellations = await orgCall('GET', `${orgPath(shop.organizationId)}/subscription-cancellations`, { fullKey: shop.fullKey });
    expect(cancellations.json.data.filter((c: { subscriptionId: string }) => c.subscriptionId === subscriptionId)).toEqual([]);
  });
});
