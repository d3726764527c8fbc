/**
 * The browser tests' kit, shared by the dashboard's and the docs site's: the Chromium of `@sparticuz/chromium` driven
 * by `playwright-core`, pages whose script errors, console errors and CSP violations are collected (a test ends with
 * `expectClean`, so a violation fails the test that caused it), every answer of the platform contract-checked, an axe
 * check (WCAG 2.0–2.2 A and AA) and screenshots at desktop width and at a 390 px phone width under `test-results/`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { chromium as pw, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { policyStorageOrigin } from '../../shared/platform/storage/policies.ts';
import { checkContractAt, checkDeclaredRefusal } from './contract.ts';

export const origin = new URL(inject('baseUrl')).origin;

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * The browser, composited without a GPU: this build's GPU is SwiftShader (a GPU emulated in software) in the browser
 * process, which, after a page of many layers (the API reference) is drawn, keeps that process busy for seconds,
 * after its context is closed too (about 4 s of CPU a load of the reference). Without it, the same layout, the same
 * computed styles and the same axe results (every rule's nodes and data compared on the docs pages and the
 * reference); the screenshots' pixels may differ in their antialiasing.
 *
 * The Lambda-oriented flags of this Chromium build switch the same-origin policy off (the pages need it on) and run
 * one process, where a page's fetch may carry another context's cookies (each context is a person here):
 * `singleProcess` keeps that one process, for the tests of one person's pages written with it.
 */
export async function launchBrowser(options: { singleProcess?: boolean } = {}): Promise<Browser> {
  const lambdaOnly = ['--disable-web-security', '--allow-running-insecure-content', ...(options.singleProcess ? [] : ['--single-process'])];
  const args = [...chromium.args.filter((a) => !lambdaOnly.includes(a)), '--disable-gpu'];
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
  /** Forgets what was seen so far (errors, requests, answers to check): the page goes on to be checked afresh. */
  reset(): void;
}

/**
 * A new browser context (its own cookies) and page, watched. `allowStatuses`: answers the test expects to fail (e.g. a
 * 403 page); `allowRequests`: URL prefixes off the platform's origin the test expects (a redirect to a stored file).
 */
export async function openPage(browser: Browser, options: { allowStatuses?: number[]; allowRequests?: string[] } = {}): Promise<WatchedPage> {
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
        .then((text) => {
          const contentType = r.headers()['content-type'] ?? null;
          const json = contentType?.startsWith('application/json') && text !== '' ? JSON.parse(text) : null;
          checkContractAt(r.request().method(), `${u.pathname}${u.search}`, r.status(), json, text, contentType);
          checkDeclaredRefusal(r.request().method(), u.pathname, r.status(), json);
        })
        .catch((e: unknown) => {
          // A redirect's body cannot be read in the browser, nor the body of a request whose page has gone on to the
          // next one (the logo upload's answer); those are checked over HTTP by the other tests.
          if (r.status() >= 300 && r.status() < 400) return;
          if (answerLeftBehind(e)) return;
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
      const expected = [`${origin}/`, 'data:', ...(options.allowRequests ?? [])];
      expect(requested.filter((u) => !expected.some((prefix) => u.startsWith(prefix)))).toEqual([]);
    },
    reset() {
      errors.length = 0;
      requested.length = 0;
      checks.length = 0;
    },
  };
}

/** Where the browser fetches an invoice's stored PDF from (the redirect of a PDF download): the storage bucket's `invoices/`. */
export const invoicePdfsPrefix = (): string => `${policyStorageOrigin()}/${process.env.POLICY_BUCKET}/invoices/`;

/** The rules the axe checks run: WCAG 2.0, 2.1 and 2.2, A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

const violationLines = (results: AxeResults): string[] =>
  results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

/**
 * The axe violations of the page as it is now (WCAG 2.0, 2.1 and 2.2, A and AA), one line each. A page with frames
 * gets the builder's default: axe.runPartial in each frame and axe.finishRun in a second, blank page it opens (with
 * axe injected again and every result sent over), which frames of other origins need. A page without frames gets
 * axe.run in the page itself (the builder's legacy mode), the same results at about a third of the CPU, gathering
 * only the violations' nodes (axe's `resultTypes`: one node of each pass, inapplicable and incomplete rule instead
 * of selectors for all of them, never read here).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (page.frames().length > 1) return violationLines(await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze());
  // `options` replaces the options `withTags` sets (its rules): it comes first.
  return violationLines(
    await new AxeBuilder({ page })
      .options({ resultTypes: ['violations'] })
      .withTags(WCAG_TAGS)
      .setLegacyMode()
      .analyze(),
  );
}

/** Whether reading an answer's body failed because its page had already gone on to the next one. */
export const answerLeftBehind = (e: unknown): boolean => e instanceof Error && e.message.includes('No resource with given identifier found');

/**
 * Screenshots are for people to look at, not assertions: they are taken when `SCREENSHOTS=1` (`npm run screenshots`
 * runs the browser tests so), not in every `npm test`, where encoding full-page images only costs time.
 */
const takingScreenshots = process.env.SCREENSHOTS === '1';

/** A full-page screenshot in `file` when screenshots are taken. */
export async function screenshot(page: Page, file: string): Promise<void> {
  if (takingScreenshots) await page.screenshot({ path: file, fullPage: true });
}

/** Screenshots of the whole page at desktop and at phone width, in `test-results/<folder>/<name>-desktop.png` and `-phone.png`. */
export async function screenshotAt(page: Page, folder: string, name: string): Promise<void> {
  if (!takingScreenshots) return;
  const dir = path.resolve('test-results', folder);
  mkdirSync(dir, { recursive: true });
  await screenshot(page, path.join(dir, `${name}-desktop.png`));
  const size = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(PHONE);
  await screenshot(page, path.join(dir, `${name}-phone.png`));
  await page.setViewportSize(size);
}
