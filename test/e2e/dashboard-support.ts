/**
 * The dashboard's browser tests' kit: the Chromium of `@sparticuz/chromium` driven by `playwright-core`, pages whose
 * script errors, console errors and CSP violations are collected (a test ends with `expectClean`, so a violation fails
 * the test that caused it), every answer of the platform contract-checked, an axe check of each page (WCAG 2.0–2.2 A
 * and AA) and its weight (HTML + CSS + JS ≤ 100 KB gzip) with a screenshot at desktop width and at a 390 px phone width in `test-results/dashboard/`, and signing up
 * through the pages.
 */
import { mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { chromium as pw, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { checkContractAt } from '../support/contract.ts';
import { PASSWORD, uniqueEmail } from './fixtures.ts';

export const origin = new URL(inject('baseUrl')).origin;
export const screenshots = path.resolve('test-results/dashboard');

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(screenshots, { recursive: true });
  // The Lambda-oriented flags of this Chromium build switch the same-origin policy off (the pages need it on) and
  // run one process, where a page's fetch may carry another context's cookies (each context is a person here).
  const lambdaOnly = ['--disable-web-security', '--allow-running-insecure-content', '--single-process'];
  const args = chromium.args.filter((a) => !lambdaOnly.includes(a));
  return pw.launch({ executablePath: await chromium.executablePath(), args, headless: true });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors, console errors and CSP violations seen so far. */
  errors: string[];
  /** Every URL the page asked for. */
  requested: string[];
  /** Fails unless no error was seen, every answer of the platform kept its contract and nothing left the origin. */
  expectClean(): Promise<void>;
}

/** A new browser context (its own cookies) and page, watched. `allowStatuses`: answers the test expects to fail (e.g. a 403 page). */
export async function openPage(browser: Browser, options: { allowStatuses?: number[] } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const requested: string[] = [];
  const checks: Array<Promise<void>> = [];
  const allowed = options.allowStatuses ?? [];
  page.on('pageerror', (e) => errors.push(`script error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const failedLoad = /^Failed to load resource: the server responded with a status of (\d+)/.exec(m.text());
    if (failedLoad && allowed.includes(Number(failedLoad[1]))) return;
    errors.push(`console: ${m.text()}`);
  });
  // A CSP violation is reported to the page as an event as well as logged: both are caught.
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  );
  page.on('request', (r) => requested.push(r.url()));
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.origin !== origin || r.status() === 304) return;
    checks.push(
      r
        .text()
        .then((text) => checkContractAt(r.request().method(), `${u.pathname}${u.search}`, r.status(), null, text, r.headers()['content-type'] ?? null))
        .catch((e: unknown) => {
          // A redirect's body cannot be read in the browser, nor the body of a request whose page has gone on to the
          // next one (the logo upload's answer); those are checked over HTTP by the other tests.
          if (r.status() >= 300 && r.status() < 400) return;
          if (e instanceof Error && e.message.includes('No resource with given identifier found')) return;
          throw e;
        }),
    );
  });
  return {
    page,
    context,
    errors,
    requested,
    async expectClean() {
      await Promise.all(checks);
      expect(errors).toEqual([]);
      expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    },
  };
}

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
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    name,
  ).toEqual([]);
  await page.screenshot({ path: path.join(screenshots, `${name}-desktop.png`), fullPage: true });
  const size = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: path.join(screenshots, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(size);
}

/** Signs up through the pages (landing on the merchant switcher, signed in); the new person's e-mail. */
export async function signUpThroughPages(page: Page, email = uniqueEmail('dash'), next?: string): Promise<string> {
  await page.goto(`${origin}/dashboard/sign-up${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
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
