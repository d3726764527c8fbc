/**
 * Hosted fields: client tokens minted by a merchant back end, the SDK and frame the platform serves, the
 * frame's tokenize endpoint, and the whole flow in a real browser: a shop page on another origin mounts the
 * fields, the buyer types a card into the frame, and the page gets a token without ever seeing the card.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as clientTokenKeys from '../../../shared/customers/client-token.entity.ts';
import {
  CLIENT_TOKEN_LIFETIME_MINUTES,
  CLIENT_TOKEN_MAX_USES,
  clientTokenVerifierOf,
  mintClientToken,
} from '../../../shared/customers/client-tokens.service.ts';
import { call, organizationAccount, orgCall, orgPath, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const CARD = '4242 4242 4242 4242';
const CARD_DIGITS = CARD.replace(/ /g, '');
const expiryYear = new Date().getUTCFullYear() + 3;
const card = { primaryAccountNumber: CARD_DIGITS, cardVerificationValue: '123', expirationMonth: 12, expirationYear: expiryYear };

const mint = (org: Org, body: unknown = {}) =>
  orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/client-tokens`, { fullKey: org.fullKey, body });

async function clientToken(org: Org, allowedOrigin?: string): Promise<string> {
  const res = await mint(org, allowedOrigin === undefined ? {} : { allowedOrigin });
  expect(res.status).toBe(201);
  return res.json.data.clientToken;
}

const tokenize = (token: string | undefined, origin: string | undefined, body: unknown = card) =>
  call('POST', '/v1/hosted-fields/tokens', {
    body,
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(origin === undefined ? {} : { 'x-hosted-fields-origin': origin }) },
  });

const tokenCount = async (org: Org) => {
  const res = await orgCall('GET', `${orgPath(org.organizationId)}/payment-instruments/tokens`, { fullKey: org.fullKey });
  expect(res.status).toBe(200);
  return res.json.totalCount as number;
};

/** A valid origin of exactly `length` characters (`https://` and a host of 63-character labels). */
function originOfLength(length: number): string {
  let host = '';
  while (host.length < length - 'https://'.length - '.example'.length) host += `${host ? '.' : ''}${'a'.repeat(63)}`;
  host = host.slice(0, length - 'https://'.length - '.example'.length).replace(/\.$/, 'b');
  return `https://${host}.example`;
}

describe('client tokens', () => {
  it('mints a client token for 15 minutes with 201, and keeps only a hash of it', async () => {
    const org = await organizationAccount();
    const before = Date.now();
    const res = await mint(org);
    const after = Date.now();
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ type: 'object', data: { clientToken: expect.stringMatching(/^mor_ct_[0-9a-f]{64}$/), expiresAt: expect.any(String) } });
    const expiresAt = Date.parse(res.json.data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + CLIENT_TOKEN_LIFETIME_MINUTES * 60_000 - 1);
    expect(expiresAt).toBeLessThanOrEqual(after + CLIENT_TOKEN_LIFETIME_MINUTES * 60_000 + 1);
    expect(CLIENT_TOKEN_LIFETIME_MINUTES).toBe(15);

    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: clientTokenKeys.clientTokenKey(clientTokenVerifierOf(res.json.data.clientToken)) }),
    );
    expect(Item).toMatchObject({ organizationId: org.organizationId, uses: 0, maxUses: CLIENT_TOKEN_MAX_USES });
    expect(JSON.stringify(Item)).not.toContain(res.json.data.clientToken.slice('mor_ct_'.length));
  });

  it('binds a token to one exact page origin and refuses anything that is not one with 400', async () => {
    const org = await organizationAccount();
    for (const allowedOrigin of ['https://shop.example', 'https://shop.example:8443', 'http://127.0.0.1:4000', null, originOfLength(300)]) {
      expect((await mint(org, { allowedOrigin })).status, String(allowedOrigin)).toBe(201);
    }
    expect(originOfLength(300)).toHaveLength(300);
    const refused = [
      'https://shop.example/',
      'https://shop.example/pay',
      'https://Shop.example',
      'https://shop.example:443',
      'http://shop.example',
      'shop.example',
      '*',
      'https://*.shop.example',
      'https://user@shop.example',
      '',
      originOfLength(301),
    ];
    for (const allowedOrigin of refused) {
      const res = await mint(org, { allowedOrigin });
      expect(res.status, allowedOrigin).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
      expect(res.json.message).toMatch(/^allowedOrigin: /);
    }
    expect((await mint(org, { allowedOrigin: 'https://shop.example', extra: 1 })).status).toBe(400);
  });

  it('is minted only for an organization the calling account is linked to (403 otherwise)', async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const res = await orgCall('POST', `${orgPath(other.organizationId)}/payment-instruments/client-tokens`, { fullKey: org.fullKey, body: {} });
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe('forbidden');
    expect((await orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/client-tokens`, { body: {} })).status).toBe(401);
  });
});

describe('the tokenize endpoint of the frame', () => {
  it("tokenizes a card for the client token's organization with 201, on the origin the token allows", async () => {
    const org = await organizationAccount();
    const token = await clientToken(org, 'https://shop.example');
    const res = await tokenize(token, 'https://shop.example');
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({ id: expect.stringMatching(/^tok_\w+$/), createdAt: expect.any(String), expiratedAt: expect.any(String) });
    const read = await orgCall('GET', `${orgPath(org.organizationId)}/payment-instruments/tokens/${res.json.data.id}`, { fullKey: org.fullKey });
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(res.json.data);
  });

  it('refuses a page origin the client token does not allow with 403 and makes no token', async () => {
    const org = await organizationAccount();
    const token = await clientToken(org, 'https://shop.example');
    for (const origin of ['https://evil.example', 'https://shop.example:8443', undefined]) {
      const res = await tokenize(token, origin);
      expect(res.status, String(origin)).toBe(403);
      expect(res.json.errorCode).toBe('client_token.origin_not_allowed');
    }
    expect(await tokenCount(org)).toBe(0);
  });

  it('refuses a missing, malformed, unknown, expired or ApiKey credential with 401 and makes no token', async () => {
    const org = await organizationAccount();
    const expired = await mintClientToken(org.organizationId, {}, new Date(Date.now() - (CLIENT_TOKEN_LIFETIME_MINUTES * 60_000 + 1_000)));
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'auth.missing_client_token'],
      ['mor_ct_short', 'auth.invalid_client_token'],
      [`mor_ct_${'0'.repeat(64)}`, 'auth.invalid_client_token'],
      [expired.clientToken, 'auth.client_token_expired'],
    ];
    for (const [token, code] of cases) {
      const res = await tokenize(token, 'http://127.0.0.1:4000');
      expect(res.status, code).toBe(401);
      expect(res.json.errorCode).toBe(code);
    }
    const withApiKey = await call('POST', '/v1/hosted-fields/tokens', { body: card, headers: { authorization: `ApiKey ${org.fullKey}` } });
    expect(withApiKey.status).toBe(401);
    expect(withApiKey.json.errorCode).toBe('auth.missing_client_token');
    expect(await tokenCount(org)).toBe(0);
  });

  it(`allows ${CLIENT_TOKEN_MAX_USES} attempts per client token, also when they race, then answers 401 used up`, async () => {
    const org = await organizationAccount();
    const token = await clientToken(org);
    // Attempts count whether or not the card is good: these have no card at all.
    const answers = await Promise.all(Array.from({ length: CLIENT_TOKEN_MAX_USES + 3 }, () => tokenize(token, 'https://shop.example', {})));
    const codes = answers.map((a) => a.json.errorCode).sort();
    expect(codes.filter((c) => c === 'request.validation_failed')).toHaveLength(CLIENT_TOKEN_MAX_USES);
    expect(codes.filter((c) => c === 'auth.client_token_used_up')).toHaveLength(3);
    expect((await tokenize(token, 'https://shop.example')).json.errorCode).toBe('auth.client_token_used_up');
    expect(await tokenCount(org)).toBe(0);
  });

  it('answers a bad card with the field it names and never repeats the number', async () => {
    const org = await organizationAccount();
    const token = await clientToken(org);
    const res = await tokenize(token, 'https://shop.example', { ...card, primaryAccountNumber: '4242424242424241' });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('card.invalid_number');
    expect(res.json.details).toContain('primaryAccountNumber');
    expect(res.text).not.toContain('424242424242424');
  });
});

describe('the SDK and frame the platform serves', () => {
  it('serves the SDK and the frame script as JavaScript', async () => {
    const sdk = await call('GET', '/v1/hosted-fields/sdk.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(sdk.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sdk.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(sdk.text).toMatch(/window\.MorHostedFields=\{mount:/);
    const frameJs = await call('GET', '/v1/hosted-fields/frame.js');
    expect(frameJs.status).toBe(200);
    expect(frameJs.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('serves the frame with a CSP that lets only the named origin frame it, loads only its own script and style, and no x-frame-options', async () => {
    const res = await call('GET', `/v1/hosted-fields/frame?origin=${encodeURIComponent('https://shop.example:8443')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const csp = Object.fromEntries(
      (res.headers.get('content-security-policy') ?? '').split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    expect(csp).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': 'https://shop.example:8443',
    });
    expect(res.text).toContain('<script src="frame.js"></script>');
    expect(res.text.match(/<script/g)).toHaveLength(1);
    expect(res.text).not.toMatch(/ style=/);
  });

  it('refuses a frame for something that is not a page origin with 400 (never a wildcard or an injected directive)', async () => {
    for (const origin of ['*', 'https://shop.example; script-src *', 'https://*.shop.example', 'http://shop.example', 'https://shop.example/']) {
      const res = await call('GET', `/v1/hosted-fields/frame?origin=${encodeURIComponent(origin)}`);
      expect(res.status, origin).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_query');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect((await call('GET', '/v1/hosted-fields/frame')).status).toBe(400);
  });
});

/** A shop page on its own origin (127.0.0.1, while the platform is on localhost) that loads the SDK. */
async function startShop(platformApi: string) {
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>Shop checkout</title><script src="${platformApi}/v1/hosted-fields/sdk.js"></script></head>
<body><h1>Checkout</h1><div id="card"></div>
<script>window.received = []; window.addEventListener('message', function (e) { window.received.push(JSON.stringify(e.data)); });</script>
</body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface HostedFields {
  ready(): Promise<void>;
  tokenize(): Promise<{ token: { id: string; createdAt: string; expiratedAt: string } }>;
}
/** What the tests use of the shop page's window (the project's types have no DOM; callbacks run in the page). */
interface ShopWindow {
  MorHostedFields: { mount(options: Record<string, unknown>): HostedFields };
  fields: HostedFields;
  received: string[];
  document: {
    querySelector(selector: string): { contentDocument: unknown } | null;
    createElement(tag: 'iframe'): { id: string; src: string };
    body: { appendChild(node: unknown): void };
  };
}

describe('hosted fields in a browser', { timeout: 60_000 }, () => {
  let browser: Browser;
  let shop: Awaited<ReturnType<typeof startShop>>;
  const platformApi = inject('baseUrl');

  beforeAll(async () => {
    // The Lambda-oriented flags of this Chromium build switch the same-origin policy off; the test needs it on.
    [browser, shop] = await Promise.all([launchBrowser({ singleProcess: true }), startShop(platformApi)]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), shop?.close()]);
  });

  /** The shop page with the fields mounted for `token`, and every request the browser made, by frame. */
  async function mountedShop(token: string): Promise<{ page: Page; requests: Array<{ mainFrame: boolean; url: string; body: string }> }> {
    // Each test has its own browser context; pages stay open until the browser closes (this Chromium runs as a
    // single process, which closing its last page would end).
    const page = await (await browser.newContext()).newPage();
    const requests: Array<{ mainFrame: boolean; url: string; body: string }> = [];
    page.on('request', (r) => requests.push({ mainFrame: r.frame() === page.mainFrame(), url: r.url(), body: r.postData() ?? '' }));
    await page.goto(`${shop.origin}/`);
    await page.evaluate((clientToken) => {
      const w = globalThis as unknown as ShopWindow;
      w.fields = w.MorHostedFields.mount({ clientToken, container: '#card' });
      return w.fields.ready();
    }, token);
    const frame = page.frameLocator('#card iframe');
    await frame.locator('#number').fill(CARD);
    await frame.locator('#expiry').fill(`12 / ${String(expiryYear).slice(2)}`);
    await frame.locator('#cvc').fill('123');
    return { page, requests };
  }

  it("tokenizes a card typed into the frame on a shop page of another origin; the page's DOM, messages and requests never hold the card number", async () => {
    const org = await organizationAccount();
    const token = await clientToken(org, shop.origin);
    const { page, requests } = await mountedShop(token);

    const result = await page.evaluate(() => (globalThis as unknown as ShopWindow).fields.tokenize());
    expect(result.token).toEqual({ id: expect.stringMatching(/^tok_\w+$/), createdAt: expect.any(String), expiratedAt: expect.any(String) });
    const stored = await orgCall('GET', `${orgPath(org.organizationId)}/payment-instruments/tokens/${result.token.id}`, { fullKey: org.fullKey });
    expect(stored.status).toBe(200);
    expect(stored.json.data).toEqual(result.token);
    // The merchant back end attaches the page's token to a customer: the card as typed, without its number.
    const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('buyer') } });
    expect(customer.status).toBe(201);
    const attached = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customer.json.data.id}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: result.token.id },
    });
    expect(attached.status).toBe(201);
    expect(attached.json.data.creditCard).toMatchObject({ creditCardLastFourDigits: '4242', brand: 'visa', expireMonth: 12, expireYear: expiryYear });

    // The page cannot reach into the frame, and nothing it holds, received or sent has the number.
    expect(await page.evaluate(() => (globalThis as unknown as ShopWindow).document.querySelector('iframe')!.contentDocument)).toBeNull();
    const dom = await page.content();
    const received = await page.evaluate(() => (globalThis as unknown as ShopWindow).received.join('\n'));
    expect(received).toContain(result.token.id);
    const fromPage = requests.filter((r) => r.mainFrame);
    expect(fromPage.map((r) => new URL(r.url).pathname).filter((p) => p !== '/favicon.ico')).toEqual(['/', '/api/v1/hosted-fields/sdk.js']);
    for (const text of [dom, received, ...fromPage.map((r) => `${r.url}\n${r.body}`)]) {
      expect(text).not.toContain(CARD_DIGITS);
      expect(text).not.toContain(CARD);
      expect(text).not.toContain(CARD_DIGITS.slice(0, 12));
    }
    // ...while the frame did send it, to the platform's own origin (so the check above looks where cards go).
    const fromFrame = requests.filter((r) => !r.mainFrame && r.body.includes(CARD_DIGITS));
    expect(fromFrame.map((r) => r.url)).toEqual([`${platformApi}/v1/hosted-fields/tokens`]);
  });

  it('refuses to tokenize on a page whose origin the client token does not allow, lets no page script call the endpoint, and never loads a frame that names another origin', async () => {
    const org = await organizationAccount();
    const token = await clientToken(org, 'https://shop.example');
    const { page } = await mountedShop(token);

    const refusal = await page.evaluate(() =>
      (globalThis as unknown as ShopWindow).fields.tokenize().then(
        () => null,
        (e: Error & { code: string }) => e.code,
      ),
    );
    expect(refusal).toBe('client_token.origin_not_allowed');
    // Nor can the page's own script call the tokenize endpoint claiming the allowed origin: no CORS, never sent.
    const direct = await page.evaluate(
      ([url, clientToken, body]) =>
        fetch(url!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${clientToken}`, 'x-hosted-fields-origin': 'https://shop.example' },
          body,
        }).then(
          (r) => `answered ${r.status}`,
          () => 'blocked',
        ),
      [`${platformApi}/v1/hosted-fields/tokens`, token, JSON.stringify(card)],
    );
    expect(direct).toBe('blocked');
    expect(await tokenCount(org)).toBe(0);

    // A page that frames the frame while claiming to be https://shop.example: the CSP's frame-ancestors blocks it
    // (the same frame naming the page's true origin loads).
    const frameUrl = (origin: string) => `${platformApi}/v1/hosted-fields/frame?origin=${encodeURIComponent(origin)}`;
    const addFrame = (id: string, src: string) =>
      page.evaluate(
        ([frameId, frameSrc]) => {
          const { document } = globalThis as unknown as ShopWindow;
          const iframe = document.createElement('iframe');
          iframe.id = frameId!;
          iframe.src = frameSrc!;
          document.body.appendChild(iframe);
        },
        [id, src],
      );
    const served = page.waitForResponse((r) => r.url() === frameUrl('https://shop.example'));
    await Promise.all([addFrame('liar', frameUrl('https://shop.example')), addFrame('honest', frameUrl(shop.origin))]);
    expect((await served).status()).toBe(200);
    const [liar, honest] = await Promise.all([page.$('#liar'), page.$('#honest')]).then((els) => Promise.all(els.map((el) => el!.contentFrame())));
    await expect.poll(() => honest?.url(), { timeout: 10_000 }).toBe(frameUrl(shop.origin));
    await expect.poll(() => liar?.url(), { timeout: 10_000 }).toMatch(/^chrome-error:/);
  });
});
