/**
 * The API reference (`/docs/api`) in a real browser, on the sandbox local stack: Scalar loads from the platform's
 * origin with every other origin cut off (and none asked), under the docs' CSP with inline styles only added, no CSP
 * violation, no console error and zero axe violations. Try-it refuses a live key before any request leaves the page
 * (every request the page makes is watched: none carries it, none reaches the API) and says why on the page; with a
 * sandbox key from the fixtures, try-it gets the API's real answer, shown in the client's panel. The live
 * deployment's page (rendered here with the live stage) shows no try-it at all.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardCsp } from '../../../shared/dashboard/kit/page.ts';
import { axeViolations, launchBrowser, openPage, origin, screenshotAt, type WatchedPage } from '../../support/browser.ts';
import { rootMerchant } from '../../support/fixtures.ts';
import { docsReferenceReply } from '../../../shared/docs/pages.tsx';

/** What an operation's client is opened on: GET /merchants/{merchantId}, which takes a merchant key. */
const OPERATION = 'tag/people/GET/api/v1/public-api/merchants/{merchantId}';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A watched page on which every request to another origin is aborted and recorded; every request, with what it carries. */
async function offlinePage(): Promise<WatchedPage & { foreign: string[]; sent: Array<{ url: string; headers: string; body: string }> }> {
  const watched = await openPage(browser);
  const foreign: string[] = [];
  const sent: Array<{ url: string; headers: string; body: string }> = [];
  await watched.context.route('**/*', async (route) => {
    const request = route.request();
    sent.push({ url: request.url(), headers: JSON.stringify(await request.allHeaders()), body: request.postData() ?? '' });
    if (new URL(request.url()).origin !== origin) {
      foreign.push(request.url());
      await route.abort();
      return;
    }
    await route.continue();
  });
  return Object.assign(watched, { foreign, sent });
}

/** Opens the try-it client of the operation and fills its merchant id and bearer token; its dialog. */
async function openClient(page: Page, merchantId: string, token: string) {
  await page.goto(`${origin}/docs/api#${OPERATION}`);
  await page
    .locator('button', { hasText: 'Test Request' })
    .filter({ hasText: /\(get \/api\/v1\/public-api\/merchants\/\{merchantId\}\)/ })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByPlaceholder('Token').fill(token);
  const cells = dialog.locator('[contenteditable="true"]');
  expect(await cells.nth(0).innerText()).toBe('merchantId');
  // The cell holds the document's example id: replace it.
  await cells.nth(1).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(merchantId);
  expect(await cells.nth(1).innerText()).toBe(merchantId);
  return dialog;
}

// Each test loads Scalar's bundle and the whole sandbox document in a browser: on a loaded 2-core machine that
// alone takes over the default 20 s.
describe('the API reference', { timeout: 60_000 }, () => {
  it('loads offline from this origin, with the docs CSP plus inline styles, clean and axe-clean', async () => {
    const watched = await offlinePage();
    const { page } = watched;
    const answer = await page.goto(`${origin}/docs/api`);
    expect(answer?.status()).toBe(200);
    const csp = answer!.headers()['content-security-policy']!;
    const withoutNonce = (policy: string) => policy.replace(/'nonce-[^']+'/, "'nonce'");
    expect(withoutNonce(csp)).toBe(withoutNonce(dashboardCsp('x')).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"));
    expect(answer!.headers()['set-cookie']).toBeUndefined();
    // Scalar has drawn the document: its operations are there.
    await page.locator('button', { hasText: 'Test Request' }).first().waitFor();
    expect(await page.getByRole('heading', { name: 'Merchant-of-record platform API' }).count()).toBe(1);
    // No AI chat, no MCP button: nothing that would call out.
    expect(await page.getByRole('button', { name: 'Ask AI' }).count()).toBe(0);
    // Every script is a file of this origin.
    const scripts = await page.locator('script').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? 'inline'));
    expect(scripts).toEqual(['/docs/assets/api-reference.js', '/docs/assets/scalar-1.76.0.js']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshotAt(page, 'docs', 'api-reference');
    // And further in, where the operations' methods, parameters and examples are drawn.
    await page.goto(`${origin}/docs/api#${OPERATION}`);
    await page.locator('button', { hasText: 'Test Request' }).filter({ hasText: '/api/v1/public-api/merchants/{merchantId})' }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.foreign).toEqual([]);
    await watched.expectClean();
    await watched.context.close();
  });

  it('refuses a live key in try-it before any request leaves the page, and says why', async () => {
    const shop = await rootMerchant('Docs live key');
    const liveKey = `mor_live_${'7'.repeat(48)}`;
    const watched = await offlinePage();
    const { page } = watched;
    const dialog = await openClient(page, shop.merchantId, liveKey);
    const before = watched.sent.length;
    await dialog.getByRole('button', { name: /^Send Request/ }).click();

    const message = 'Live keys (mor_live_…) never go through the docs: use a sandbox key (mor_test_…).';
    // In the client, where the person pressed send: Scalar's alert with the reason.
    const inClient = dialog.getByRole('alert').filter({ hasText: 'Request failed' });
    await inClient.waitFor();
    expect(await inClient.innerText()).toContain(message);
    // And on the page under it, announced.
    const onPage = page.locator('main > [role="alert"]');
    expect(await onPage.innerText()).toBe(message);
    expect(await onPage.isVisible()).toBe(true);
    // Nothing carrying the key left the page, and nothing at all was sent to the operation after the press.
    const carrying = watched.sent.filter((r) => `${r.url}\n${r.headers}\n${r.body}`.includes('mor_live_'));
    expect(carrying).toEqual([]);
    expect(watched.sent.slice(before).filter((r) => r.url.includes('/api/v1/public-api/'))).toEqual([]);
    expect(watched.foreign).toEqual([]);
    // Scalar logs the refused request, with the reason, once: that and nothing else.
    expect(watched.errors.map((e) => e.split('\n')[0])).toEqual([`console: Error: ${message}`]);
    watched.errors.length = 0;
    await watched.expectClean();
    await watched.context.close();
  });

  it('sends a sandbox key to this deployment and shows its real answer', async () => {
    const shop = await rootMerchant('Docs try-it');
    const watched = await offlinePage();
    const { page } = watched;
    const dialog = await openClient(page, shop.merchantId, shop.apiKey);
    const answered = page.waitForResponse((r) => r.url() === `${origin}/api/v1/public-api/merchants/${shop.merchantId}`);
    await dialog.getByRole('button', { name: /^Send Request/ }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${shop.apiKey}`);
    expect((await response.json()).id).toBe(shop.merchantId);
    // The client shows the answer: its status and the merchant's name from the body.
    await dialog.getByText('Docs try-it', { exact: false }).first().waitFor();
    expect(await dialog.getByText('200', { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.locator('main > [role="alert"]').isVisible()).toBe(false);
    expect(watched.foreign).toEqual([]);
    await watched.expectClean();
    await watched.context.close();
  });

  it('on the live deployment, is read-only: Scalar shows no try-it and the page says so', async () => {
    // The live page as the live deployment renders it, served in place of this sandbox's.
    const stage = process.env.STAGE;
    process.env.STAGE = 'live';
    const live = await docsReferenceReply().finally(() => {
      process.env.STAGE = stage;
    });
    const watched = await offlinePage();
    const { page } = watched;
    await page.route(`${origin}/docs/api`, (route) =>
      route.fulfill({ status: 200, body: String(live.body), headers: { 'content-type': 'text/html; charset=utf-8', ...live.headers } }),
    );
    await page.goto(`${origin}/docs/api#${OPERATION}`);
    await page.getByRole('heading', { name: 'Merchant-of-record platform API' }).waitFor();
    await page.locator('button', { hasText: 'Copy link' }).first().waitFor();
    expect(await page.getByText('the reference is read-only here').count()).toBe(1);
    expect(await page.locator('button', { hasText: 'Test Request' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.foreign).toEqual([]);
    await watched.expectClean();
    await watched.context.close();
  });
});
