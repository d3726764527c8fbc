/**
 * The customer portal in a real browser, keyboard only: the merchant's owner makes a portal link on the customer's
 * dashboard page; the buyer opens it, sees their subscription past due (its renewal declined) with the payment it owes
 * taxed, follows the page's link to replace their card through the hosted fields (the subscription is charged at once
 * and runs again), downloads an invoice and cancels at the next renewal with a reason; the owner's dashboard then
 * says the customer cancelled it, and why. Every page is axe-clean, has no CSP violation, and fits a 390 px phone
 * without scrolling sideways. A merchant that turns cancellation off in the dashboard's portal settings gives its
 * customers a portal without the form.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSandboxInstrumentDecline } from '../../../shared/payments/sandbox-cards.service.ts';
import { axeViolations, invoicePdfsPrefix, PHONE, screenshotAt } from '../../support/browser.ts';
import { organizationAccount, orgCall, orgPath } from '../../support/fixtures.ts';
import { heading, launchBrowser, openPage, origin, signInThroughPages } from '../../dashboard/support.ts';
import { subscriber } from '../support.ts';

let browser: Browser;
let org: Awaited<ReturnType<typeof organizationAccount>>;
let sub: Awaited<ReturnType<typeof subscriber>>;

beforeAll(async () => {
  [browser, org] = await Promise.all([launchBrowser(), organizationAccount('Portal Journey')]);
  sub = await subscriber(org);
  // Its card declines from now on, and its renewal a month on is declined: past due when the buyer arrives.
  await setSandboxInstrumentDecline(org.organizationId, sub.instrumentId, 'insufficient_funds');
  const clock = await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey });
  const to = new Date(Date.parse(clock.json.data.now) + 32 * 86_400_000).toISOString();
  expect((await orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, { fullKey: org.fullKey, body: { to } })).status).toBe(200);
  const status = await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${sub.subscriptionId}`, { fullKey: org.fullKey });
  expect(status.json.data.status).toBe('past-due');
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Tab until the focused element's text (or label) is `name`. */
async function focusOn(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(
      "document.activeElement ? (document.activeElement.labels?.[0]?.innerText || document.activeElement.innerText || '').trim() : ''",
    );
    if (focused === name) return;
  }
  throw new Error(`${name} never got the focus`);
}

/** Clean and readable: no axe violation, and at phone width nothing wider than the screen. */
async function expectUsable(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), name).toEqual([]);
  const size = page.viewportSize()!;
  await page.setViewportSize(PHONE);
  expect(await page.evaluate<number>('document.scrollingElement.scrollWidth'), `${name} at 390 px`).toBeLessThanOrEqual(PHONE.width);
  expect(await axeViolations(page), `${name} at 390 px`).toEqual([]);
  await page.setViewportSize(size);
  await screenshotAt(page, 'portal', name.replace(/ /g, '-'));
}

/** The owner makes a portal link on the customer's page and copies it from the page that shows it once. */
async function portalLinkFromDashboard(): Promise<string> {
  const owner = await openPage(browser);
  await signInThroughPages(owner.page, org.ownerEmail);
  await owner.page.waitForURL((u) => u.pathname !== '/dashboard/sign-in');
  await owner.page.goto(`${origin}/dashboard/merchants/${org.organizationId}/customers/${sub.customerId}`);
  await focusOn(owner.page, 'Make a billing portal link');
  await owner.page.keyboard.press('Enter');
  await owner.page.waitForURL(/\/portal-link$/);
  expect(await heading(owner.page)).toBe('Billing portal link');
  const url = await owner.page.locator('#portal-link').innerText();
  await owner.expectClean();
  await owner.context.close();
  return url;
}

describe('the customer portal in a browser', () => {
  it('takes a buyer from the merchant’s link to a cancellation with a reason, which the dashboard then shows', async () => {
    const url = await portalLinkFromDashboard();
    expect(url).toMatch(new RegExp(`^${origin}/portal/${org.organizationId}/link/mor_portal_[0-9a-f]{64}$`));

    // The invoice's PDF is a redirect to its stored file.
    const buyer = await openPage(browser, { allowRequests: [invoicePdfsPrefix()] });
    const { page } = buyer;
    await page.goto(url);
    expect(await heading(page)).toBe('Your billing');
    await expectUsable(page, 'link');
    await focusOn(page, 'Continue');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/portal/${org.organizationId}/subscriptions`);
    expect(await heading(page)).toBe('Subscriptions');
    const cookie = (await buyer.context.cookies()).find((c) => c.name === '__Host-mor_portal');
    expect(cookie).toMatchObject({ path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });

    // Past due: its renewal was declined. The next charge is that payment (the price and the tax where the customer
    // is, said as such), and the page says it failed, with a way to pay it.
    const nextCharge = await page.locator(`#next-charge-${sub.subscriptionId}`).innerText();
    expect(nextCharge).toMatch(/^\$10\.\d\d on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(including \$0\.\d\d tax\)$/);
    expect(await page.locator(`#past-due-${sub.subscriptionId}`).innerText()).toMatch(
      /^Its last payment failed\. Replace your card and it is charged again at once/,
    );
    await expectUsable(page, 'subscriptions past due');

    // A new card, typed into the hosted fields (a frame of the platform: this page never sees the number).
    await focusOn(page, 'Replace your card');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/payment-method$/);
    expect(await page.locator('#current-card').innerText()).toMatch(/ending in 4242/);
    const frame = page.frameLocator('#card iframe');
    await frame.locator('#number').fill('5555555555554444');
    await frame.locator('#expiry').fill('12/34');
    await frame.locator('#cvc').fill('123');
    await expect.poll(() => page.getByRole('button', { name: 'Save card' }).isEnabled()).toBe(true);
    await focusOn(page, 'Save card');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=card-replaced/);
    expect(await page.locator('#current-card').innerText()).toMatch(/Mastercard card ending in 4444, which expires 12\/2034/);
    await expectUsable(page, 'payment method');
    expect(await page.content()).not.toContain('5555555555554444');

    // Charged at once with it: the subscription runs again, and the page no longer says a payment failed.
    await page.goto(`${origin}/portal/${org.organizationId}/subscriptions`);
    expect(await page.locator(`#past-due-${sub.subscriptionId}`).count()).toBe(0);
    expect(await page.locator(`section[aria-labelledby="sub-${sub.subscriptionId}"] .badge`).innerText()).toBe('active');

    // An invoice, downloaded as a PDF.
    await focusOn(page, 'Invoices');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/invoices$/);
    await expectUsable(page, 'invoices');
    const download = page.waitForEvent('download');
    await focusOn(page, 'Download');
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toMatch(/\.pdf$/);

    // Cancel at the next renewal, with a reason and a comment, from the keyboard.
    await page.goto(`${origin}/portal/${org.organizationId}/subscriptions`);
    await focusOn(page, 'Cancel this subscription');
    await page.keyboard.press('Enter');
    await focusOn(page, 'Why are you cancelling?');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator(`#reason-${sub.subscriptionId}`).inputValue()).toBe('too-expensive');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Cheaper elsewhere');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=cancel-scheduled/);
    expect(await page.getByRole('status').innerText()).toBe('Your subscription will end at the end of the period you paid for.');
    expect(await page.getByRole('button', { name: 'Keep my subscription' }).count()).toBe(1);
    await expectUsable(page, 'cancel scheduled');
    await buyer.expectClean();
    await buyer.context.close();

    const owner = await openPage(browser);
    await signInThroughPages(owner.page, org.ownerEmail);
    await owner.page.waitForURL((u) => u.pathname !== '/dashboard/sign-in');
    await owner.page.goto(`${origin}/dashboard/merchants/${org.organizationId}/subscriptions/${sub.subscriptionId}`);
    expect(await owner.page.locator('#ends').innerText()).toMatch(/cancelled by customer \(too expensive\)$/);
    expect(await owner.page.getByRole('main').innerText()).toContain('Cheaper elsewhere');
    await owner.expectClean();
    await owner.context.close();
    // A whole journey (sign-in by mailed code, the portal, the dashboard): over the 20 s default on a busy 2-core run.
  }, 60_000);

  it('leaves the cancel form out when the merchant turns cancellation off in the dashboard', async () => {
    const owner = await openPage(browser);
    await signInThroughPages(owner.page, org.ownerEmail);
    await owner.page.waitForURL((u) => u.pathname !== '/dashboard/sign-in');
    await owner.page.goto(`${origin}/dashboard/merchants/${org.organizationId}`);
    await owner.page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name: 'Customer portal' }).click();
    expect(await heading(owner.page)).toBe('Customer portal');
    await owner.page.getByLabel('Customers may cancel').uncheck();
    await owner.page.getByLabel('A cancellation in the portal ends the subscription').selectOption('now-prorated');
    await owner.page.getByRole('button', { name: 'Save' }).click();
    await owner.page.waitForURL(/done=saved/);
    expect(await owner.page.getByLabel('Customers may cancel').isChecked()).toBe(false);
    expect(await owner.page.getByLabel('Customers may pause and resume').isChecked()).toBe(true);
    expect(await axeViolations(owner.page)).toEqual([]);
    await owner.expectClean();
    await owner.context.close();

    const other = await subscriber(org);
    const buyer = await openPage(browser);
    const link = await portalLinkFor(other.customerId);
    await buyer.page.goto(link);
    await buyer.page.getByRole('button', { name: 'Continue' }).click();
    await buyer.page.waitForURL(/\/subscriptions$/);
    expect(await buyer.page.getByText('Cancel this subscription').count()).toBe(0);
    expect(await buyer.page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
    await buyer.expectClean();
    await buyer.context.close();
  });
});

/** A portal link the organization's back end makes for its customer. */
async function portalLinkFor(customerId: string): Promise<string> {
  const made = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/portal-sessions`, { fullKey: org.fullKey, body: {} });
  return made.json.data.url as string;
}
