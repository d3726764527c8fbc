/**
 * Policy PDFs on the dashboard's checkout settings page. In a real browser: a file that is not a PDF is refused in the
 * page before anything is sent; a PDF chosen in the page's file input goes straight to storage through the presigned
 * PUT the dashboard API makes, is listed with its size and upload time, opens through the page's link, is linked by
 * the buyer's checkout, and is deleted with its form (axe-clean). Over HTTP: the upload URL is refused for a file that
 * is not a PDF or is over 10 MiB, for an unknown policy type and for a Member; the page without its script says what
 * the upload needs; a PDF that is not there is the page with its reason, never a 500.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY_MAX_BYTES } from '../../../shared/domain/policies.ts';
import { tinyPdf } from '../../support/pdfs.ts';
import { call, joinTeam, organizationAccount, orgCall, orgPath, orgPlan, orgProduct, PASSWORD, person } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';

const D = '/v1/dashboard';
const dash = (merchantId: string, rest = '') => `${origin}/dashboard/merchants/${merchantId}${rest}`;
const uploadOf = (merchantId: string, type: string) => `${D}/merchants/${merchantId}/checkout-policies/${type}/upload`;

async function sessionOf(email: string): Promise<string> {
  const res = await call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(201);
  return res.json.token as string;
}

describe('the dashboard: policy PDFs', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('uploads a PDF from the page straight to storage, lists and opens it, the checkout links it, and deletes it', async () => {
    const org = await organizationAccount('Policy Pages Shop');
    const product = await orgProduct(org, { type: 'one-time', name: 'Policy hammer' });
    const plan = await orgPlan(org, { name: 'One policy hammer', pricing: { price: 25, formula: 'fixed-fee' } }, { productId: product.id });

    const w = await openPage(browser);
    const { page } = w;
    await signInThroughPages(page, org.ownerEmail);
    await page.waitForURL(`${origin}/dashboard`);
    await page.goto(dash(org.organizationId, '/checkout-settings'));
    expect(await heading(page)).toBe('Checkout settings');
    expect(await page.getByRole('main').innerText()).toContain('No policy PDF uploaded.');
    // The script shows the upload form and hides the note for browsers without it.
    expect(await page.locator('#policy-form').isVisible()).toBe(true);
    expect(await page.getByText('Uploading a policy PDF (at most 10 MiB) needs JavaScript').isVisible()).toBe(false);

    // A file that is not a PDF is refused in the page: nothing is asked of the platform.
    const before = w.requested.length;
    await page.getByLabel('Policy', { exact: true }).selectOption({ label: 'Return policy' });
    await page.getByLabel('PDF file').setInputFiles({ name: 'returns.txt', mimeType: 'text/plain', buffer: Buffer.from('Returns within 30 days.') });
    await page.getByRole('button', { name: 'Upload PDF' }).click();
    await expect.poll(() => page.locator('#policy-error').isVisible()).toBe(true);
    expect(await page.locator('#policy-error').innerText()).toBe('returns.txt is not a PDF: a policy document must be a PDF file.');
    expect(w.requested.slice(before)).toEqual([]);

    // A real PDF: the script asks for the presigned PUT, sends the file to storage, then shows the page with it.
    const pdf = tinyPdf('Returns within 30 days');
    await page.getByLabel('PDF file').setInputFiles({ name: 'returns.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: 'Upload PDF' }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=policy-uploaded'));
    expect(await page.getByRole('status').innerText()).toBe('The policy PDF was uploaded. The checkout links it now.');
    const row = page.getByRole('row', { name: /Return policy/ });
    // Its exact size: a PDF under 1 KiB is not rounded up to one.
    expect(pdf.length).toBeLessThan(1024);
    expect(await row.locator('td').nth(1).innerText()).toBe(`${pdf.length} bytes`);
    expect(await row.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expectAccessible(page, 'checkout-settings-policy-pdf');

    // The one request that left the platform's origin is the PUT to the presigned storage URL.
    const away = w.requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
    expect(away).toEqual([expect.stringContaining(`/policies/${org.organizationId}/return-policy.pdf?`)]);
    expect(new URL(away[0]!).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    w.requested.splice(0, w.requested.length, ...w.requested.filter((u) => !away.includes(u)));

    // The page's link opens the PDF through a fresh short-lived storage link.
    const href = await page.getByRole('link', { name: 'Open the Return policy PDF (new tab)' }).getAttribute('href');
    expect(href).toBe(`/dashboard/merchants/${org.organizationId}/checkout-settings?document=return-policy`);
    const opened = await page.request.get(`${origin}${href}`, { maxRedirects: 0 });
    expect(opened.status()).toBe(302);
    const stored = await fetch(opened.headers().location!);
    expect(stored.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await stored.arrayBuffer()).equals(pdf)).toBe(true);

    // The buyer's checkout links it.
    const buyer = await (await browser.newContext()).newPage();
    await buyer.goto(`${origin}/checkout/plans/${plan.id}`);
    await expect.poll(() => buyer.locator('main').getAttribute('data-state')).toBe('ready');
    expect(await buyer.locator('#policies a').allInnerTexts()).toEqual(['Return policy (PDF)']);
    await buyer.context().close();

    // Deleted with its form (after the page's question): the page says so and lists nothing.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete the Return policy PDF' }).click();
    await page.waitForURL(dash(org.organizationId, '/checkout-settings?done=policy-deleted'));
    expect(await page.getByRole('status').innerText()).toBe('The policy PDF was deleted. The checkout no longer links it.');
    expect(await page.getByRole('main').innerText()).toContain('No policy PDF uploaded.');
    expect((await call('GET', `/v1/checkout/plans/${plan.id}`)).json.policyDocuments).toEqual([]);
    await w.expectClean();

    // A PDF that is no longer there: its link and its delete form answer the page with the reason (404), never a 500.
    const gone = await page.request.get(`${origin}${href}`, { maxRedirects: 0 });
    expect(gone.status()).toBe(404);
    expect(await gone.text()).toContain('There is no return policy PDF to open: it may have been deleted.');
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const again = await page.request.post(dash(org.organizationId, '/checkout-settings'), {
      form: { csrf_token: csrf, action: 'policy-delete', policy_type: 'return-policy' },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(404);
    expect(await again.text()).toContain('This organization has no return-policy policy document.');

    // Without the script, the page keeps the upload form hidden and says what the upload needs.
    const html = await (await page.request.get(dash(org.organizationId, '/checkout-settings'))).text();
    expect(html).toMatch(/<form id="policy-form"[^>]* hidden/);
    expect(html).toContain('Uploading a policy PDF (at most 10 MiB) needs JavaScript in this browser: the file goes straight to storage.');
    await page.context().close();
  });

  it('refuses an upload URL for a file that is not a PDF, over 10 MiB, of an unknown policy type, or asked by a Member', async () => {
    const org = await organizationAccount('Policy Refusals Shop');
    const owner = await sessionOf(org.ownerEmail);
    const member = await person();
    await joinTeam(org.organizationId, owner, member);

    const notPdf = await call('POST', uploadOf(org.organizationId, 'terms'), { key: owner, body: { contentType: 'image/png', size: 1000 } });
    expect(notPdf.status, notPdf.text).toBe(422);
    expect(notPdf.json).toMatchObject({ code: 'checkout_policies.unsupported_document_type', message: expect.stringContaining('a policy document is a PDF') });

    const tooLarge = await call('POST', uploadOf(org.organizationId, 'terms'), {
      key: owner,
      body: { contentType: 'application/pdf', size: POLICY_MAX_BYTES + 1 },
    });
    expect(tooLarge.status, tooLarge.text).toBe(400);
    expect(tooLarge.json.message).toContain('size: must be at most 10485760 bytes (10 MiB)');

    const unknownType = await call('POST', uploadOf(org.organizationId, 'cookies'), { key: owner, body: { contentType: 'application/pdf', size: 1000 } });
    expect(unknownType.status).toBe(400);
    expect(unknownType.json.code).toBe('checkout_policies.unknown_policy_type');

    const byMember = await call('POST', uploadOf(org.organizationId, 'terms'), { key: member.token, body: { contentType: 'application/pdf', size: 1000 } });
    expect(byMember.status).toBe(403);
    // The page shows a Member the settings, every field disabled and no Save: nothing there posts.
    const page = await fetch(dash(org.organizationId, '/checkout-settings'), { headers: { cookie: `__Host-mor_session=${member.token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.match(/<fieldset class="bare" disabled/g)).toHaveLength(3);
    expect(html).not.toMatch(/<button type="submit">Save/);

    // The URL the owner gets is signed for exactly that type and length.
    const ok = await call('POST', uploadOf(org.organizationId, 'terms'), { key: owner, body: { contentType: 'application/pdf', size: POLICY_MAX_BYTES } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json).toMatchObject({
      policyType: 'terms',
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': String(POLICY_MAX_BYTES) },
      maxBytes: POLICY_MAX_BYTES,
    });
    expect(new URL(ok.json.uploadUrl).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    // Nothing was stored by asking.
    expect((await orgCall('GET', `${orgPath(org.organizationId)}/checkout-policies`, { fullKey: org.fullKey })).json.data.documents).toEqual([]);
  });
});
