/**
 * Every jurisdiction the checkout sells to gets a tax answer through the local gateway: the five US states without a
 * state sales tax are a known 0 with the reason `no_sales_tax` (and a buyer there can pay), Delaware the state is not
 * Germany the country, each EU country pays its own VAT rate, and a country the platform does not sell to is refused
 * with its reason and is not in the hosted checkout page's country list.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCountryCodes } from '../../../shared/domain/tax.ts';
import { EU_COUNTRIES } from '../../../shared/domain/tax-rates.ts';
import { launchBrowser, openPage, origin } from '../../support/browser.ts';
import { call, cardToken, organizationAccount, orgPlan, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** The published table the platform's rates come from, read here to check the answers against it. */
const published = createRequire(import.meta.url)('sales-tax/res/sales_tax_rates.json') as Record<string, { rate: number }>;

const planTax = (planId: string, billingAddress: Record<string, unknown>) =>
  call('POST', `/v1/checkout/plans/${planId}/tax`, { body: { billingAddress }, headers: { origin: 'https://shop.example' } });

const NO_SALES_TAX = ['OR', 'DE', 'MT', 'NH', 'AK'];

let org: Org;
/** A one-time plan of 10.00 USD. */
let plan: { id: string };
beforeAll(async () => {
  org = await organizationAccount('Tax Everywhere');
  plan = await orgPlan(org, { name: 'Ten dollars', currency: 'USD', pricing: { price: 10, formula: 'fixed-fee' } });
});

describe('checkout tax: the US states without a state sales tax', () => {
  it.each(NO_SALES_TAX)('US-%s: 200 with 0 tax and the reason no_sales_tax, never state_unknown', async (state) => {
    const res = await planTax(plan.id, { country: 'US', state, postalCode: '97201' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      currency: 'USD',
      jurisdiction: { country: 'US', state },
      rate: '0.0',
      reason: 'no_sales_tax',
      lines: [{ type: 'plan', amount: 10, tax: 0, dueToday: true }],
      subtotal: 10,
      tax: 0,
      total: 10,
      amountDueToday: 10,
    });
    expect(res.json.rates).toEqual([
      { level: 'country', type: 'none', rate: '0.0', validFrom: expect.any(String), source: 'sales-tax@2.23.0' },
      { level: 'state', type: 'none', rate: '0.0', validFrom: expect.any(String), source: 'platform:us-states-without-sales-tax' },
    ]);
  });

  it('a state with a sales tax still pays it, with no reason (California 7.25 %, its statewide rate, as corrected)', async () => {
    const res = await planTax(plan.id, { country: 'US', state: 'CA' });
    expect(res.status, res.text).toBe(200);
    // 10.00 at 7.25 % is 0.725: half to even, 0.72.
    expect(res.json).toMatchObject({ rate: '0.0725', reason: null, tax: 0.72, total: 10.72 });
    expect(res.json.rates[1]).toEqual({
      level: 'state',
      type: 'sales',
      rate: '0.0725',
      validFrom: expect.any(String),
      source: 'platform:corrections-of-sales-tax@2.23.0',
    });
  });

  it('Delaware the state (0) is not Germany the country (19 % VAT)', async () => {
    const [state, country] = await Promise.all([planTax(plan.id, { country: 'US', state: 'DE' }), planTax(plan.id, { country: 'DE' })]);
    expect(state.status, state.text).toBe(200);
    expect(state.json).toMatchObject({ jurisdiction: { country: 'US', state: 'DE' }, rate: '0.0', reason: 'no_sales_tax', tax: 0 });
    expect(country.status, country.text).toBe(200);
    expect(country.json).toMatchObject({ jurisdiction: { country: 'DE', state: null }, rate: '0.19', reason: null, tax: 1.9, total: 11.9 });
  });

  it('an Oregon buyer pays through the real checkout: the session, the card and the charge, with 0 tax', async () => {
    const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, {
      body: { email: uniqueEmail('oregon'), billingAddress: { country: 'US', state: 'OR', postalCode: '97201' } },
    });
    expect(session.status, session.text).toBe(200);
    const confirm = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId: session.json.sessionId, token: await cardToken(org) } });
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.json).toMatchObject({ status: 'completed', currency: 'USD', subtotal: 10, tax: 0, amount: 10 });
  });
});

describe('checkout tax: the EU and the UK', () => {
  it('taxes each of the 27 EU countries at its own standard VAT rate, as published', async () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    for (const country of EU_COUNTRIES) {
      const rate = published[country]!.rate;
      const res = await planTax(plan.id, { country });
      expect(res.status, `${country} ${res.text}`).toBe(200);
      expect(Number(res.json.rate), country).toBe(rate);
      expect(res.json, country).toMatchObject({
        jurisdiction: { country, state: null },
        reason: null,
        rates: [{ level: 'country', type: 'vat', source: 'sales-tax@2.23.0' }],
        // 10.00 × a rate of at most three decimals is a whole number of cents.
        tax: Number((10 * rate).toFixed(2)),
      });
    }
  });

  it('taxes the UK at 20 %', async () => {
    const res = await planTax(plan.id, { country: 'GB', postalCode: 'SW1A 1AA' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ jurisdiction: { country: 'GB', state: null }, rate: '0.2', tax: 2, total: 12 });
  });
});

describe('checkout tax: a country the platform does not sell to', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is refused with 422 checkout.tax_unavailable and the reason country_not_sold', async () => {
    for (const country of ['AQ', 'HK']) {
      const res = await planTax(plan.id, { country });
      expect(res.status, res.text).toBe(422);
      expect(res.json).toMatchObject({ code: 'checkout.tax_unavailable', details: { reason: 'country_not_sold', country } });
    }
  });

  /** The summary's total rows, each as its cells' texts joined by one space. */
  const totals = (page: Page) =>
    page.locator('#totals tr').evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.children]
          .map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim())
          .filter(Boolean)
          .join(' '),
      ),
    );

  it("is not in the hosted checkout page's country list, which is exactly the countries sold to; an Oregon buyer sees 0 tax", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${origin}/checkout/plans/${plan.id}`);
    await expect.poll(() => page.locator('main').getAttribute('data-state'), { timeout: 10_000 }).toBe('ready');
    const offered = (await page.locator('#country option').evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''))).filter(Boolean);
    expect(offered).not.toContain('AQ');
    expect(offered).not.toContain('HK');
    expect(offered).toContain('DE');
    expect([...offered].sort()).toEqual([...checkoutCountryCodes].sort());

    await page.getByLabel('Billing country').selectOption('US');
    const preview = page.waitForResponse((r) => r.url().endsWith('/tax'));
    await page.getByLabel('State').selectOption('OR');
    expect((await preview).status()).toBe(200);
    await expect.poll(() => totals(page), { timeout: 10_000 }).toContain('Tax (0%) $0.00');
    expect(await totals(page)).toEqual(['Subtotal $10.00', 'Tax (0%) $0.00', 'Due today $10.00']);
    expect(await page.locator('#tax-note').innerText()).toBe('');
    await watched.expectClean();
    await watched.context.close();
  });
});
