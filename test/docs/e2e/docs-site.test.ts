/**
 * The docs site in a real browser: every page of `docs/*.md` (whatever pages exist: the test reads the list, not
 * their words) loads from the platform's origin with the dashboard's CSP, no inline script or style, no cookie, no
 * CSP violation or console error, nothing asked of another origin, zero axe violations, and a screenshot at desktop
 * and phone width; its navigation lists every page; its heading anchors are the ones the docs search links to. Over
 * HTTP: the pages are public documents with an ETag, an unknown page is a 404 page, and the MCP docs search links land
 * on a page and heading that exist.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readDocsPages } from '../../../infra/docs-pages.ts';
import { docsSections } from '../../../shared/platform/docs-index.ts';
import { docsPagePath } from '../../../shared/platform/http/docs-links.ts';
import { SCALAR_VERSION } from '../../../shared/docs/docs-site.ts';
import { dashboardCsp } from '../../../shared/dashboard/kit/page.ts';
import { axeViolations, launchBrowser, openPage, origin, screenshotAt, type WatchedPage } from '../../support/browser.ts';
import { http } from '../../support/http.ts';

const pages = readDocsPages('.');

/** The dashboard's CSP without its nonce (each answer has its own). */
const withoutNonce = (csp: string) => csp.replace(/'nonce-[^']+'/, "'nonce'");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the docs pages in a browser', () => {
  // One watched page goes from docs page to docs page (none sets a cookie or keeps a state: each is a document of its
  // own), afresh for each: what it saw on the previous one is forgotten, what it sees is checked. A browser context
  // and page per docs page cost as much again as loading the docs page.
  let watched: WatchedPage;
  beforeAll(async () => {
    watched = await openPage(browser);
  });
  beforeEach(() => {
    watched.reset();
  });
  afterAll(async () => {
    await watched?.context.close();
  });

  it('has a front page and the pages it links to', () => {
    expect(pages[0]!.page).toBe('index');
    expect(pages.length).toBeGreaterThan(1);
  });

  it.each(pages.map((p) => ({ name: p.page, path: docsPagePath(p.page), markdown: p.markdown })))(
    '$path: clean, accessible, with the navigation and the anchors of its headings',
    async ({ name, path, markdown }) => {
      const { page } = watched;
      const answer = await page.goto(`${origin}${path}`);
      expect(answer?.status()).toBe(200);
      const headers = answer!.headers();
      expect(withoutNonce(headers['content-security-policy']!)).toBe(withoutNonce(dashboardCsp('x')));
      expect(headers['set-cookie']).toBeUndefined();
      expect(headers['cache-control']).toMatch(/^public, max-age=\d+$/);
      expect(headers.etag).toMatch(/^"[0-9a-f]{32}"$/);

      // One h1, the page's title; no inline script or style anywhere.
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.locator('script, style, [style]').count()).toBe(0);
      // The navigation names every page and the reference, and marks this one.
      const nav = page.getByRole('navigation', { name: 'Docs' });
      expect(await nav.getByRole('link').count()).toBe(pages.length + 1);
      expect(await nav.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs/api');
      expect(await nav.locator('[aria-current="page"]').getAttribute('href')).toBe(path);
      // Each heading the search index has is an element with that id, so a search link lands on it.
      const anchors = docsSections({ page: name, markdown }).map((s) => s.slug);
      const ids = await page.locator('[id]').evaluateAll((elements) => elements.map((e) => e.getAttribute('id')));
      expect(anchors.filter((anchor) => ids.filter((id) => id === anchor).length !== 1)).toEqual([]);
      // No link to a page's Markdown file is left.
      expect(await page.locator('main a[href$=".md"], main a[href*=".md#"]').count()).toBe(0);

      expect(await axeViolations(page), path).toEqual([]);
      await screenshotAt(page, 'docs', `docs-${name}`);
      await watched.expectClean();
    },
  );

  it('answers an unknown page with a 404 page that leads back to the docs', async () => {
    const notFound = await openPage(browser, { allowStatuses: [404] });
    const { page } = notFound;
    const answer = await page.goto(`${origin}/docs/no-such-page`);
    expect(answer?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
    expect(await page.getByRole('link', { name: 'Back to the docs' }).getAttribute('href')).toBe('/docs');
    expect(await axeViolations(page)).toEqual([]);
    await notFound.expectClean();
    await notFound.context.close();
  });
});

describe('the docs pages over HTTP', () => {
  const baseUrl = origin;

  it('answers 304 to a request that holds the ETag, and the same page to anyone (no cookie read)', async () => {
    const first = await http('GET', '/docs', { baseUrl });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect((await http('GET', '/docs', { baseUrl, headers: { 'if-none-match': etag } })).status).toBe(304);
    const withCookie = await http('GET', '/docs', { baseUrl, headers: { cookie: '__Host-mor_session=mor_sess_whatever' } });
    expect(withCookie.headers.get('etag')).toBe(etag);
    expect(withCookie.headers.get('set-cookie')).toBeNull();
  });

  it('has one address per page: the front page is not also at /docs/index, a long name is the unknown page', async () => {
    expect((await http('GET', '/docs/index', { baseUrl })).status).toBe(404);
    expect((await http('GET', `/docs/${'a'.repeat(200)}`, { baseUrl })).status).toBe(404);
  });

  it('serves the stylesheet and the reference script as public documents with an ETag', async () => {
    for (const path of ['/docs/assets/docs.css', '/docs/assets/api-reference.js']) {
      const res = await http('GET', path, { baseUrl });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toMatch(/^public, max-age=\d+$/);
      expect(res.headers.get('etag'), path).toMatch(/^"[0-9a-f]{32}"$/);
    }
  });

  it("serves Scalar's script from this origin, compressed to a client that takes gzip, plain to one that does not, cached a year", async () => {
    const path = `/docs/assets/scalar-${SCALAR_VERSION}.js`;
    const compressed = await http('GET', path, { baseUrl, headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(compressed.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(compressed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const plain = await http('GET', path, { baseUrl, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    // The same script either way (fetch decompressed the first), without its source map's address.
    expect(plain.text).toBe(compressed.text);
    expect(plain.text).toContain('createApiReference');
    expect(plain.text).not.toContain('sourceMappingURL');
  });
});
