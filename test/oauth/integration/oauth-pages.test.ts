/**
 * The authorization server's pages in a real browser (the Chromium of `@sparticuz/chromium`, driven by
 * `playwright-core`): a person signs in (once with a wrong password), chooses a merchant and scopes on the consent
 * page and approves; the browser lands on the client's redirect URI with the code. Every page has no axe
 * violation (`@axe-core/playwright`, WCAG 2.x A and AA), no CSP violation or script error, and asks nothing of
 * another origin; the answers are contract-checked, and a screenshot of each page is kept in `test-results/oauth-pages/`.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentScopes } from '../../../shared/domain/agent-scopes.ts';
import { createRootMerchant } from '../../../shared/people/merchants.service.ts';
import { checkContractAt } from '../../support/contract.ts';
import { PASSWORD } from '../../support/fixtures.ts';
import { authorizationParams, authorizePath, exchange, merchantOwner, origin, pkce, registerClient } from '../support.ts';
import { launchBrowser, screenshot } from '../../support/browser.ts';

const screenshots = path.resolve('test-results/oauth-pages');

describe('connecting an app through the OAuth pages in a browser', { timeout: 90_000 }, () => {
  let browser: Browser;
  let callback: http.Server;
  let redirectUri: string;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    // The client's loopback redirect URI: where the browser lands with the code.
    callback = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html lang="en"><title>Connected</title><p>You can close this window.</p></html>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    // The Lambda-oriented flags of this Chromium build switch the same-origin policy off; the pages need it on.
    browser = await launchBrowser({ singleProcess: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
  });

  /** A page whose script errors and console errors (a CSP refusal) are kept, and whose requests are listed. */
  async function openPage() {
    const page = await (await browser.newContext({ viewport: { width: 900, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    const requested: string[] = [];
    const checks: Array<Promise<void>> = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The wrong password's page answers 401: the browser notes it as a failed load, which is expected here.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 401 /.test(m.text())) errors.push(m.text());
    });
    page.on('request', (r) => requested.push(r.url()));
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.origin !== origin) return;
      checks.push(
        r
          .text()
          .then((text) => checkContractAt(r.request().method(), `${u.pathname}${u.search}`, r.status(), null, text, r.headers()['content-type'] ?? null))
          .catch((e) => {
            // A redirect's body cannot be read in the browser; its contract was checked over HTTP by the other tests.
            if (!(r.status() >= 300 && r.status() < 400)) throw e;
          }),
      );
    });
    return { page, errors, requested, checked: () => Promise.all(checks) };
  }

  async function expectAccessible(page: Page, name: string) {
    await screenshot(page, path.join(screenshots, `${name}.png`));
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
      name,
    ).toEqual([]);
  }

  it('signs in, consents to some scopes for one of two merchants, and lands on the redirect URI with a code that works', async () => {
    const registered = await registerClient({
      client_name: 'Browser agent',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const client = { clientId: registered.json.client_id as string, redirectUri };
    const owner = await merchantOwner('Harbor Goods');
    const second = await createRootMerchant({ name: 'Atlas Supply', ownerEmail: owner.email, ownerPassword: PASSWORD, mode: 'test' });
    const { verifier, challenge } = pkce();
    const params = authorizationParams(client, challenge);
    const { page, errors, requested, checked } = await openPage();

    await page.goto(`${origin}${authorizePath(params)}`);
    await expect.poll(() => page.title()).toBe('Sign in to connect an app');
    await expectAccessible(page, '1-sign-in');

    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('this is not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Email or password is wrong. Check both and try again.');
    expect(await page.getByLabel('Email').inputValue()).toBe(owner.email);
    await expectAccessible(page, '2-sign-in-error');

    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.title()).toBe('Allow access to your merchant account');
    expect(await page.getByRole('main').innerText()).toContain('Browser agent');
    expect(await page.getByRole('main').innerText()).toContain(`returns you to ${new URL(redirectUri).host}`);
    for (const scope of agentScopes) {
      const box = page.getByRole('checkbox', { name: new RegExp(`^${scope} `) });
      expect(await box.isChecked(), scope).toBe(true);
    }
    const merchant = page.getByLabel('Merchant it acts for');
    expect(await merchant.locator('option').allInnerTexts()).toEqual(['Atlas Supply', 'Harbor Goods']);
    await expectAccessible(page, '3-consent');

    await merchant.selectOption({ label: 'Harbor Goods' });
    for (const scope of ['merchant:go_live', 'merchant:create', 'checkout:write'])
      await page.getByRole('checkbox', { name: new RegExp(`^${scope} `) }).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));

    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toMatch(/^mor_ocd_[0-9a-f]{64}$/);
    expect(landed.searchParams.get('state')).toBe(params.state);
    expect(landed.searchParams.get('iss')).toBe(origin);
    await checked();
    expect(errors).toEqual([]);
    // Nothing but this platform's pages, then the client's redirect URI.
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith(redirectUri))).toEqual([]);

    const tokens = await exchange(client, landed.searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.json.scope).toBe('docs:read merchant:read product:create product:read checkout:read');
    expect(second.merchantId).not.toBe(owner.merchantId);
  });

  it('denies from the consent page: the browser lands on the redirect URI with access_denied', async () => {
    const registered = await registerClient({ client_name: 'Denied agent', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
    const owner = await merchantOwner('Solo Goods');
    const params = authorizationParams({ clientId: registered.json.client_id, redirectUri }, pkce().challenge);
    const { page, errors } = await openPage();
    await page.goto(`${origin}${authorizePath(params)}`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.title()).toBe('Allow access to your merchant account');
    expect(await page.getByRole('main').innerText()).toContain('It will act for the merchant Solo Goods.');
    await expectAccessible(page, '4-consent-one-merchant');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    expect(errors).toEqual([]);
  });

  it('shows the error page of an unregistered redirect URI without leaving the platform, accessibly', async () => {
    const registered = await registerClient({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
    const { page, errors, requested } = await openPage();
    await page.goto(
      `${origin}${authorizePath(authorizationParams({ clientId: registered.json.client_id, redirectUri: 'https://evil.example/cb' }, pkce().challenge))}`,
    );
    await expect.poll(() => page.title()).toBe('This link cannot be used');
    await expectAccessible(page, '5-error');
    expect(requested.every((u) => u.startsWith(`${origin}/`))).toBe(true);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
