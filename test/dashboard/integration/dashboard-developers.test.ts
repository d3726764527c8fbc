/**
 * The dashboard's Developers area, in a real browser: an owner creates an API key and sees it once, adds a webhook
 * destination to a loopback receiver, sends a test (its answer on the page, nothing in the delivery log), pays an
 * order made through the merchant API and finds its delivery in the log with the filters, and mints an MCP token
 * seen once. A member sees the lists without the buttons, and over HTTP a member's form to create a key or a
 * destination is refused with 403 and changes nothing. Every page is axe-clean with a screenshot.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putNewMembership } from '../../../shared/people/memberships.repository.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { nextYear } from '../../support/dates.ts';
import { http } from '../../support/http.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';
import { call, organizationAccount, orgCall, PASSWORD, person, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { bodyOf, eventually, startReceiver } from '../../support/receiver.ts';

const developers = (merchantId: string, rest = '') => `${origin}/dashboard/merchants/${merchantId}/developers${rest}`;

/** Signs the owner in and opens `url`. */
async function ownerOn(page: Page, email: string, url: string) {
  await signInThroughPages(page, email);
  await page.waitForURL(`${origin}/dashboard`);
  await page.goto(url);
}

/** A sandbox payment of an order made through the merchant API, paid at checkout with a card tokenized by the order's client token. */
async function payAnOrder(merchantId: string, apiKey: string): Promise<string> {
  const order = await call('POST', `/v1/public-api/merchants/${merchantId}/orders`, {
    key: apiKey,
    body: { currency: 'USD', lines: [{ description: 'Developer test', unitAmount: 12, quantity: 1 }] },
  });
  expect(order.status, order.text).toBe(201);
  const opened = await call('GET', `/v1/checkout/orders/${order.json.id}`);
  const card = await call('POST', '/v1/hosted-fields/tokens', {
    body: { primaryAccountNumber: '4242424242424242', cardVerificationValue: '123', expirationMonth: 12, expirationYear: nextYear },
    headers: { authorization: `Bearer ${opened.json.clientToken}` },
  });
  expect(card.status, card.text).toBe(201);
  const paid = await call('POST', `/v1/checkout/orders/${order.json.id}/confirm`, {
    body: { email: uniqueEmail('buyer'), token: card.json.data.id, billingAddress: { country: 'DE' } },
  });
  expect(paid.status, paid.text).toBe(200);
  return paid.json.transactionId as string;
}

describe('the dashboard: developers', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates an API key shown once (not on the page again), which works until it is revoked', async () => {
    const owner = await rootMerchant('Keys Shop');
    const w = await openPage(browser);
    const { page } = w;
    page.on('dialog', (d) => void d.accept());
    await ownerOn(page, owner.ownerEmail, developers(owner.merchantId));
    expect(await heading(page)).toBe('Developers');
    await expectAccessible(page, 'developers');

    await page.getByRole('link', { name: 'API keys' }).click();
    expect(await heading(page)).toBe('API keys');
    await expectAccessible(page, 'developers-api-keys');

    await page.getByLabel('Name', { exact: true }).fill('Production server');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = await page.locator('#api-key-secret').innerText();
    expect(secret).toMatch(/^mor_test_[0-9a-f]{64}$/);
    expect(await page.getByRole('heading', { name: 'API key “Production server” created' }).count()).toBe(1);
    await expectAccessible(page, 'developers-api-key-created');
    const listed = await call('GET', `/v1/public-api/merchants/${owner.merchantId}/api-keys`, { key: secret });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(secret);

    // The page again: the key is listed by its hint only.
    await page.goto(developers(owner.merchantId, '/api-keys'));
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator('.secret').count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: 'Production server' });
    expect(await row.innerText()).toContain(secret.slice(0, 6));

    await row.getByRole('button', { name: 'Revoke Production server' }).click();
    await page.waitForURL(/\?done=revoked$/);
    expect(await page.getByRole('status').innerText()).toBe('The API key is revoked: requests with it are refused from now on.');
    expect(await page.getByRole('row').filter({ hasText: 'Production server' }).innerText()).toContain('revoked');
    expect((await call('GET', `/v1/public-api/merchants/${owner.merchantId}/api-keys`, { key: secret })).status).toBe(401);
    await w.expectClean();
  });

  it("adds a destination, sends a test (shown on the page, not logged), then finds a payment's delivery with the log's filters", async () => {
    const owner = await rootMerchant('Hooks Shop');
    const receiver = await startReceiver();
    try {
      const w = await openPage(browser);
      const { page } = w;
      await ownerOn(page, owner.ownerEmail, developers(owner.merchantId, '/webhooks'));
      expect(await heading(page)).toBe('Webhooks');
      expect(await page.getByRole('main').innerText()).toContain('No webhook destinations yet.');
      await expectAccessible(page, 'developers-webhooks-empty');

      await page.getByLabel('URL').fill(`${receiver.url}/hooks`);
      await page.getByRole('checkbox', { name: 'payment.completed', exact: true }).check();
      await page.getByRole('checkbox', { name: 'Also receive these events of my sub-merchants' }).check();
      await page.getByRole('button', { name: 'Add destination' }).click();
      const secret = await page.locator('#signing-secret').innerText();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await expectAccessible(page, 'developers-webhook-created');

      await page.getByRole('link', { name: 'Open the destination' }).click();
      expect(await heading(page)).toBe('Webhook destination');
      expect(await page.content()).not.toContain(secret);
      const destinationUrl = page.url();
      expect(await page.getByRole('main').innerText()).toContain('No deliveries yet.');
      await expectAccessible(page, 'developers-webhook');

      await page.getByRole('button', { name: 'Send test' }).click();
      expect(await page.getByRole('status').innerText()).toMatch(/^delivered The receiver answered HTTP 200 in \d+ ms\.$/);
      expect(receiver.received).toHaveLength(1);
      expect(bodyOf(receiver.received[0]!).type).toBe('webhook.test');
      expect(await page.getByRole('main').innerText()).toContain('No deliveries yet.');
      await expectAccessible(page, 'developers-webhook-tested');

      const transactionId = await payAnOrder(owner.merchantId, owner.apiKey);
      await eventually(() => receiver.received.find((r) => bodyOf(r).transactionId === transactionId), 25_000, 'payment.completed');

      // The log with the three filters, polled: the record is written as the delivery finishes.
      await page.goto(destinationUrl);
      await page.getByLabel('Status').selectOption('succeeded');
      await page.getByLabel('Event type').selectOption('payment.completed');
      await page.getByLabel('Response code').fill('200');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/\?status=succeeded&eventType=payment.completed&httpStatus=200$/);
      const rows = page.getByRole('table', { name: 'Deliveries to this destination, newest first' }).getByRole('row');
      await eventually(async () => ((await rows.count()) === 2 ? true : void (await page.reload())), 20_000, 'the delivery in the log');
      expect(await rows.nth(1).innerText()).toMatch(/payment\.completed\s+evt_[0-9a-f]{32}\s+succeeded\s+200/);
      expect(await page.getByLabel('Status').inputValue()).toBe('succeeded');
      await expectAccessible(page, 'developers-webhook-log');

      await page.getByLabel('Response code').fill('500');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await page.getByRole('main').innerText()).toContain('No deliveries match these filters.');
      await w.expectClean();
    } finally {
      await receiver.close();
    }
  });

  it('mints an MCP token shown once, for this deployment, and revokes it', async () => {
    const owner = await rootMerchant('Agents Shop');
    const w = await openPage(browser);
    const { page } = w;
    page.on('dialog', (d) => void d.accept());
    await ownerOn(page, owner.ownerEmail, developers(owner.merchantId, '/mcp-tokens'));
    expect(await heading(page)).toBe('MCP tokens');
    const main = await page.getByRole('main').innerText();
    expect(main).toContain('These are your tokens for the Sandbox deployment');
    expect(main).toContain("The Live tab lives on the Live deployment's own dashboard");
    expect(main).toContain('You have no MCP tokens on this merchant.');
    await expectAccessible(page, 'developers-mcp-tokens-empty');

    await page.getByLabel('Name').fill('Laptop agent');
    await page.getByRole('checkbox', { name: /^merchant:read —/ }).check();
    await page.getByRole('checkbox', { name: /^product:read —/ }).check();
    await page.getByLabel('Lifetime').selectOption('3');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.locator('#mcp-token-secret').innerText();
    expect(token).toMatch(/^mor_mcp_test_[A-Za-z0-9_-]{86}$/);
    await expectAccessible(page, 'developers-mcp-token-created');

    await page.goto(developers(owner.merchantId, '/mcp-tokens'));
    expect(await page.content()).not.toContain(token);
    const row = page.getByRole('row').filter({ hasText: 'Laptop agent' });
    expect(await row.innerText()).toContain('merchant:read, product:read');
    await expectAccessible(page, 'developers-mcp-tokens');
    await row.getByRole('button', { name: 'Revoke Laptop agent' }).click();
    await page.waitForURL(/\?done=revoked$/);
    expect(await page.getByRole('row').filter({ hasText: 'Laptop agent' }).innerText()).toContain('revoked');
    await w.expectClean();
  });

  it('makes an organization API key of an account of the merchant alone, shown once, which works until it is revoked there', async () => {
    const owner = await rootMerchant('Solo Shop');
    const member = await person();
    await transactWrite([
      ['membership', [putNewMembership({ merchantId: owner.merchantId, userId: member.userId, role: 'member', createdAt: new Date().toISOString() })]],
    ]);
    const signedIn = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    const post = (token: string, fields: Record<string, string>) =>
      http('POST', `/dashboard/merchants/${owner.merchantId}/developers/api-keys`, {
        baseUrl: origin,
        headers: { cookie: `${SESSION_COOKIE}=${token}`, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrfTokenOf(token), ...fields }).toString(),
      });
    const fullKey = /<code id="api-key-secret">([0-9a-f-]{36}_[0-9a-f]{64}_[0-9a-f-]{36})<\/code>/;

    const formKey = randomUUID();
    const made = await post(signedIn.json.token, { action: 'create_org', name: 'Backend', form_key: formKey });
    expect(made.status, made.text).toBe(200);
    const key = fullKey.exec(made.text)?.[1];
    expect(key, made.text).toBeDefined();
    expect(made.text).toContain('Authorization: ApiKey');
    // The organization API with it: the merchant is the organization.
    const org = await orgCall('GET', `/v1/public-api/organizations/${owner.merchantId}`, { fullKey: key! });
    expect(org.status, org.text).toBe(200);
    const customer = await orgCall('POST', `/v1/public-api/organizations/${owner.merchantId}/customers`, {
      fullKey: key!,
      body: { email: uniqueEmail('solo') },
    });
    expect(customer.status, customer.text).toBe(201);

    // The same form again makes nothing; a member may not make one; the page lists the key by its id, never the key.
    const again = await post(signedIn.json.token, { action: 'create_org', name: 'Backend', form_key: formKey });
    expect(again.text).toContain('This form was sent before');
    expect(fullKey.test(again.text)).toBe(false);
    expect((await post(member.token, { action: 'create_org', name: 'Not allowed', form_key: randomUUID() })).status).toBe(403);
    const apiKeyId = key!.split('_')[2]!;
    const page = await http('GET', `/dashboard/merchants/${owner.merchantId}/developers/api-keys`, {
      baseUrl: origin,
      headers: { cookie: `${SESSION_COOKIE}=${signedIn.json.token}` },
    });
    expect(page.text).toContain(apiKeyId);
    expect(page.text).not.toContain(key!);
    expect(page.text.match(/<td>Backend<\/td>/g)).toHaveLength(1);

    // Another account's key (one of another organization) is not this page's to revoke.
    const stranger = await organizationAccount('Stranger');
    const foreignKeyId = stranger.fullKey.split('_')[2]!;
    expect((await post(signedIn.json.token, { action: 'revoke_org', apiKeyId: foreignKeyId })).status).toBe(404);
    expect((await orgCall('GET', `/v1/public-api/organizations/${stranger.organizationId}`, { fullKey: stranger.fullKey })).status).toBe(200);

    const revoked = await post(signedIn.json.token, { action: 'revoke_org', apiKeyId });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toMatch(/\?done=revoked$/);
    expect((await orgCall('GET', `/v1/public-api/organizations/${owner.merchantId}`, { fullKey: key! })).status).toBe(401);
  });

  it("shows a member the lists without the buttons, and refuses a member's key or destination form with 403, changing nothing", async () => {
    const owner = await rootMerchant('Members Shop');
    const member = await person();
    await transactWrite([
      ['membership', [putNewMembership({ merchantId: owner.merchantId, userId: member.userId, role: 'member', createdAt: new Date().toISOString() })]],
    ]);

    const w = await openPage(browser);
    const { page } = w;
    await ownerOn(page, member.email, developers(owner.merchantId, '/api-keys'));
    expect(await page.getByRole('row').count()).toBe(2);
    expect(await page.getByRole('button', { name: /Create API key|Revoke/ }).count()).toBe(0);
    expect(await page.getByRole('main').innerText()).toContain('Only owners and admins can create or revoke API keys.');
    await expectAccessible(page, 'developers-api-keys-member');
    await page.goto(developers(owner.merchantId, '/webhooks'));
    expect(await page.getByRole('button', { name: 'Add destination' }).count()).toBe(0);
    await w.expectClean();

    const post = (path: string, fields: Record<string, string>) =>
      http('POST', `/dashboard/merchants/${owner.merchantId}/developers${path}`, {
        baseUrl: origin,
        headers: { cookie: `${SESSION_COOKIE}=${member.token}`, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrfTokenOf(member.token), ...fields }).toString(),
      });
    const key = await post('/api-keys', { action: 'create', name: 'Not allowed' });
    expect(key.status).toBe(403);
    expect(key.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(key.text).not.toMatch(/mor_test_[0-9a-f]{64}/);
    const destination = await post('/webhooks', { action: 'create', url: 'http://127.0.0.1:9999/x', eventTypes: 'payment.completed' });
    expect(destination.status).toBe(403);

    const keys = await call('GET', `/v1/public-api/merchants/${owner.merchantId}/api-keys`, { key: owner.apiKey });
    expect(keys.json.map((k: { name: string }) => k.name)).not.toContain('Not allowed');
    expect(keys.json).toHaveLength(1);
    const destinations = await call('GET', `/v1/dashboard/merchants/${owner.merchantId}/webhook-destinations`, { key: member.token });
    expect(destinations.json.data).toEqual([]);
  });
});
