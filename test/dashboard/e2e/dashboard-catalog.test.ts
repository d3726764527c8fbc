/**
 * The dashboard's Catalog page in a real browser: an owner creates a subscription product and a plan on it (a price
 * with more decimals than its currency allows is refused with the reason, the form kept), opens the plan's checkout
 * link (the hosted checkout shows the product, the plan and its price), creates a promo code and deactivates it, and
 * archives the plan. Every state is axe-clean with a screenshot; the plans table, with its checkout link and Archive
 * button, fits the window at 1280 and 1024 px (nothing scrolls sideways) and stacks on a phone. Over HTTP: a Member
 * sees the lists without the forms, and their direct post of the create-product form gets 403 and creates nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, joinTeam, PASSWORD, person, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { axeViolations, DESKTOP, PHONE } from '../../support/browser.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';

const acceptDialogs = (page: Page) => page.on('dialog', (d) => void d.accept());
const catalogPath = (merchantId: string) => `/dashboard/merchants/${merchantId}/catalog`;

/**
 * What is wider than its box: the document (the window scrolls sideways), or a table's wrapper (the table scrolls
 * inside it); one line each.
 */
const overflowing = (page: Page) =>
  page.evaluate(`[document.documentElement, ...document.querySelectorAll('main .table-wrap')]
    .filter((e) => e.scrollWidth > e.clientWidth)
    .map((e) => (e === document.documentElement ? 'the document' : e.querySelector('caption').textContent) + ': ' + e.scrollWidth + ' > ' + e.clientWidth)`) as Promise<
    string[]
  >;

/** The document is no wider than the window: `scrollWidth <= clientWidth` of the root element. */
const fitsTheWindow = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth') as Promise<boolean>;

describe('the dashboard: catalog', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a product and a plan (a bad amount refused with why), opens its checkout link, makes and deactivates a promo code, archives the plan', async () => {
    const shop = await rootMerchant('Catalog Shop');
    const path = catalogPath(shop.merchantId);
    const w = await openPage(browser, { allowStatuses: [400] });
    const { page } = w;
    acceptDialogs(page);
    await signInThroughPages(page, shop.ownerEmail, undefined, path);
    await page.waitForURL(`${origin}${path}`);
    expect(await heading(page)).toBe('Catalog');
    const main = page.getByRole('main');
    expect(await main.innerText()).toContain('No products yet. Create a product below, then a plan to sell it at.');
    expect(await main.innerText()).toContain('Create a product first: a plan is a price of a product.');
    await expectAccessible(page, 'catalog-empty');

    const productForm = page.getByRole('region', { name: 'Create a product' });
    await productForm.getByLabel('Name', { exact: true }).fill('Pro seat');
    await productForm.getByLabel('Description').fill('One seat of the Pro edition');
    await productForm.getByLabel('Sold').selectOption('recurring');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(`${origin}${path}?done=product_created`);
    expect(await page.getByRole('status').innerText()).toBe('The product was created.');
    expect(await page.getByRole('row', { name: /Pro seat/ }).innerText()).toMatch(/As a subscription[\s\S]*active/);

    const planForm = page.getByRole('region', { name: 'Create a plan' });
    await planForm.getByLabel('Product').selectOption({ label: 'Pro seat (subscription)' });
    await planForm.getByLabel('Name', { exact: true }).fill('Pro monthly');
    // A decimal comma is refused, never read as a bigger price (19,99 is not 1999).
    await planForm.getByLabel('Amount').fill('19,99');
    await planForm.getByLabel('Currency').fill('USD');
    await planForm.getByLabel('Billed').selectOption('month');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe(
      'Enter the amount in USD as a number with a point before the decimals and no thousands separator, like 12.50.',
    );
    await planForm.getByLabel('Amount').fill('19.999');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe('The amount has more decimals than USD allows.');
    expect(await planForm.getByLabel('Amount').inputValue()).toBe('19.999');
    expect(await planForm.getByLabel('Name', { exact: true }).inputValue()).toBe('Pro monthly');
    expect(await main.innerText()).toContain('No plans yet.');
    await expectAccessible(page, 'catalog-plan-refused');

    await planForm.getByLabel('Amount').fill('19.99');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.waitForURL(`${origin}${path}?done=plan_created`);
    const planRow = page.getByRole('row', { name: /Pro monthly/ });
    expect(await planRow.innerText()).toMatch(/Pro seat[\s\S]*\$19\.99 every month[\s\S]*active/);
    const link = planRow.getByRole('link');
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${origin}/checkout/plans/plan_[0-9a-f]{32}$`));
    expect(await link.innerText()).toBe(href);
    await expectAccessible(page, 'catalog-plan-created');

    // The plans table fits a desktop window: at 1280 and 1024 px nothing scrolls sideways, the checkout link and the
    // Archive button in view; on a phone each plan is a block of its cells.
    const archive = planRow.getByRole('button', { name: 'Archive the plan Pro monthly' });
    for (const width of [DESKTOP.width, 1024]) {
      await page.setViewportSize({ width, height: DESKTOP.height });
      expect(await fitsTheWindow(page), `${width} px`).toBe(true);
      expect(await overflowing(page), `${width} px`).toEqual([]);
      for (const control of [link, archive]) {
        const box = await control.boundingBox();
        expect(box!.x + box!.width, `${width} px`).toBeLessThanOrEqual(width);
      }
      expect(await axeViolations(page), `${width} px`).toEqual([]);
    }
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('section[aria-labelledby="plans"] tbody tr')).display`)).toBe('block');
    expect(await overflowing(page), 'phone').toEqual([]);
    await page.setViewportSize(DESKTOP);

    // The link sells the plan: the hosted checkout page shows it (a page of its own, its API answers checked by the checkout tests).
    const buyer = await (await browser.newContext()).newPage();
    const buyerErrors: string[] = [];
    buyer.on('pageerror', (e) => buyerErrors.push(e.message));
    buyer.on('console', (m) => {
      if (m.type() === 'error') buyerErrors.push(m.text());
    });
    await buyer.goto(href!);
    await expect.poll(() => buyer.locator('main').getAttribute('data-state')).toBe('ready');
    expect(await buyer.locator('#title').innerText()).toBe('Pro seat');
    // The product's description under its name; the plan's name once, in the summary.
    expect(await buyer.locator('#subtitle').innerText()).toBe('One seat of the Pro edition');
    expect(await buyer.locator('main').innerText()).toContain('Pro monthly');
    expect(await buyer.locator('#price').innerText()).toBe('$19.99 every month');
    expect(buyerErrors).toEqual([]);
    await buyer.close();

    const promoForm = page.getByRole('region', { name: 'Create a promo code' });
    await promoForm.getByLabel('Code').fill('WELCOME10');
    await promoForm.getByLabel('Percent off').fill('10');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    await page.waitForURL(`${origin}${path}?done=promo_created`);
    const promoRow = page.getByRole('row', { name: /WELCOME10/ });
    expect(await promoRow.innerText()).toMatch(/10% off[\s\S]*0[\s\S]*active/);
    await expectAccessible(page, 'catalog-promo-created');

    await page.getByRole('button', { name: 'Deactivate the promo code WELCOME10' }).click();
    await page.waitForURL(`${origin}${path}?done=promo_deactivated`);
    expect(await page.getByRole('status').innerText()).toBe('The promo code was deactivated.');
    expect(await promoRow.innerText()).toContain('inactive');
    expect(await page.getByRole('button', { name: 'Deactivate the promo code WELCOME10' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Archive the plan Pro monthly' }).click();
    await page.waitForURL(`${origin}${path}?done=plan_archived`);
    expect(await page.getByRole('status').innerText()).toBe('The plan was archived; its checkout link no longer sells it.');
    expect(await planRow.innerText()).toContain('archived');
    expect(await planRow.getByRole('link').count()).toBe(0);
    await expectAccessible(page, 'catalog-plan-archived');
    await w.expectClean();
  });

  it('shows a Member the lists without the forms, and refuses their direct post with 403, creating nothing', async () => {
    const shop = await rootMerchant('Catalog Member Shop');
    const member = await person(uniqueEmail('catalog-member'));
    const ownerSession = await call('POST', '/v1/dashboard/sessions', { body: { email: shop.ownerEmail, password: PASSWORD } });
    await joinTeam(shop.merchantId, ownerSession.json.token, member);

    const path = catalogPath(shop.merchantId);
    const w = await openPage(browser, { allowStatuses: [403] });
    const { page } = w;
    await signInThroughPages(page, member.email, undefined, path);
    await page.waitForURL(`${origin}${path}`);
    expect(await heading(page)).toBe('Catalog');
    expect(await page.getByRole('main').innerText()).toContain('No products yet. Owners and admins create them.');
    expect(await page.getByRole('button', { name: 'Create product' }).count()).toBe(0);
    await expectAccessible(page, 'catalog-member');

    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const res = await page.request.post(`${origin}${path}`, {
      form: { csrf_token: csrf, action: 'create_product', name: 'Sneaky product' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    const products = await call('GET', `/v1/public-api/merchants/${shop.merchantId}/products`, { key: shop.apiKey });
    expect(products.status, products.text).toBe(200);
    expect(products.json.data).toEqual([]);
    await page.reload();
    expect(await page.getByRole('row', { name: /Sneaky product/ }).count()).toBe(0);
    await w.expectClean();
  });
});
