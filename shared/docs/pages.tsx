/** @jsxImportSource hono/jsx */
/**
 * The docs site's pages, rendered on the server with Hono's JSX: the frame (the top bar with the deployment, the
 * pages' navigation, the main landmark) around a Markdown page's HTML (rendered ahead of time, see `docs-site.ts`),
 * and the API reference's page, where Scalar (served from this origin) draws the reference into an empty mount. No
 * inline script or style: the Markdown pages have the dashboard's CSP, the reference the same with inline styles
 * allowed (Scalar sets them).
 */
import { randomBytes } from 'node:crypto';
import type { Child } from 'hono/jsx';
import type { Mode } from '../domain/deployments.ts';
import { config } from '../platform/config.ts';
import { docsPagePath } from '../platform/http/docs-links.ts';
import type { Reply } from '../platform/http/types.ts';
import { dashboardCsp } from '../dashboard/index.ts';
import { DOCS_REFERENCE_PATH, DOCS_REFERENCE_SCRIPT_PATH, DOCS_STYLESHEET_PATH, SCALAR_SCRIPT_PATH, docsSite, type DocsPage } from './docs-site.ts';

/** The OpenAPI document the reference shows: this deployment's. */
const OPENAPI_PATH = '/api/v1/openapi.json';

/** The docs pages' CSP: the dashboard's (its nonce unused: the pages' scripts, if any, are files of this origin). */
export const docsCsp = (): string => dashboardCsp(randomBytes(18).toString('base64'));

/** The API reference's CSP: the docs pages' with inline styles allowed (Scalar sets them), nothing else loosened. */
export const docsReferenceCsp = (): string => docsCsp().replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** Where a page is, for the navigation: a Markdown page's name, or the reference. */
type Current = string | 'api-reference';

/**
 * The document around a page: the top bar, and beside the page the navigation of every page and the reference (the
 * reference itself, with Scalar's own navigation, takes the whole width: `wide`).
 */
function Frame(p: { title: string; current: Current; mode: Mode; scripts?: readonly string[]; wide?: boolean; children?: Child }) {
  const { title, current, mode, scripts, children } = p;
  const pages = docsSite().pages;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title} · Docs</title>
        <link rel="stylesheet" href={DOCS_STYLESHEET_PATH} />
        {(scripts ?? []).map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="topbar">
          <a class="brandname" href={docsPagePath('index')}>
            Docs
          </a>
          <span class={mode === 'live' ? 'deployment live' : 'deployment sandbox'}>{mode === 'live' ? 'Live' : 'Sandbox'}</span>
          {p.wide ? (
            <nav aria-label="Docs">
              <a href={docsPagePath('index')}>All pages</a>
            </nav>
          ) : null}
        </header>
        {p.wide ? (
          children
        ) : (
          <div class="shell">
            <nav class="pages" aria-label="Docs">
              <ul>
                {pages.map((p) => (
                  <li>
                    <a href={docsPagePath(p.page)} aria-current={p.page === current ? 'page' : undefined}>
                      {p.title}
                    </a>
                  </li>
                ))}
                <li>
                  <a href={DOCS_REFERENCE_PATH} aria-current={current === 'api-reference' ? 'page' : undefined}>
                    API reference
                  </a>
                </li>
              </ul>
            </nav>
            {children}
          </div>
        )}
      </body>
    </html>
  );
}

const headers = (csp: string) => ({
  'content-security-policy': csp,
  'referrer-policy': 'same-origin',
  'cache-control': 'public, max-age=300',
});

/** A Markdown page's answer. */
export async function docsPageReply(page: DocsPage): Promise<Reply> {
  const html = (
    <Frame title={page.title} current={page.page} mode={config.mode}>
      <main id="main" class="doc" tabindex={-1} dangerouslySetInnerHTML={{ __html: page.html }} />
    </Frame>
  );
  return { status: 200, body: `<!doctype html>${await html.toString()}\n`, headers: headers(docsCsp()) };
}

/**
 * The API reference's answer. Its script reads what it needs from the mount's data attributes: the document's
 * address, this origin as the one server, and whether try-it is on (the sandbox) or off (live).
 */
export async function docsReferenceReply(): Promise<Reply> {
  const live = config.mode === 'live';
  const html = (
    <Frame title="API reference" current="api-reference" mode={config.mode} scripts={[DOCS_REFERENCE_SCRIPT_PATH, SCALAR_SCRIPT_PATH]} wide>
      <main id="main" class="reference" tabindex={-1}>
        <h1>API reference</h1>
        {live ? (
          <p>This is the live deployment: the reference is read-only here, and sends no requests. Try requests on the sandbox.</p>
        ) : (
          <p>
            Try-it sends requests to this sandbox deployment. Use a sandbox key (<code>mor_test_…</code>): a live key (<code>mor_live_…</code>) is refused
            before anything leaves the page.
          </p>
        )}
        <p class="error" role="alert" id="reference-refusal" hidden />
        <noscript>
          <p>
            The reference needs JavaScript. The <a href={OPENAPI_PATH}>OpenAPI document</a> describes the same API.
          </p>
        </noscript>
        <div id="reference-mount" data-openapi={OPENAPI_PATH} data-try-it={live ? 'off' : 'on'} />
      </main>
    </Frame>
  );
  return { status: 200, body: `<!doctype html>${await html.toString()}\n`, headers: headers(docsReferenceCsp()) };
}
