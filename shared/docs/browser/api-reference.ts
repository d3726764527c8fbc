/**
 * The API reference page's script: draws Scalar's API reference (its standalone script, loaded before this one from
 * this origin, defines `window.Scalar`) over this deployment's OpenAPI document, with nothing fetched from elsewhere
 * (no default fonts, no telemetry, no proxy: this origin is the one server).
 *
 * Scalar's script must run after this one's top level (see the zod note below) and before `start`: the page loads
 * this script first, Scalar's second, both deferred; `start` runs when the document is parsed.
 *
 * Try-it is on only on the sandbox (the page's `data-try-it`), and even there a live key never leaves the page: the
 * request hook (`onBeforeRequest`) looks at every request try-it builds (its URL, headers and body, which hold its
 * query, cookies and credentials) and, when one holds `mor_live_`, says why on the page; the fetch Scalar sends with
 * refuses the same request, so Scalar shows the same reason in its response panel and nothing is sent. Every request
 * of the reference, the document's own included, goes through that fetch.
 */
/** What the standalone script defines (the configuration: `ApiReferenceConfiguration` of `@scalar/types`, 1.76.0). */
interface ScalarGlobal {
  createApiReference(mount: Element, configuration: Record<string, unknown>): unknown;
}

/** The argument of Scalar's request hooks: the request as it will be sent. */
interface ScalarRequestHook {
  readonly request: Request;
}

// Scalar validates its configuration with zod, which probes once whether it may compile code (`Function('')`): under
// the page's CSP (no 'unsafe-eval') the probe is refused, harmlessly, but reported as a violation. Telling zod up front
// that it runs without compiling skips the probe. This script runs before Scalar's (both deferred, in order).
const zodHolder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodHolder.__zod_globalConfig = { ...zodHolder.__zod_globalConfig, jitless: true };

/** What a live key starts with: no request holding it is sent from the docs. */
const LIVE_KEY_PREFIX = 'mor_live_';

/** Why a request was refused, on the page and in Scalar's response panel. */
const LIVE_KEY_REFUSAL = 'Live keys (mor_live_…) never go through the docs: use a sandbox key (mor_test_…).';

/** Everything a request carries that could hold a key: its URL (path and query), each header (cookies among them) and its body. */
async function requestText(request: Request): Promise<string> {
  const headers = [...request.headers.entries()].map(([name, value]) => `${name}: ${value}`);
  const body = request.body === null ? '' : await request.clone().text();
  let url = request.url;
  try {
    url = decodeURIComponent(url);
  } catch {
    // Not valid percent-encoding: the URL as it is.
  }
  return [url, ...headers, body].join(' ');
}

/** Whether the request holds a live key anywhere. */
const holdsLiveKey = async (request: Request): Promise<boolean> => (await requestText(request)).includes(LIVE_KEY_PREFIX);

function showRefusal(): void {
  const refusal = document.getElementById('reference-refusal');
  if (!refusal) return;
  refusal.textContent = LIVE_KEY_REFUSAL;
  refusal.hidden = false;
}

function hideRefusal(): void {
  const refusal = document.getElementById('reference-refusal');
  if (refusal) refusal.hidden = true;
}

/** The fetch of every request of the reference: a request holding a live key is refused here, before the network. */
const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  if (await holdsLiveKey(request)) {
    showRefusal();
    throw new Error(LIVE_KEY_REFUSAL);
  }
  return fetch(request);
};

function start(): void {
  const mount = document.getElementById('reference-mount');
  const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
  if (!mount || !scalar) return;
  const tryIt = mount.dataset.tryIt === 'on';
  scalar.createApiReference(mount, {
    url: mount.dataset.openapi,
    servers: [{ url: window.location.origin, description: tryIt ? 'This sandbox deployment' : 'This deployment' }],
    withDefaultFonts: false,
    // One colour scheme, the one whose contrast the stylesheet makes AA.
    forceDarkModeState: 'light',
    hideDarkModeToggle: true,
    telemetry: false,
    hideTestRequestButton: !tryIt,
    hideClientButton: !tryIt,
    showDeveloperTools: 'never',
    mcp: { disabled: true },
    agent: { disabled: true },
    persistAuth: false,
    customFetch: guardedFetch,
    authentication: { preferredSecurityScheme: 'merchantApiKey' },
    onBeforeRequest: async ({ request }: ScalarRequestHook) => {
      if (await holdsLiveKey(request)) showRefusal();
      else hideRefusal();
    },
  });
}

// Deferred scripts all run before the document's DOMContentLoaded: Scalar's has run by then.
document.addEventListener('DOMContentLoaded', start, { once: true });
