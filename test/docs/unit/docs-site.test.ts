/**
 * The docs site's build and its pure parts: the pages' order, the Markdown rendering (anchors the same as the search
 * index's, links between pages as site paths, no raw HTML, one title first), the reference page on each deployment
 * (try-it on the sandbox only) and its CSP, the gzip negotiation of Scalar's script and its pinned version.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDocsPages } from '../../../infra/docs-pages.ts';
import { renderDocsPage, renderDocsSite, scalarVendorDir, siteHref } from '../../../infra/docs-site-asset.ts';
import { docsSections } from '../../../shared/platform/docs-index.ts';
import { dashboardCsp } from '../../../shared/dashboard/kit/page.ts';
import { acceptsGzip, isDocsPageName, SCALAR_VERSION } from '../../../shared/docs/docs-site.ts';
import { docsCsp, docsReferenceCsp, docsReferenceReply } from '../../../shared/docs/pages.tsx';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository root whose `docs/` holds `files`. */
function docsRoot(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
  temporary.push(root);
  mkdirSync(path.join(root, 'docs'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, 'docs', name), text);
  return root;
}

describe('the pages of docs/', () => {
  it('come front page first, then in the order the front page links them, then the rest by name', () => {
    const root = docsRoot({
      'index.md': '# Docs\n\n- [B](b-page.md)\n- [A](a-page.md#x)\n- [B again](b-page.md)\n- [Missing](missing.md)\n',
      'a-page.md': '# A\n',
      'b-page.md': '# B\n',
      'z-page.md': '# Z\n',
      'c-page.md': '# C\n',
    });
    expect(readDocsPages(root).map((p) => p.page)).toEqual(['index', 'b-page', 'a-page', 'c-page', 'z-page']);
  });

  it('refuse a file name that cannot be a page, and a site without a front page', () => {
    expect(() => readDocsPages(docsRoot({ 'index.md': '# Docs\n', 'Bad Name.md': '# X\n' }))).toThrow(/file name/);
    expect(() => readDocsPages(docsRoot({ 'index.md': '# Docs\n', 'api.md': '# X\n' }))).toThrow(/not api or assets/);
    expect(() => readDocsPages(docsRoot({ 'other.md': '# X\n' }))).toThrow(/index\.md is missing/);
    expect(isDocsPageName('going-live')).toBe(true);
    expect(isDocsPageName('a'.repeat(65))).toBe(false);
    expect(isDocsPageName('-x')).toBe(false);
  });

  it('of this repository all render', () => {
    const site = renderDocsSite(readDocsPages('.'));
    expect(site.pages[0]!.page).toBe('index');
    for (const page of site.pages) expect(page.title.length, page.page).toBeGreaterThan(0);
  });

  it('of this repository show none of their HTML comments (the no-run notes) as text', () => {
    const sources = readDocsPages('.');
    // The pages do hold such notes: what is checked is that none reaches the page.
    expect(sources.filter((p) => p.markdown.includes('<!-- no-run:')).length).toBeGreaterThan(0);
    for (const page of renderDocsSite(sources).pages) {
      const text = page.html.replace(/<pre[^>]*>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, '');
      expect(text, page.page).not.toMatch(/&lt;!--|<!--|no-run:/);
    }
  });
});

describe('rendering a page', () => {
  const markdown = [
    '# The `orders` page',
    'Intro with <script>alert(1)</script> and <b style="color:red">raw</b> HTML.',
    '## Refunds',
    'See [getting started](getting-started.md), [its keys](authentication.md#api-keys), [home](index.md),',
    '[the reference](/docs/api) and [elsewhere](https://example.com/x.md).',
    '```sh',
    '# not a heading',
    'curl https://example.com',
    '```',
    '### Refunds',
    '## Refunds',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
  ].join('\n');
  const page = renderDocsPage({ page: 'orders', markdown });

  it('gives each heading the anchor the search index links to, repeated ones numbered alike', () => {
    const ids = [...page.html.matchAll(/<h[1-4] id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(docsSections({ page: 'orders', markdown }).map((s) => s.slug));
    expect(ids).toEqual(['the-orders-page', 'refunds', 'refunds-1', 'refunds-2']);
  });

  it('turns links between pages into their paths, and leaves other links alone', () => {
    expect(page.html).toContain('<a href="/docs/getting-started">');
    expect(page.html).toContain('<a href="/docs/authentication#api-keys">');
    expect(page.html).toContain('<a href="/docs">');
    expect(page.html).toContain('<a href="/docs/api">');
    expect(page.html).toContain('<a href="https://example.com/x.md">');
    expect(siteHref('./orders.md#refunds')).toBe('/docs/orders#refunds');
  });

  it('lets no HTML of the Markdown through: no script, no style', () => {
    expect(page.html).not.toMatch(/<script|<b[\s>]|\sstyle="/);
    expect(page.html).toContain('&lt;script&gt;');
  });

  it('leaves its HTML comments out: a block of its own, or within a paragraph; in code, or unclosed, they stay text', () => {
    const html = renderDocsPage({
      page: 'x',
      markdown: [
        '# X',
        '',
        '<!-- no-run: starts a server -->',
        '```sh',
        'echo "<!-- kept -->"',
        '```',
        'Before <!-- a note --> after, and `<!-- code -->`.',
        '',
        '<!-- a note',
        'on two lines -->',
        '',
        'Last <!-- never closed',
      ].join('\n'),
    }).html;
    expect(html).not.toMatch(/no-run|a note|two lines/);
    expect(html).toContain('echo &quot;&lt;!-- kept --&gt;&quot;');
    expect(html).toContain('<p>Before  after, and <code>&lt;!-- code --&gt;</code>.</p>');
    expect(html).toContain('<p>Last &lt;!-- never closed</p>');
  });

  it('keeps code plain and keyboard-scrollable, and wraps tables to scroll on a phone', () => {
    expect(page.html).toContain('<pre tabindex="0"><code class="language-sh"># not a heading');
    expect(page.html).toContain('<div class="table-wrap" tabindex="0">\n<table>');
  });

  it('takes its title from its one first-level heading, as text', () => {
    expect(page.title).toBe('The orders page');
    expect(() => renderDocsPage({ page: 'x', markdown: 'Intro first\n# Title\n' })).toThrow(/starts with its title/);
    expect(() => renderDocsPage({ page: 'x', markdown: '# One\n# Two\n' })).toThrow(/one "# Title"/);
  });
});

describe('the API reference page', () => {
  const stage = process.env.STAGE;
  afterEach(() => {
    process.env.STAGE = stage;
  });

  it('turns try-it on on the sandbox, and off on live, where it says the reference is read-only', async () => {
    process.env.STAGE = 'sandbox';
    const sandbox = String((await docsReferenceReply()).body);
    expect(sandbox).toContain('data-try-it="on"');
    process.env.STAGE = 'live';
    const live = String((await docsReferenceReply()).body);
    expect(live).toContain('data-try-it="off"');
    expect(live).toContain('the reference is read-only here');
    expect(live).not.toContain('Try-it sends requests');
  });

  it("has the dashboard's CSP with inline styles allowed, and nothing else loosened", () => {
    const withoutNonce = (csp: string) => csp.replace(/'nonce-[^']+'/, "'nonce'");
    expect(withoutNonce(docsCsp())).toBe(withoutNonce(dashboardCsp('x')));
    const loosened = withoutNonce(docsReferenceCsp()).split('; ');
    const strict = withoutNonce(dashboardCsp('x')).split('; ');
    expect(loosened.filter((d) => !strict.includes(d))).toEqual(["style-src 'self' 'unsafe-inline'"]);
    expect(loosened.join(' ')).not.toContain('unsafe-eval');
  });
});

describe("Scalar's script", () => {
  it("is the vendored @scalar/api-reference of the version the page names, beside its package's manifest", () => {
    const manifest = JSON.parse(readFileSync(path.join(scalarVendorDir, 'package.json'), 'utf8')) as { name: string; version: string };
    expect(manifest).toMatchObject({ name: '@scalar/api-reference', version: SCALAR_VERSION });
  });

  it('goes compressed only to a client that takes gzip', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
