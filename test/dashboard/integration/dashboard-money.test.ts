/**
 * The dashboard's money pages in a real browser: Payouts (a payout method added, a payout requested with the same
 * form sent twice paying once) and Checkout settings (the colours saved with a live preview, then seen on the hosted
 * checkout page). Every page is axe-clean with a screenshot. Over HTTP: a Member's direct post of an owner's form
 * gets 403 and changes nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { solidPng } from '../../support/images.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { HOLD_DAYS } from '../../../shared/money/ledger.rules.ts';
import { call, joinTeam, organizationAccount, orgPlan, orgProduct, PASSWORD, payByCard, uniqueEmail } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages, signUpThroughPages } from '../support.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
const dash = (merchantId: string, rest = '') => `${origin}/dashboard/merchants/${merchantId}${rest}`;

/** The page's form fields by name, as its form would send them. */
const formOf = (page: Page, selector: string) =>
  page.evaluate(`Object.fromEntries([...new FormData(document.querySelector(${JSON.stringify(selector)})).entries()])`) as Promise<Record<string, string>>;

/** An owner's session token for the dashboard back end. */
async function sessionOf(email: string): Promise<string> {
  const res = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(201);
  return res.json.token as string;
}

describe('the dashboard: payouts and checkout settings', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds a payout method and requests a payout whose form, sent twice, pays once; a Member may do neither', async () => {
    const org = await organizationAccount('Payout Pages Shop');
    expect((await payByCard(org, 100, 'EUR')).status).toBe(201);
    expect(await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId })).toBe(1);

    // The refused forms answer their page with 400 and 422.
    const w = await openPage(browser, { allowStatuses: [400, 422] });
    const { page } = w;
    await signInThroughPages(page, org.ownerEmail);
    await page.waitForURL(`${origin}/dashboard`);
    await page.goto(dash(org.organizationId, '/payouts'));
    expect(await heading(page)).toBe('Payouts');
    expect(await page.locator('.stat').first().innerText()).toBe('€95.00 available');
    expect(await page.getByRole('main').innerText()).toContain('Add a payout method below first');
    await expectAccessible(page, 'payouts-no-method');

    await page.getByLabel('Account holder').fill('Jane Seller');
    await page.getByLabel('Country').fill('DE');
    await page.getByLabel('Currency', { exact: true }).fill('EUR');
    await page.getByLabel('Account number').fill('DE89 3704 0044 0532 0130 01');
    await page.getByRole('button', { name: 'Add payout method' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('Account number:');
    expect(await page.getByLabel('Account holder').inputValue()).toBe('Jane Seller');
    await expectAccessible(page, 'payouts-method-refused');
    await page.getByLabel('Account number').fill(IBAN);
    await page.getByRole('button', { name: 'Add payout method' }).click();
    await page.waitForURL(dash(org.organizationId, '/payouts?done=method_added'));
    expect(await page.getByRole('status').innerText()).toBe('The payout method was added.');
    expect(await page.getByRole('table', { name: 'Payout methods' }).innerText()).toContain('•••• 3000');

    // Each showing of the page has its own key.
    const firstKey = await page.locator('input[name=idempotency_key]').inputValue();
    await page.reload();
    const key = await page.locator('input[name=idempotency_key]').inputValue();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(key).not.toBe(firstKey);

    // The same form sent twice at once (a double submit): both end on the page, one payout is made.
    await page.getByLabel('Amount').fill('30');
    const form = await formOf(page, 'form:has(input[name=idempotency_key])');
    expect(form).toMatchObject({ action: 'request_payout', amount: '30', currency: 'EUR', idempotency_key: key });
    const post = () => page.request.post(dash(org.organizationId, '/payouts'), { form, headers: { origin }, maxRedirects: 0 });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status())).toEqual([303, 303]);
    expect(answers.map((a) => a.headers().location)).toEqual([
      dash(org.organizationId, '/payouts?done=payout_requested'),
      dash(org.organizationId, '/payouts?done=payout_requested'),
    ]);
    // And once more later, as a reload of the answer would.
    expect((await post()).status()).toBe(303);

    await page.goto(dash(org.organizationId, '/payouts?done=payout_requested'));
    expect(await page.getByRole('status').innerText()).toContain('The payout was requested.');
    const history = page.getByRole('table', { name: 'Payouts, newest first' });
    expect(await history.locator('tbody tr').count()).toBe(1);
    expect(await history.locator('tbody tr').innerText()).toContain('€30.00');
    expect(await history.locator('tbody tr').innerText()).toContain('pending');
    expect(await page.locator('.stat').first().innerText()).toBe('€65.00 available');
    await expectAccessible(page, 'payouts-requested');
    const list = await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts`, { key: org.merchantApiKey });
    expect(list.json.pagination.totalCount).toBe(1);

    // Above the available funds: the reason, and nothing paid.
    await page.getByLabel('Amount').fill('100');
    await page.getByRole('button', { name: 'Request payout' }).click();
    expect(await page.getByRole('alert').innerText()).toBe('The amount is more than the available funds in this currency.');
    expect(await page.locator('input[name=idempotency_key]').inputValue()).not.toBe(key);
    // A decimal comma is refused, never read as a bigger amount (1,5 is not 15).
    for (const typed of ['1,5', '1,500.00']) {
      await page.getByLabel('Amount').fill(typed);
      await page.getByRole('button', { name: 'Request payout' }).click();
      expect(await page.getByRole('alert').innerText()).toBe(
        'Enter the amount in EUR as a number with a point before the decimals and no thousands separator, like 12.50.',
      );
    }
    expect((await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts`, { key: org.merchantApiKey })).json.pagination.totalCount).toBe(1);
    await w.expectClean();

    // A Member sees the page without the owners' forms, and a direct post of them changes nothing.
    const m = await openPage(browser, { allowStatuses: [403] });
    const memberEmail = await signUpThroughPages(m.page, uniqueEmail('member'));
    await m.page.waitForURL(`${origin}/dashboard`);
    await joinTeam(org.organizationId, await sessionOf(org.ownerEmail), { email: memberEmail, token: await sessionOf(memberEmail) });
    await m.page.goto(dash(org.organizationId, '/payouts'));
    expect(await m.page.getByRole('button', { name: 'Request payout' }).count()).toBe(0);
    expect(await m.page.getByRole('button', { name: 'Add payout method' }).count()).toBe(0);
    expect(await m.page.getByRole('main').innerText()).toContain('An owner or admin can request payouts.');
    await expectAccessible(m.page, 'payouts-member');
    const csrf = await m.page.locator('input[name=csrf_token]').first().inputValue();
    const memberPost = await m.page.request.post(dash(org.organizationId, '/payouts'), {
      form: { ...form, csrf_token: csrf, idempotency_key: 'member-key' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(memberPost.status()).toBe(403);
    const memberMethod = await m.page.request.post(dash(org.organizationId, '/payouts'), {
      form: { csrf_token: csrf, action: 'add_method', holder_name: 'Mallory', country: 'DE', currency: 'EUR', account_number: IBAN },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(memberMethod.status()).toBe(403);
    expect((await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts`, { key: org.merchantApiKey })).json.pagination.totalCount).toBe(1);
    expect((await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts/payout-methods`, { key: org.merchantApiKey })).json.data).toHaveLength(1);
    const methodId = (await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts/payout-methods`, { key: org.merchantApiKey })).json.data[0].id;
    const memberRemove = await m.page.request.post(dash(org.organizationId, '/payouts'), {
      form: { csrf_token: csrf, action: 'remove_method', payout_method_id: methodId },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(memberRemove.status()).toBe(403);
    await m.expectClean();

    // The owner removes it (asked first), as the limit's message tells them to.
    page.on('dialog', (d) => void d.accept());
    await page.goto(dash(org.organizationId, '/payouts'));
    await page.getByRole('button', { name: 'Remove the account ending in 3000' }).click();
    await page.waitForURL(dash(org.organizationId, '/payouts?done=method_removed'));
    expect(await page.getByRole('status').innerText()).toBe('The payout method was removed: payouts no longer go to it.');
    expect((await call('GET', `/v1/public-api/merchants/${org.organizationId}/payouts/payout-methods`, { key: org.merchantApiKey })).json.data).toEqual([]);
    await expectAccessible(page, 'payouts-method-removed');
  });

  it('changes the checkout colours with a live preview, refuses a brand colour without contrast, and the hosted checkout shows them', async () => {
    const org = await organizationAccount('Colour Pages Shop');
    const product = await orgProduct(org, { type: 'one-time', name: 'Teal hammer' });
    const plan = await orgPlan(org, { name: 'One hammer', pricing: { price: 25, formula: 'fixed-fee' } }, { productId: product.id });

    // The refused forms answer their page with 422 (the contrast) and 400 (an http:// policy URL).
    const w = await openPage(browser, { allowStatuses: [400, 422] });
    const { page } = w;
    await signInThroughPages(page, org.ownerEmail);
    await page.waitForURL(`${origin}/dashboard`);
    await page.goto(dash(org.organizationId, '/checkout-settings'));
    expect(await heading(page)).toBe('Checkout settings');
    await expectAccessible(page, 'checkout-settings');

    // Evaluated in the page (strings: this file is not compiled with the DOM's types).
    const previewVar = (name: string) =>
      page.evaluate(`getComputedStyle(document.getElementById('checkout-preview')).getPropertyValue(${JSON.stringify(name)}).trim()`) as Promise<string>;
    await page.getByLabel('Display name').fill('Teal Tools');
    await page.getByLabel('Brand colour').fill('#FFFF00');
    expect(await previewVar('--preview-brand')).toBe('#FFFF00');
    expect(await page.locator('#checkout-preview [data-preview-name-target]').innerText()).toBe('Teal Tools');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Said with the field's label, at the field (marked invalid), and not drawn in the preview: the page stays accessible.
    expect(await page.getByRole('alert').innerText()).toContain('Brand colour: #FFFF00 has a contrast ratio of 1.07:1');
    const brand = page.getByLabel('Brand colour');
    expect(await brand.inputValue()).toBe('#FFFF00');
    expect(await brand.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await brand.getAttribute('aria-describedby').then((ids) => ids!.split(' ')[0])}`).innerText()).toContain('contrast ratio');
    expect(await previewVar('--preview-brand')).toBe('');
    await expectAccessible(page, 'checkout-settings-refused');

    await page.getByLabel('Brand colour').fill('#0F766E');
    await page.getByLabel('Accent colour').fill('#F59E0B');
    expect(await previewVar('--preview-brand')).toBe('#0F766E');
    expect(await previewVar('--preview-accent')).toBe('#F59E0B');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=customization'));
    expect(await page.getByLabel('Brand colour').inputValue()).toBe('#0F766E');
    await expectAccessible(page, 'checkout-settings-saved');

    await page.getByRole('textbox', { name: 'Website' }).fill('https://teal.example');
    await page.getByRole('button', { name: 'Save website' }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=website'));
    expect(await page.getByRole('textbox', { name: 'Website' }).inputValue()).toBe('https://teal.example');
    await page.getByLabel('Terms of service URL').fill('http://teal.example/terms');
    await page.getByRole('button', { name: 'Save policies' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('Terms of service URL');
    await page.getByLabel('Terms of service URL').fill('https://teal.example/terms');
    await page.getByRole('button', { name: 'Save policies' }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=policies'));

    // The logo: the page's script sends the file to the dashboard API, then shows the page again with it.
    await page.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(120, 40, '0f766e') });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=logo'));
    expect(await page.getByRole('status').innerText()).toBe('The logo was saved. Buyers see it on the hosted checkout pages now.');
    await expect.poll(() => page.locator('#checkout-preview img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(120);
    await expectAccessible(page, 'checkout-settings-logo');
    await w.expectClean();

    // The hosted checkout applies them (a page of its own: its API answers are checked by the checkout page tests).
    const buyer = await (await browser.newContext()).newPage();
    const buyerErrors: string[] = [];
    buyer.on('pageerror', (e) => buyerErrors.push(e.message));
    buyer.on('console', (m) => {
      if (m.type() === 'error') buyerErrors.push(m.text());
    });
    await buyer.goto(`${origin}/checkout/plans/${plan.id}`);
    await expect.poll(() => buyer.locator('main').getAttribute('data-state')).toBe('ready');
    expect(await buyer.locator('#merchant').innerText()).toBe('Teal Tools · test mode');
    const root = (name: string) =>
      buyer.evaluate(`getComputedStyle(document.documentElement).getPropertyValue(${JSON.stringify(name)}).trim()`) as Promise<string>;
    expect(await root('--brand')).toBe('#0F766E');
    expect(await root('--accent')).toBe('#F59E0B');
    expect(await buyer.locator('#policies a').first().getAttribute('href')).toBe('https://teal.example/terms');
    await expect.poll(() => buyer.locator('#logo').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(120);
    expect(buyerErrors).toEqual([]);
  });
});
