/**
 * The dashboard's Team and Partners pages in a real browser. Team: an unregistered e-mail is refused with what to do,
 * a registered user is added as Admin, made an Owner, removed after the confirmation, and the last owner cannot make
 * themselves a Member (the service's reason shown). Partners: a sub-merchant created with its join link shown once,
 * the link re-minted, a member of the partner's team assigned (becoming the owner of the unclaimed sub-merchant),
 * who sees on the sub-merchant that partners are for root merchants, and whose own POST of the partner's form, as a
 * Member of the partner, is refused with 403 and creates nothing. Every page is axe-clean with a screenshot.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, colleagues, joinTeam, PASSWORD, person, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';

const acceptDialogs = (page: Page) => page.on('dialog', (d) => void d.accept());

describe('the dashboard: team and partners', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds a colleague from another team, changes their role, removes them after asking, and keeps the last owner', async () => {
    const shop = await rootMerchant('Team Shop');
    const colleague = await person(uniqueEmail('colleague'));
    await colleagues(shop.ownerEmail, colleague);
    const teamPath = `/dashboard/merchants/${shop.merchantId}/team`;
    const w = await openPage(browser, { allowStatuses: [409, 422] });
    const { page } = w;
    acceptDialogs(page);
    await signInThroughPages(page, shop.ownerEmail, undefined, teamPath);
    await page.waitForURL(`${origin}${teamPath}`);
    expect(await heading(page)).toBe('Team');
    expect(await page.getByRole('main').innerText()).toContain('You are the only member.');
    await expectAccessible(page, 'team');

    const nobody = uniqueEmail('nobody');
    await page.getByLabel('Email').fill(nobody);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe(
      'Only someone on another of your teams, with a confirmed address, is added at once: invite anyone else (the invitation, mailed to the address, adds them when they accept it).',
    );
    expect(await page.getByLabel('Email').inputValue()).toBe(nobody);
    await expectAccessible(page, 'team-error');

    await page.getByLabel('Email').fill(colleague.email);
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.waitForURL(`${origin}${teamPath}?done=added`);
    const row = page.getByRole('row', { name: new RegExp(colleague.email) });
    expect(await row.innerText()).toContain('Admin');
    await expectAccessible(page, 'team-added');

    await page.getByLabel(`Role of ${colleague.email}`, { exact: true }).selectOption('owner');
    await page.getByRole('button', { name: `Save the role of ${colleague.email}` }).click();
    await page.waitForURL(`${origin}${teamPath}?done=role_changed`);
    expect(await row.innerText()).toContain('Owner');

    await page.getByRole('button', { name: `Remove ${colleague.email}` }).click();
    await page.waitForURL(`${origin}${teamPath}?done=removed`);
    expect(await page.getByRole('status').innerText()).toBe('The member was removed.');
    expect(await row.count()).toBe(0);

    // The only owner is offered no role change and no removal, and is told why; a form posted anyway is refused.
    const ownerRow = page.getByRole('row', { name: new RegExp(shop.ownerEmail) });
    expect(await ownerRow.innerText()).toContain('The only owner: make another member owner first');
    expect(await page.getByLabel(`Role of ${shop.ownerEmail}`, { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `Remove ${shop.ownerEmail}` }).count()).toBe(0);
    const refused = await page.request.post(`${origin}${teamPath}`, {
      form: { csrf_token: await page.locator('input[name=csrf_token]').first().inputValue(), action: 'role', userId: shop.ownerUserId, role: 'member' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(409);
    expect(await refused.text()).toContain('last owner: make someone else an owner first.');
    await page.reload();
    expect(await ownerRow.innerText()).toContain('Owner');
    await expectAccessible(page, 'team-last-owner');
    await w.expectClean();
  });

  it('creates a sub-merchant with its join link shown once, re-mints it, assigns a team member who becomes its owner', async () => {
    const partner = await rootMerchant('Partner Pages Co');
    const teammate = await person(uniqueEmail('teammate'));
    const ownerSession = await call('POST', '/v1/dashboard/sessions', { body: { email: partner.ownerEmail, password: PASSWORD } });
    await joinTeam(partner.merchantId, ownerSession.json.token, teammate);

    const partnersPath = `/dashboard/merchants/${partner.merchantId}/partners`;
    const w = await openPage(browser);
    const { page } = w;
    acceptDialogs(page);
    await signInThroughPages(page, partner.ownerEmail, undefined, partnersPath);
    await page.waitForURL(`${origin}${partnersPath}`);
    expect(await heading(page)).toBe('Partners');
    expect(await page.getByRole('main').innerText()).toContain('No sub-merchants yet. Create the first one below.');
    await expectAccessible(page, 'partners-empty');

    await page.getByLabel('Name', { exact: true }).fill('Corner Shop');
    await page.getByLabel('Website', { exact: true }).fill('https://corner.example');
    await page.getByRole('button', { name: 'Create merchant' }).click();
    await page.waitForLoadState();
    const link = page.locator('#join-link-url');
    const first = await link.innerText();
    expect(first).toMatch(/\/join\/[0-9a-f-]{36}\.[0-9a-f]{64}$/);
    expect(page.url()).toBe(`${origin}${partnersPath}`);
    expect(await page.getByRole('row', { name: /Corner Shop/ }).innerText()).toContain('https://corner.example');
    await expectAccessible(page, 'partners-created');

    await page.getByRole('button', { name: 'New join link for Corner Shop' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('status').innerText()).toBe('A new join link was made; the earlier one no longer works.');
    const second = await link.innerText();
    expect(second).not.toBe(first);
    await expectAccessible(page, 'partners-reminted');
    // The link is shown in the answer to the form only.
    await page.goto(`${origin}${partnersPath}`);
    expect(await link.count()).toBe(0);

    await page.getByLabel('Sub-merchant', { exact: true }).selectOption({ label: 'Corner Shop' });
    await page.getByLabel('Email', { exact: true }).fill(teammate.email);
    await page.getByRole('button', { name: 'Assign member' }).click();
    await page.waitForURL(`${origin}${partnersPath}?done=assigned`);
    expect(await page.getByRole('row', { name: /Corner Shop/ }).innerText()).toMatch(/Attached[\s\S]*Claimed/);
    await w.expectClean();

    // The teammate owns the sub-merchant now; there, partners are for root merchants.
    const t = await openPage(browser, { allowStatuses: [403] });
    await signInThroughPages(t.page, teammate.email);
    await t.page.waitForURL(`${origin}/dashboard`);
    await t.page.getByRole('link', { name: 'Corner Shop' }).click();
    await t.page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name: 'Partners' }).click();
    expect(await heading(t.page)).toBe('Partners');
    expect(await t.page.getByRole('main').innerText()).toContain('Partners are for root merchants');
    await expectAccessible(t.page, 'partners-sub-merchant');

    // A Member of the partner: the page without its forms, and the form's POST refused.
    await t.page.goto(`${origin}${partnersPath}`);
    expect(await t.page.getByRole('button', { name: 'Create merchant' }).count()).toBe(0);
    const csrf = await t.page.locator('input[name=csrf_token]').first().inputValue();
    const res = await t.page.request.post(`${origin}${partnersPath}`, {
      form: { csrf_token: csrf, action: 'create', name: 'Sneaky Shop' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    await t.page.goto(`${origin}${partnersPath}`);
    expect(await t.page.getByRole('row', { name: /Sneaky Shop/ }).count()).toBe(0);
    await t.expectClean();
  });
});
