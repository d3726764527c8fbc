/**
 * The hosted checkout page with a merchant's customization, in Chromium: the display name, the brand colour on
 * the pay button (white text at 4.5:1 or more) and links, the accent colour, the logo and the product's first
 * image, all under the page's strict CSP (no console error, no request to another origin), with no axe violation. The screenshot is kept
 * in `test-results/checkout-page/customized.png`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { contrastRatio } from '../../../shared/organizations/customization.rules.ts';
import { solidPng } from '../../support/images.ts';
import { call, orgPlan, orgProduct, PASSWORD, rootMerchant } from '../../support/fixtures.ts';
import { launchBrowser, screenshot } from '../../support/browser.ts';

const origin = new URL(inject('baseUrl')).origin;
const screenshots = path.resolve('test-results/checkout-page');

/** What the test reads of a loaded image. */
interface Loaded {
  complete: boolean;
  naturalWidth: number;
}

/** `rgb(r, g, b)` as `#RRGGBB`. */
const hexOf = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;

/** A merchant with its signed-up owner, a merchant API key and an organization API key (as `organizationAccount` makes them). */
async function organizationWithOwner(name: string) {
  const merchant = await rootMerchant(name);
  const { createAccount } = await import('../../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name: `${name} backend`, mode: 'test', organizationId: merchant.merchantId });
  const accountPath = `/v1/public-api/accounts/${account.accountId}`;
  expect((await call('POST', `${accountPath}/activate`, { body: { secret: account.secret } })).status).toBe(200);
  const key = await call('POST', `${accountPath}/api-keys`, { body: { secret: account.secret } });
  expect(key.status).toBe(201);
  return { organizationId: merchant.merchantId, merchantApiKey: merchant.apiKey, ownerEmail: merchant.ownerEmail, fullKey: key.json.data.apiKey as string };
}

describe('a customized checkout page in a browser', { timeout: 90_000 }, () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    browser = await launchBrowser({ singleProcess: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the display name, logo, product image and colours, under the strict CSP', async () => {
    const org = await organizationWithOwner('Plain Legal Name Ltd');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
    expect(session.status).toBe(201);
    const token = session.json.token as string;
    const customization = `/v1/dashboard/merchants/${org.organizationId}/checkout-customization`;
    const BRAND = '#0F766E';
    const ACCENT = '#F59E0B';
    expect((await call('PUT', customization, { key: token, body: { displayName: 'Teal Tools', brandColor: BRAND, accentColor: ACCENT } })).status).toBe(200);
    const logo = await call('PUT', `${customization}/logo`, {
      key: token,
      body: { contentType: 'image/png', data: solidPng(120, 40, BRAND).toString('base64') },
    });
    expect(logo.status).toBe(200);

    const product = await orgProduct(org, { type: 'one-time', name: 'Teal hammer' });
    const plan = await orgPlan(org, { name: 'One hammer', pricing: { price: 25, formula: 'fixed-fee' } }, { productId: product.id });
    const images = `/v1/public-api/merchants/${org.organizationId}/products/${product.id}/images/uploads`;
    const png = solidPng(320, 200, '#B45309');
    const up = await call('POST', images, { key: org.merchantApiKey, body: { contentType: 'image/png', sizeBytes: png.length } });
    expect((await fetch(up.json.uploadUrl, { method: 'PUT', headers: up.json.headers, body: png })).ok).toBe(true);
    expect((await call('POST', `${images}/${up.json.uploadId}/confirm`, { key: org.merchantApiKey })).status).toBe(200);

    const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Any console error fails the test: the page asks for nothing that does not exist (no policy PDF probing).
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin !== origin && u.protocol !== 'data:') foreign.push(r.url());
    });
    await page.goto(`${origin}/checkout/plans/${plan.id}`);
    await expect.poll(() => page.locator('main').getAttribute('data-state')).toBe('ready');

    expect(await page.locator('#merchant').innerText()).toBe('Teal Tools · test mode');
    expect(await page.title()).toBe('Teal hammer — Teal Tools');
    // The logo and the product image are loaded from the platform's origin.
    for (const selector of ['#logo', '#product-image']) {
      await expect
        .poll(() => page.locator(selector).evaluate((img) => (img as unknown as Loaded).complete && (img as unknown as Loaded).naturalWidth > 0))
        .toBe(true);
      expect(await page.locator(selector).isVisible(), selector).toBe(true);
      expect(new URL((await page.locator(selector).getAttribute('src'))!, origin).origin).toBe(origin);
    }
    expect(await page.locator('#logo').evaluate((img) => (img as unknown as Loaded).naturalWidth)).toBe(120);
    expect(await page.locator('#logo').getAttribute('alt')).toBe('');
    expect(await page.locator('#product-image').getAttribute('alt')).toBe('Teal hammer');

    // The colours: custom properties on the root, applied to the button (white text on the brand colour) and the header rule.
    // Evaluated in the page (a string, as this file is not compiled with the DOM's types).
    const style = (await page.evaluate(`(() => {
      const root = getComputedStyle(document.documentElement);
      const button = getComputedStyle(document.getElementById('continue'));
      const header = getComputedStyle(document.querySelector('header.brand'));
      return {
        brand: root.getPropertyValue('--brand').trim(),
        accent: root.getPropertyValue('--accent').trim(),
        buttonBackground: button.backgroundColor,
        buttonText: button.color,
        headerRule: header.borderBottomColor,
      };
    })()`)) as { brand: string; accent: string; buttonBackground: string; buttonText: string; headerRule: string };
    expect(style.brand).toBe(BRAND);
    expect(style.accent).toBe(ACCENT);
    expect(hexOf(style.buttonBackground)).toBe(BRAND);
    expect(hexOf(style.buttonText)).toBe('#FFFFFF');
    expect(contrastRatio(hexOf(style.buttonBackground), hexOf(style.buttonText))).toBeGreaterThanOrEqual(4.5);
    expect(hexOf(style.headerRule)).toBe(ACCENT);

    // Every image has a text alternative (empty for the logo, whose name is beside it).
    expect(await page.locator('img:not([alt])').count()).toBe(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await screenshot(page, path.join(screenshots, 'customized.png'));
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
