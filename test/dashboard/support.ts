/**
 * The dashboard's browser tests' kit, over the shared one (`browser-support.ts`: the browser, watched pages, axe and
 * screenshots): each page's weight (HTML + CSS + JS ≤ 100 KB gzip) checked with its axe check and its screenshots in
 * `test-results/dashboard/`, and signing up and in through the pages.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, origin, screenshotAt } from '../support/browser.ts';
import { confirmAddress, PASSWORD, uniqueEmail } from '../support/fixtures.ts';

export { launchBrowser, openPage, origin } from '../support/browser.ts';

/** The most a page may weigh, its HTML, stylesheet and script gzip-compressed together. */
export const PAGE_WEIGHT_LIMIT = 100 * 1024;

/** The page's HTML, the stylesheet and the script it loads, each gzip-compressed, in bytes. */
export async function pageWeight(page: Page): Promise<{ html: number; css: number; js: number; total: number }> {
  const gz = (text: string) => gzipSync(Buffer.from(text)).length;
  const [html, css, js] = await Promise.all([
    page.content().then(gz),
    fetch(`${origin}/dashboard/assets/dashboard.css`).then(async (r) => gz(await r.text())),
    fetch(`${origin}/dashboard/assets/dashboard.js`).then(async (r) => gz(await r.text())),
  ]);
  return { html, css, js, total: html + css + js };
}

/**
 * No axe violation (WCAG 2.0, 2.1 and 2.2, A and AA), at most `PAGE_WEIGHT_LIMIT` compressed, and a screenshot at
 * desktop and phone width named `name`.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  expect((await pageWeight(page)).total, `${name}: HTML + CSS + JS, gzip`).toBeLessThanOrEqual(PAGE_WEIGHT_LIMIT);
  expect(await axeViolations(page), name).toEqual([]);
  await screenshotAt(page, 'dashboard', name);
}

/** Signs up through the pages (landing on the merchant switcher, signed in) and confirms the address; the new person's e-mail. */
export async function signUpThroughPages(page: Page, email = uniqueEmail('dash'), next?: string, { confirmed = true } = {}): Promise<string> {
  await page.goto(`${origin}/dashboard/sign-up${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  // The person opens the link mailed to them (over HTTP, beside the page), unless the test wants them unconfirmed.
  if (confirmed) await confirmAddress(email);
  return email;
}

/** Signs in through the pages. */
export async function signInThroughPages(page: Page, email: string, password = PASSWORD, next?: string): Promise<void> {
  await page.goto(`${origin}/dashboard/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The `<h1>` of the page, once there is one. */
export const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

/** A sole trader's answers to the onboarding form, all but the expected monthly sales (`business_sales_volume`). */
export const ONBOARDING_ANSWERS = {
  business_name: 'Solo Studio GmbH',
  business_dba: 'Solo Studio',
  business_type: 'Limited liability company',
  business_category: 'Design',
  business_description: 'Online courses in type design',
  business_website: 'https://solo.example',
  business_tax_id: 'DE123456789',
  business_registration_number: 'HRB 12345',
  business_payment_reference: 'SOLO STUDIO',
  business_address: 'Hauptstrasse 1',
  business_city: 'Berlin',
  business_state: 'Berlin',
  business_zip: '10115',
  business_country: 'DE',
  business_phone_code: '+49',
  business_phone_number: '30123456',
  member_first_name: 'Sam',
  member_last_name: 'Solo',
  member_address: 'Hauptstrasse 1',
  member_city: 'Berlin',
  member_country: 'DE',
  account_report_currency: 'EUR',
  account_payout_currency: 'EUR',
} as const;
