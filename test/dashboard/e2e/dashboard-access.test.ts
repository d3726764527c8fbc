/**
 * The dashboard's way in, in a real browser: sign up, sign out, sign in (once wrong), the session cookie's
 * attributes, a join link claimed by a new person (signed out first, so through sign-up and back), the same page for
 * every link that cannot be claimed, the merchant home, and a forgotten password reset. Every page is axe-clean with a screenshot; one journey
 * is done with the keyboard alone. Over HTTP: a form posted from another origin or without its CSRF token changes
 * nothing.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../support/http.ts';
import { mailsArrived } from '../../support/mails.ts';
import { PASSWORD, rootMerchant, subMerchant, verificationLinkOf } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages, signUpThroughPages } from '../support.ts';

describe('the dashboard: signing up, in and out, and claiming a merchant', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up, sees an empty switcher that says what to do, signs out and back in (once with a wrong password)', async () => {
    const w = await openPage(browser, { allowStatuses: [401] });
    const { page } = w;
    await page.goto(`${origin}/dashboard`);
    await page.waitForURL(`${origin}/dashboard/sign-in?next=%2Fdashboard`);
    expect(await heading(page)).toBe('Sign in');
    await expectAccessible(page, 'sign-in');

    await page.getByRole('link', { name: 'Create an account' }).click();
    expect(await heading(page)).toBe('Create your account');
    await expectAccessible(page, 'sign-up');
    const email = await signUpThroughPages(page, undefined, undefined, { confirmed: false });
    await page.waitForURL(`${origin}/dashboard`);
    expect(await heading(page)).toBe('Your merchants');
    const empty = await page.getByRole('main').innerText();
    expect(empty).toContain('You are not a member of any merchant yet.');
    expect(empty).toContain('We mailed a link to');
    await expectAccessible(page, 'merchants-empty');

    // The person opens the link mailed to them: its page confirms with a button, and the switcher says so.
    await page.goto(`${origin}${await verificationLinkOf(email)}`);
    expect(await heading(page)).toBe('Confirm your e-mail address');
    await expectAccessible(page, 'verify-email');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.waitForURL(`${origin}/dashboard?done=email_verified`);
    expect(await page.getByRole('status').innerText()).toBe('Your e-mail address is confirmed: a team can now add you by it.');
    expect(await page.getByRole('main').innerText()).not.toContain('We mailed a link to');

    const cookie = (await w.context.cookies()).find((c) => c.name === '__Host-mor_session');
    expect(cookie).toMatchObject({ name: '__Host-mor_session', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(cookie!.domain).toBe(new URL(origin).hostname);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/dashboard/sign-in?done=signed_out`);
    expect(await page.getByRole('status').innerText()).toBe('You are signed out.');
    // Signed out: the session cookie is gone; the browser stays known to the address (its device cookie, no credential).
    expect((await w.context.cookies()).map((c) => c.name)).toEqual(['__Host-mor_device']);

    await signInThroughPages(page, email, 'not the password at all');
    expect(await page.getByRole('alert').innerText()).toBe('The e-mail or the password is wrong. Check both and try again.');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await expectAccessible(page, 'sign-in-error');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/dashboard`);
    await w.expectClean();
  });

  it('resets a forgotten password from the sign-in page: the link by mail, a new password, signed in with it', async () => {
    const owner = await rootMerchant('Forgetful Shop');
    const w = await openPage(browser);
    const { page } = w;
    await page.goto(`${origin}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    expect(await heading(page)).toBe('Reset your password');
    await expectAccessible(page, 'password-reset');
    await page.getByLabel('Email').fill(owner.ownerEmail);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('is on its way there').waitFor();
    await expectAccessible(page, 'password-reset-sent');

    const [mail] = await mailsArrived(owner.ownerEmail, 'Choose a new password');
    const link = /https?:\/\/\S+(\/dashboard\/password-reset\/\S+)/.exec(mail!.text)![1]!;
    await page.goto(`${origin}${link}`);
    expect(await heading(page)).toBe('Choose a new password');
    await expectAccessible(page, 'new-password');
    await page.getByLabel('New password').fill('a forgotten, then new, passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.waitForURL(`${origin}/dashboard/sign-in?done=password_reset`);
    expect(await page.getByRole('status').innerText()).toContain('Your password is changed');
    await expectAccessible(page, 'sign-in-after-reset');
    await signInThroughPages(page, owner.ownerEmail, 'a forgotten, then new, passphrase');
    await page.waitForURL(`${origin}/dashboard`);
    expect(await heading(page)).toBe('Your merchants');
    await w.expectClean();
  });

  it('claims a merchant through its join link with the keyboard alone: sign-up, back to the link, claim, home', async () => {
    const partner = await rootMerchant('Keyboard Partner');
    const sub = await subMerchant(partner.apiKey, { name: 'Keyboard Shop' });
    const joinUrl = new URL(sub.joinLink.url as string);
    expect(joinUrl.pathname).toMatch(/^\/join\//);

    // The made-up link's page at the end answers 404.
    const w = await openPage(browser, { allowStatuses: [404] });
    const { page } = w;
    await page.goto(`${origin}${joinUrl.pathname}`);
    expect(await heading(page)).toBe('Claim your merchant');
    expect(await page.getByRole('main').innerText()).toContain('This link makes you the owner of Keyboard Shop.');
    await expectAccessible(page, 'join-signed-out');

    // Tab to "Create an account" and follow it.
    const focusOn = async (name: string) => {
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate<string>("document.activeElement ? document.activeElement.innerText.trim() : ''")) === name) return;
      }
      throw new Error(`${name} never got the focus`);
    };
    await focusOn('Create an account');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/sign-up\?next=/);
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // "Dashboard"
    await page.keyboard.press('Tab'); // Name
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type(`kim-${Date.now()}@example.com`);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}${joinUrl.pathname}`);
    await expectAccessible(page, 'join-signed-in');
    await focusOn('Claim merchant');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/merchants\/[0-9a-f-]{36}\?done=joined$/);
    expect(await heading(page)).toBe('Home');
    expect(await page.getByRole('status').innerText()).toBe('You are the owner of this merchant now.');
    expect(await page.getByRole('navigation', { name: 'Merchant' }).getByRole('link').allInnerTexts()).toEqual([
      'Home',
      'Payments',
      'Customers',
      'Subscriptions',
      'Invoices',
      'Payouts',
      'Catalog',
      'Checkout settings',
      'Customer portal',
      'Developers',
      'Team',
      'Partners',
    ]);
    expect(await page.locator('.deployment').innerText()).toBe('Sandbox');
    await expectAccessible(page, 'home');

    // The same link again, and a made-up one: the same page.
    const again = await page.request.post(`${origin}${joinUrl.pathname}`, { form: { csrf_token: await csrfOf(page) }, headers: { origin }, maxRedirects: 0 });
    const madeUp = await page.request.post(`${origin}/join/${'0'.repeat(64)}`, {
      form: { csrf_token: await csrfOf(page) },
      headers: { origin },
      maxRedirects: 0,
    });
    const madeUpOpened = await page.request.get(`${origin}/join/${'0'.repeat(64)}`);
    expect(again.status()).toBe(404);
    expect(madeUp.status()).toBe(404);
    expect(madeUpOpened.status()).toBe(404);
    expect(await again.text()).toBe(await madeUp.text());
    expect(await madeUpOpened.text()).toBe(await madeUp.text());
    expect(await madeUp.text()).toContain('This join link is not valid');

    // The switcher now lists the merchant; a link that cannot be claimed is an error page of its own.
    await page.getByRole('link', { name: 'Switch merchant' }).click();
    expect(await heading(page)).toBe('Your merchants');
    expect(await page.getByRole('link', { name: 'Keyboard Shop' }).count()).toBe(1);
    await expectAccessible(page, 'merchants');
    await page.goto(`${origin}/join/${'0'.repeat(64)}`);
    expect(await heading(page)).toBe('Page not found');
    await expectAccessible(page, 'error-not-found');
    // An address under /dashboard that is no page is the same page, under the pages' CSP (expectClean: no violation).
    const unknown = await page.goto(`${origin}/dashboard/settings/no-such-page`);
    expect(unknown?.status()).toBe(404);
    expect(await heading(page)).toBe('Page not found');
    await w.expectClean();
  });

  it('sends a browser whose session ended to sign in, says so, clears the cookie and comes back to the page', async () => {
    const ended = await http('GET', '/dashboard?done=joined', { baseUrl: origin, headers: { cookie: `__Host-mor_session=mor_sess_${'0'.repeat(64)}` } });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe(`${origin}/dashboard/sign-in?next=%2Fdashboard%3Fdone%3Djoined&done=expired`);
    expect(ended.headers.get('set-cookie')).toBe('__Host-mor_session=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0');
    const never = await http('GET', '/dashboard', { baseUrl: origin });
    expect(never.headers.get('location')).toBe(`${origin}/dashboard/sign-in?next=%2Fdashboard`);

    const w = await openPage(browser);
    await w.page.goto(ended.headers.get('location')!);
    expect(await w.page.getByRole('status').innerText()).toBe('Your session has ended. Sign in again.');
    await w.expectClean();
  });

  it('catches a CSP violation: an inline script and an image from elsewhere are refused and reported', async () => {
    const w = await openPage(browser);
    await w.page.goto(`${origin}/dashboard/sign-in`);
    await w.page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.ran = true';
      document.body.append(script);
      const img = document.createElement('img');
      img.src = 'http://127.0.0.1:9/elsewhere.png';
      img.alt = '';
      document.body.append(img);
    })()`);
    await expect.poll(() => w.errors.filter((e) => e.includes('CSP violation')).length).toBe(2);
    expect(await w.page.evaluate('window.ran === true')).toBe(false);
    expect(w.errors.join('\n')).toMatch(/CSP violation: script-src-elem inline/);
    expect(w.errors.join('\n')).toMatch(/CSP violation: img-src http:\/\/127\.0\.0\.1:9\/elsewhere\.png/);
  });

  it('refuses a form from another origin, or without its CSRF token, and changes nothing', async () => {
    const w = await openPage(browser);
    await signUpThroughPages(w.page);
    await w.page.waitForURL(`${origin}/dashboard`);
    const csrf = await csrfOf(w.page);
    const cookie = (await w.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const signOut = (headers: Record<string, string>, body: string) =>
      http('POST', '/dashboard/sign-out', { baseUrl: origin, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

    const crossSite = await signOut({ origin: 'https://attacker.example' }, `csrf_token=${encodeURIComponent(csrf)}`);
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(crossSite.text).toContain('This form was sent from another site, so nothing was changed.');
    const noOrigin = await signOut({}, `csrf_token=${encodeURIComponent(csrf)}`);
    expect(noOrigin.status).toBe(403);
    const noToken = await signOut({ origin }, '');
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('This form has expired or did not come from this dashboard');
    const wrongToken = await signOut({ origin }, 'csrf_token=forged');
    expect(wrongToken.status).toBe(403);

    // Still signed in.
    await w.page.goto(`${origin}/dashboard`);
    expect(await heading(w.page)).toBe('Your merchants');
    const sameSite = await signOut({ origin }, `csrf_token=${encodeURIComponent(csrf)}`);
    expect(sameSite.status).toBe(303);
    await w.expectClean();
  });
});

/** The CSRF token of the page's forms. */
const csrfOf = (page: import('playwright-core').Page) => page.locator('input[name=csrf_token]').first().inputValue();
