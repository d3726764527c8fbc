/**
 * The customer portal over HTTP: a merchant's link (organization and merchant APIs) opens the portal once — its page
 * changes nothing, its button spends it and sets the portal's own `__Host-` cookie —, and an unknown, spent, expired
 * or other merchant's link is the same 404 page. Signed in, the customer sees their subscription with its next charge
 * taxed, acts on it under the merchant's rules (cancel with a reason as `cancelledBy: customer`, undo, pause, resume),
 * and downloads their invoices; another customer's subscription or invoice is a 404 and changes nothing; a form
 * without the session's token or from another origin is 403; a rule turned off hides its form and refuses its post.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sha256Hex } from '../../../shared/domain/secrets.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { csrfTokenOf, PORTAL_SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { PortalLinkEntity } from '../../../shared/portal/portal-session.entity.ts';
import { portalSignInLimits, requestSignInLink, SIGN_IN_ANSWER_MS } from '../../../shared/portal/portal.service.ts';
import type { HttpEvent } from '../../../shared/platform/http/types.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { createDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { testCards } from '../../support/cards.ts';
import { inOneWindow } from '../../support/dates.ts';
import { http } from '../../support/http.ts';
import { withEnv } from '../../support/env.ts';
import { keptMailsTo, mailsArrived } from '../../support/mails.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, PASSWORD } from '../../support/fixtures.ts';
import { subscriber } from '../support.ts';
import { bodyOf, eventually, startReceiver } from '../../support/receiver.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const origin = new URL(inject('baseUrl')).origin;
const form = 'application/x-www-form-urlencoded';

const linkOf = async (org: Org, customerId: string, body: object = {}) => {
  const made = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/portal-sessions`, { fullKey: org.fullKey, body });
  expect(made.status, made.text).toBe(201);
  return made.json.data as { id: string; url: string; expiresAt: string };
};

const pathOf = (url: string) => new URL(url).pathname;
const open = (url: string) => http('POST', pathOf(url), { baseUrl: origin, headers: { origin, 'content-type': form }, body: 'open=portal' });

/** A browser signed in to the portal through `url`: GET a page, POST a form (with its CSRF token, from this origin). */
async function signedIn(url: string) {
  const opened = await open(url);
  expect(opened.status, opened.text).toBe(303);
  const setCookie = opened.headers.getSetCookie().find((c) => c.startsWith(`${PORTAL_SESSION_COOKIE}=`))!;
  const token = setCookie.split(';')[0]!.slice(PORTAL_SESSION_COOKIE.length + 1);
  const cookie = `${PORTAL_SESSION_COOKIE}=${token}`;
  return {
    setCookie,
    location: opened.headers.get('location'),
    get: (path: string) => http('GET', path, { baseUrl: origin, headers: { cookie } }),
    post: (path: string, fields: Record<string, string> = {}, headers: Record<string, string> = { origin }, csrf = csrfTokenOf(token, 'portal')) =>
      http('POST', path, {
        baseUrl: origin,
        headers: { cookie, 'content-type': form, ...headers },
        body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
      }),
  };
}

const subscription = async (org: Org, id: string) =>
  (await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${id}`, { fullKey: org.fullKey })).json.data;

/** The cancellations of one subscription of the organization, newest first. */
const cancellationsOf = async (subscriptionId: string) =>
  (await orgCall('GET', `${orgPath(org.organizationId)}/subscription-cancellations`, { fullKey: org.fullKey })).json.data.filter(
    (c: { subscriptionId: string }) => c.subscriptionId === subscriptionId,
  );

let org: Org;
let sub: Awaited<ReturnType<typeof subscriber>>;
let other: Awaited<ReturnType<typeof subscriber>>;
beforeAll(async () => {
  org = await organizationAccount('Portal Org');
  [sub, other] = await Promise.all([subscriber(org), subscriber(org)]);
}, 60_000);

describe('portal links', () => {
  it('open the portal once: the page changes nothing, the button spends the link and sets the portal cookie', async () => {
    const link = await linkOf(org, sub.customerId, { returnUrl: 'https://shop.example/account' });
    expect(link.id).toMatch(/^pls_[0-9a-f]{32}$/);
    expect(new URL(link.url).origin).toBe(origin);
    const ttl = Date.parse(link.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);

    for (let i = 0; i < 2; i++) {
      const page = await http('GET', pathOf(link.url), { baseUrl: origin });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<button type="submit">Continue</button>');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const session = await signedIn(link.url);
    expect(session.location).toBe(`${origin}/portal/${org.organizationId}/subscriptions`);
    expect(session.setCookie).toMatch(new RegExp(`^${PORTAL_SESSION_COOKIE}=mor_psess_[0-9a-f]{64}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=3600$`));
    const home = await session.get(`/portal/${org.organizationId}/subscriptions`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('href="https://shop.example/account"');

    // Spent: the page and the button are the 404 page, and no second session starts.
    expect((await http('GET', pathOf(link.url), { baseUrl: origin })).status).toBe(404);
    const again = await open(link.url);
    expect(again.status).toBe(404);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('made twice at once is spent by exactly one of the two posts', async () => {
    const link = await linkOf(org, sub.customerId);
    const answers = await Promise.all([open(link.url), open(link.url), open(link.url)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404, 404]);
  });

  it('refuses an expired, unknown, malformed or other merchant link with the same 404, and a post from another origin', async () => {
    const link = await linkOf(org, sub.customerId);
    const token = pathOf(link.url).split('/').at(-1)!;
    const elsewhere = await organizationAccount('Portal Other Org');
    const answers = await Promise.all([
      http('GET', `/portal/${org.organizationId}/link/mor_portal_${'0'.repeat(64)}`, { baseUrl: origin }),
      http('GET', `/portal/${org.organizationId}/link/nope`, { baseUrl: origin }),
      http('GET', `/portal/${elsewhere.organizationId}/link/${token}`, { baseUrl: origin }),
    ]);
    for (const a of answers) expect(a.status).toBe(404);
    expect(new Set(answers.map((a) => /<p class="error" role="alert">[^<]*<\/p>/.exec(a.text)?.[0]))).toEqual(
      new Set(['<p class="error" role="alert">This link cannot be used: it was used already, has expired, or never existed. Ask for a new one.</p>']),
    );

    const crossSite = await http('POST', pathOf(link.url), {
      baseUrl: origin,
      headers: { origin: 'https://attacker.example', 'content-type': form },
      body: '',
    });
    expect(crossSite.status).toBe(403);

    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: PortalLinkEntity.key({ id: sha256Hex(token) }),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await open(link.url)).status).toBe(404);
  });

  it("are made for the merchant's own customers only, on the merchant API too, with an https returnUrl", async () => {
    const unknown = await orgCall('POST', `${orgPath(org.organizationId)}/customers/cus_${'0'.repeat(32)}/portal-sessions`, { fullKey: org.fullKey, body: {} });
    expect(unknown.status).toBe(404);
    const http_ = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${sub.customerId}/portal-sessions`, {
      fullKey: org.fullKey,
      body: { returnUrl: 'ftp://shop.example' },
    });
    expect(http_.status).toBe(400);
    const merchant = await call('POST', `/v1/public-api/merchants/${org.organizationId}/customers/${sub.customerId}/portal-sessions`, {
      key: org.merchantApiKey,
      body: {},
    });
    expect(merchant.status, merchant.text).toBe(201);
    expect(merchant.json.data.url).toMatch(new RegExp(`^${origin}/portal/${org.organizationId}/link/mor_portal_[0-9a-f]{64}$`));
  });
});

describe('the signed-in portal', () => {
  it('shows the subscription with its next charge taxed, and sends a browser without a session to the entry page', async () => {
    const session = await signedIn((await linkOf(org, sub.customerId)).url);
    const page = await session.get(`/portal/${org.organizationId}/subscriptions`);
    expect(page.status).toBe(200);
    // 10.00 USD a month in San Francisco: 8.625 % tax, 0.86, charged 10.86.
    // The next period costs what the first did (10.00 USD and the tax where the customer is): its invoice's total.
    const invoices = await session.get(`/portal/${org.organizationId}/invoices`);
    const total = /<td data-label="Total" class="num"><span class="money">\$(\d+\.\d\d)<\/span>/.exec(invoices.text)?.[1];
    expect(Number(total)).toBeGreaterThan(10);
    const tax = (Number(total) - 10).toFixed(2);
    const nextCharge = /id="next-charge-[^"]+">(.*?)<\/dd>/s.exec(page.text)?.[1];
    expect(nextCharge).toMatch(
      new RegExp(`^<span class="money">\\$${total}</span> on <time .*</time> \\(including <span class="money">\\$${tax}</span> tax\\)$`),
    );
    expect(page.text).not.toContain(other.subscriptionId);

    const signedOut = await http('GET', `/portal/${org.organizationId}/subscriptions`, { baseUrl: origin });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe(`${origin}/portal/${org.organizationId}`);
    expect((await http('GET', `/portal/${org.organizationId}`, { baseUrl: origin })).status).toBe(200);
    // A portal path whose merchant id is malformed stays in the portal, not the dashboard's sign-in.
    const malformed = await http('GET', '/portal/not-a-merchant/subscriptions', { baseUrl: origin });
    expect([malformed.status, malformed.headers.get('location')]).toEqual([303, `${origin}/portal/not-a-merchant`]);
  });

  it('quotes the next charge taxed where the customer is now, as the renewal will charge it, after a move', async () => {
    const moving = await subscriber(org);
    const session = await signedIn((await linkOf(org, moving.customerId)).url);
    const moved = await orgCall('PATCH', `${orgPath(org.organizationId)}/customers/${moving.customerId}`, {
      fullKey: org.fullKey,
      body: { address: { country: 'DE' } },
    });
    expect(moved.status, moved.text).toBe(200);
    // 10.00 USD at Germany's 19 %: 1.90, where the last charge was taxed in San Francisco.
    const page = await session.get(`/portal/${org.organizationId}/subscriptions`);
    const nextCharge = new RegExp(`id="next-charge-${moving.subscriptionId}">(.*?)</dd>`, 's').exec(page.text)?.[1];
    expect(nextCharge).toMatch(/^<span class="money">\$11\.90<\/span> on <time .*<\/time> \(including <span class="money">\$1\.90<\/span> tax\)$/);
  });

  it("wears the merchant's checkout customization: its display name and colours (a style its CSP allows by nonce)", async () => {
    const shop = await organizationAccount('Portal Brand Org');
    const mine = await subscriber(shop);
    const owner = await call('POST', '/v1/dashboard/sessions', { body: { email: shop.ownerEmail, password: PASSWORD } });
    const styled = await call('PUT', `/v1/dashboard/merchants/${shop.organizationId}/checkout-customization`, {
      key: owner.json.token,
      headers: { origin },
      body: { displayName: 'Brandful', brandColor: '#1d4ed8', accentColor: '#b45309' },
    });
    expect(styled.status, styled.text).toBe(200);
    const session = await signedIn((await linkOf(shop, mine.customerId)).url);
    const page = await session.get(`/portal/${shop.organizationId}/subscriptions`);
    expect(page.text).toContain('<title>Subscriptions · Brandful</title>');
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(page.text).toContain(`<style nonce="${nonce}">:root{--brand:#1D4ED8;--accent:#B45309;}</style>`);
  });

  it("refuses another customer's subscription, a form without its token and one from another origin, and changes nothing", async () => {
    const session = await signedIn((await linkOf(org, sub.customerId)).url);
    const path = (id: string, form: string) => `/portal/${org.organizationId}/subscriptions/${id}/${form}`;
    const foreign = await session.post(path(other.subscriptionId, 'cancel'), { action: 'cancel', reason: 'other' });
    expect(foreign.status).toBe(404);
    expect((await session.post(path(other.subscriptionId, 'pause'), { action: 'pause' })).status).toBe(404);
    expect((await session.post(path(other.subscriptionId, 'reactivate'), {})).status).toBe(404);
    expect((await session.post(path(sub.subscriptionId, 'pause'), { action: 'pause' }, { origin }, 'forged')).status).toBe(403);
    expect((await session.post(path(sub.subscriptionId, 'pause'), { action: 'pause' }, { origin: 'https://attacker.example' })).status).toBe(403);
    expect((await subscription(org, other.subscriptionId)).status).toBe('active');
    expect((await subscription(org, sub.subscriptionId)).status).toBe('active');
  });

  it('cancels at the next renewal with a reason as the customer, undoes it, pauses and resumes', async () => {
    const session = await signedIn((await linkOf(org, sub.customerId)).url);
    const path = `/portal/${org.organizationId}/subscriptions/${sub.subscriptionId}`;
    // The page's forms post where the route table says: the cancellation's, the pause's.
    const page = (await session.get(`/portal/${org.organizationId}/subscriptions`)).text;
    expect(page).toContain(`action="${path}/cancel"`);
    expect(page).toContain(`action="${path}/pause"`);
    const cancelled = await session.post(`${path}/cancel`, { action: 'cancel', reason: 'too-expensive', comment: 'Cheaper elsewhere' });
    expect(cancelled.status, cancelled.text).toBe(303);
    expect(cancelled.headers.get('location')).toContain('done=cancel-scheduled');
    expect((await cancellationsOf(sub.subscriptionId))[0]).toMatchObject({
      reason: 'too-expensive',
      description: 'Cheaper elsewhere',
      cancelledBy: 'customer',
      churnTimePolicy: 'at-next-renewal',
    });
    expect((await session.get(`/portal/${org.organizationId}/subscriptions`)).text).toContain('Keep my subscription');
    // The owner hears of it, with the customer's reason and words, by a mail written with the cancellation.
    const told = await mailsArrived(org.ownerEmail, `${sub.email} cancelled Portal monthly`);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(
      /It ends on \d{4}-\d\d-\d\d \d\d:\d\d UTC, at the end of the period they paid for\.\nTheir reason: too expensive\.\nTheir words: "Cheaper elsewhere"$/,
    );

    expect((await session.post(`${path}/cancel`, { action: 'undo-cancel' })).status).toBe(303);
    expect((await subscription(org, sub.subscriptionId)).status).toBe('active');
    expect((await session.post(`${path}/cancel`, { action: 'undo-cancel' })).status).toBe(404);

    expect((await session.post(`${path}/pause`, { action: 'pause' })).status).toBe(303);
    const pauses = await orgCall('GET', `${orgPath(org.organizationId)}/subscription-pauses`, { fullKey: org.fullKey });
    expect(pauses.json.data.filter((p: { subscriptionId: string }) => p.subscriptionId === sub.subscriptionId)).toMatchObject([{ pausedBy: 'customer' }]);
    expect((await subscription(org, sub.subscriptionId)).status).toBe('paused');
    expect((await session.post(`${path}/pause`, { action: 'resume' })).status).toBe(303);
    expect((await subscription(org, sub.subscriptionId)).status).toBe('active');
  });

  it("words the cancel form by what it will do, offers it on a pending subscription, and leaves the merchant's own cancellation to the merchant", async () => {
    const mine = await subscriber(org);
    const session = await signedIn((await linkOf(org, mine.customerId)).url);
    const home = `/portal/${org.organizationId}/subscriptions`;
    const path = `${home}/${mine.subscriptionId}`;
    const cardOf = (page: string, id: string) => page.slice(page.indexOf(`id="sub-${id}"`)).split('</section>')[0]!;
    // Active: it waits for the end of the period paid for, which the form names.
    expect(cardOf((await session.get(home)).text, mine.subscriptionId)).toMatch(/It ends at the end of the period you paid for, on <time datetime="[^"]+"/);
    // Paused: a cancellation at the next renewal ends it at once, and the form says so.
    expect((await session.post(`${path}/pause`, { action: 'pause' })).status).toBe(303);
    expect(cardOf((await session.get(home)).text, mine.subscriptionId)).toContain('It ends now: it is paused, so no paid period is left to keep');
    expect((await session.post(`${path}/pause`, { action: 'resume' })).status).toBe(303);

    // Pending (starting in five days): it can be cancelled here too, before it starts.
    const later = await orgCall('POST', `${orgPath(org.organizationId)}/subscriptions`, {
      fullKey: org.fullKey,
      body: {
        customerId: mine.customerId,
        paymentInstrumentId: mine.instrumentId,
        items: [{ plan: (await subscription(org, mine.subscriptionId)).items[0].planId }],
        startAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      },
    });
    expect(later.status, later.text).toBe(201);
    expect(later.json.data.status).toBe('pending');
    const pending = cardOf((await session.get(home)).text, later.json.data.id);
    expect(pending).toContain(`action="${home}/${later.json.data.id}/cancel"`);
    expect(pending).toContain('It ends now, before it starts.');
    // A comment of two lines, as a browser sends a textarea's (CRLF).
    const comment = 'Changed plans\r\nThanks anyway';
    expect((await session.post(`${home}/${later.json.data.id}/cancel`, { action: 'cancel', reason: 'did-not-want', comment })).status).toBe(303);
    expect((await subscription(org, later.json.data.id)).status).toBe('canceled');
    expect((await cancellationsOf(later.json.data.id))[0]).toMatchObject({ cancelledBy: 'customer', description: 'Changed plans\nThanks anyway' });

    // The merchant's cancellation: the page offers no undo, and a post of one is refused and changes nothing.
    const theirs = await orgCall('POST', `${orgPath(org.organizationId)}/subscription-cancellations`, {
      fullKey: org.fullKey,
      body: { subscriptionId: mine.subscriptionId, reason: 'risk-warning', cancelledBy: 'merchant' },
    });
    expect(theirs.status, theirs.text).toBe(201);
    expect(cardOf((await session.get(home)).text, mine.subscriptionId)).not.toContain('Keep my subscription');
    const undo = await session.post(`${path}/cancel`, { action: 'undo-cancel' });
    expect(undo.status).toBe(403);
    expect(undo.text).toContain('made by the merchant, not by you');
    expect((await cancellationsOf(mine.subscriptionId))[0]).toMatchObject({ id: theirs.json.data.id, status: 'confirmed' });
    // Nor does reactivating a subscription that still runs undo it, and a subscription set to end is not paused (its
    // end would leave the paid time the pause kept unused): both are refused, and nothing changes.
    const reactivated = await session.post(`${path}/reactivate`, {});
    expect(reactivated.status).toBe(422);
    expect(reactivated.text).toContain('only an ended one can be reactivated');
    const paused = await session.post(`${path}/pause`, { action: 'pause' });
    expect(paused.status).toBe(422);
    expect(paused.text).toContain('set to end, so it cannot be paused');
    expect((await cancellationsOf(mine.subscriptionId))[0]).toMatchObject({ id: theirs.json.data.id, status: 'confirmed' });
    expect(await subscription(org, mine.subscriptionId)).toMatchObject({ status: 'active', endTime: theirs.json.data.churnedAt });
    // A notice is one of the page's own: a name an object has of itself shows none.
    for (const done of ['constructor', '__proto__', 'toString']) expect((await session.get(`${home}?done=${done}`)).text, done).not.toContain('role="status"');
  });

  it("leaves the merchant's pause to the merchant: no Resume button, and a post of one refused, changing nothing", async () => {
    const mine = await subscriber(org);
    const session = await signedIn((await linkOf(org, mine.customerId)).url);
    const home = `/portal/${org.organizationId}/subscriptions`;
    const cardOf = (page: string) => page.slice(page.indexOf(`id="sub-${mine.subscriptionId}"`)).split('</section>')[0]!;
    const theirs = await orgCall('POST', `${orgPath(org.organizationId)}/subscription-pauses`, {
      fullKey: org.fullKey,
      body: { subscriptionId: mine.subscriptionId, pausedBy: 'merchant' },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const card = cardOf((await session.get(home)).text);
    expect(card).not.toContain('value="resume"');
    expect(card).toContain('paused it: ask them to resume it.');
    // A subscription stored before it named its pause's maker: the pause's record names it, and the page reads it.
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `SUBSCRIPTION#${mine.subscriptionId}`, sk: 'SUBSCRIPTION' },
        UpdateExpression: 'REMOVE #p.#by',
        ExpressionAttributeNames: { '#p': 'pause', '#by': 'by' },
      }),
    );
    const legacy = cardOf((await session.get(home)).text);
    expect(legacy).not.toContain('value="resume"');
    expect(legacy).toContain('paused it: ask them to resume it.');
    const resume = await session.post(`${home}/${mine.subscriptionId}/pause`, { action: 'resume' });
    expect(resume.status).toBe(403);
    expect(resume.text).toContain('made by the merchant, not by you');
    expect((await subscription(org, mine.subscriptionId)).status).toBe('paused');
    const pause = await orgCall('GET', `${orgPath(org.organizationId)}/subscription-pauses/${theirs.json.data.id}`, { fullKey: org.fullKey });
    expect(pause.json.data.status).toBe('active');
  });

  it('lists the invoices and downloads only its own', async () => {
    const session = await signedIn((await linkOf(org, sub.customerId)).url);
    const page = await session.get(`/portal/${org.organizationId}/invoices`);
    expect(page.status).toBe(200);
    const pdfPath = /href="(\/portal\/[^"]+\/pdf)"/.exec(page.text)?.[1];
    expect(pdfPath).toBeDefined();
    // A redirect to a five-minute link to the stored PDF, as an attachment named after its number.
    const pdf = await session.get(pdfPath!);
    expect(pdf.status).toBe(302);
    const stored = await fetch(pdf.headers.get('location')!);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe('application/pdf');
    expect(stored.headers.get('content-disposition')).toMatch(/^attachment; filename="SUB-\d{6}\.pdf"$/);
    expect(new TextDecoder().decode((await stored.arrayBuffer()).slice(0, 5))).toBe('%PDF-');

    const otherSession = await signedIn((await linkOf(org, other.customerId)).url);
    expect((await otherSession.get(pdfPath!)).status).toBe(404);
  });

  it('lists every issued invoice, 25 a page, newest first, and never a draft', { timeout: 60_000 }, async () => {
    const many = await subscriber(org);
    const invoices = `${orgPath(org.organizationId)}/customer-invoices`;
    const made: string[] = [];
    for (let n = 0; n < 26; n += 1) {
      const body = {
        currency: 'USD',
        customerId: many.customerId,
        buyer: { name: 'Many Invoices', address: '1 Main St', city: 'Portland', country: 'US', state: 'OR', zip: '97201' },
        items: [{ description: `Work ${n}`, quantity: 1, unitPrice: 10 + n, taxRate: 0 }],
      };
      const d = await orgCall('POST', invoices, { fullKey: org.fullKey, body });
      expect(d.status, d.text).toBe(201);
      made.push(d.json.data.id);
    }
    // All but the last issued: 25 of them and the subscription's, 26 in all; the last stays a draft.
    const dates = { issuedAt: new Date().toISOString(), dueAt: new Date(Date.now() + 14 * 86_400_000).toISOString() };
    for (let i = 0; i < 25; i += 5) {
      const batch = made.slice(i, i + 5).map((id) => orgCall('POST', `${invoices}/${id}/issue`, { fullKey: org.fullKey, body: dates }));
      for (const res of await Promise.all(batch)) expect(res.status, res.text).toBe(200);
    }
    const session = await signedIn((await linkOf(org, many.customerId)).url);
    const rows = (text: string) => [...text.matchAll(/<td data-label="Number">([^<]+)<\/td>/g)].map((m) => m[1]);
    const first = await session.get(`/portal/${org.organizationId}/invoices`);
    const second = await session.get(`/portal/${org.organizationId}/invoices?page=2`);
    expect(rows(first.text)).toHaveLength(25);
    expect(rows(second.text)).toHaveLength(1);
    expect(new Set([...rows(first.text), ...rows(second.text)]).size).toBe(26);
    expect(first.text).toContain(`href="/portal/${org.organizationId}/invoices?page=2"`);
    expect(first.text).toContain('Page 1 of 2');
    expect(first.text + second.text).not.toContain(made[25]);
    const past = await session.get(`/portal/${org.organizationId}/invoices?page=3`);
    expect(past.status).toBe(200);
    expect(past.text).toContain('There is no page 3 of the invoices');
    expect((await session.get(`/portal/${org.organizationId}/invoices?page=0`)).status).toBe(400);
  });

  it('follows the merchant rules: a rule turned off hides its form and refuses its post', async () => {
    const base = orgPath(org.organizationId);
    const defaults = await orgCall('GET', `${base}/portal-settings`, { fullKey: org.fullKey });
    expect(defaults.json.data).toMatchObject({ allowCancel: true, cancelPolicy: 'at-next-renewal', allowPause: true, showInvoices: true });
    const changed = await orgCall('PUT', `${base}/portal-settings`, { fullKey: org.fullKey, body: { allowCancel: false, showInvoices: false } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data).toMatchObject({ allowCancel: false, allowPause: true, showInvoices: false });
    try {
      const session = await signedIn((await linkOf(org, other.customerId)).url);
      const page = await session.get(`/portal/${org.organizationId}/subscriptions`);
      expect(page.text).not.toContain('Cancel subscription');
      expect(page.text).not.toContain('/invoices"');
      const forged = await session.post(`/portal/${org.organizationId}/subscriptions/${other.subscriptionId}/cancel`, { action: 'cancel', reason: 'other' });
      expect(forged.status).toBe(403);
      expect((await session.get(`/portal/${org.organizationId}/invoices`)).status).toBe(403);
      expect(await cancellationsOf(other.subscriptionId)).toEqual([]);
    } finally {
      await orgCall('PUT', `${base}/portal-settings`, { fullKey: org.fullKey, body: { allowCancel: true, showInvoices: true } });
    }
  });

  it("a cancellation at the next renewal ends the subscription at its period end: the merchant's destination gets subscription.cancelled, cancelAtPeriodEnd true", {
    timeout: 60_000,
  }, async () => {
    const shop = await organizationAccount('Portal Renewal Org');
    const mine = await subscriber(shop);
    const receiver = await startReceiver();
    try {
      const destination = await createDestination((await getMerchant(shop.organizationId))!, { url: receiver.url, eventTypes: ['subscription.cancelled'] });
      const session = await signedIn((await linkOf(shop, mine.customerId)).url);
      const cancelled = await session.post(`/portal/${shop.organizationId}/subscriptions/${mine.subscriptionId}/cancel`, {
        action: 'cancel',
        reason: 'did-not-use',
      });
      expect(cancelled.status, cancelled.text).toBe(303);
      const clock = await orgCall('GET', `${orgPath(shop.organizationId)}/test-clock`, { fullKey: shop.fullKey });
      const to = new Date(Date.parse(clock.json.data.now) + 32 * 86_400_000).toISOString();
      expect((await orgCall('POST', `${orgPath(shop.organizationId)}/test-clock/advance`, { fullKey: shop.fullKey, body: { to } })).status).toBe(200);
      await eventually(() => (receiver.received.length >= 1 ? true : undefined), 25_000, 'the cancellation delivered');
      const [got] = receiver.received;
      expect(
        verifyWebhook({ rawBody: got!.rawBody, headers: got!.headers as Record<string, string>, secret: destination.secret, toleranceSeconds: 300 }).ok,
      ).toBe(true);
      expect(bodyOf(got!)).toEqual({
        subscriptionId: mine.subscriptionId,
        externalMembershipId: null,
        orderId: null,
        customerId: mine.customerId,
        merchantId: shop.organizationId,
        cancelAtPeriodEnd: true,
      });
      const page = await session.get(`/portal/${shop.organizationId}/subscriptions`);
      expect(page.text).toMatch(/<span class="badge bad">canceled<\/span>/);
      // Ended, it can be reactivated from the portal (charged at once on the customer's card).
      const reactivated = await session.post(`/portal/${shop.organizationId}/subscriptions/${mine.subscriptionId}/reactivate`, {});
      expect(reactivated.status, reactivated.text).toBe(303);
      expect((await orgCall('GET', `${orgPath(shop.organizationId)}/subscriptions/${mine.subscriptionId}`, { fullKey: shop.fullKey })).json.data.status).toBe(
        'active',
      );
    } finally {
      await receiver.close();
    }
  });

  it('takes one of two pauses sent at once (a double click), and answers both as done: the page shown is the last answer', async () => {
    const shop = await organizationAccount('Portal Race Org');
    const mine = await subscriber(shop);
    const session = await signedIn((await linkOf(shop, mine.customerId)).url);
    const path = `/portal/${shop.organizationId}/subscriptions/${mine.subscriptionId}/pause`;
    const answers = await Promise.all([session.post(path, { action: 'pause' }), session.post(path, { action: 'pause' })]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    for (const a of answers) expect(a.headers.get('location')).toMatch(/done=pause$/);
    // Resumed twice at once, and once more later (the back button): each answered as resumed, one resume made.
    const resumed = await Promise.all([session.post(path, { action: 'resume' }), session.post(path, { action: 'resume' })]);
    expect(resumed.map((a) => a.status)).toEqual([303, 303]);
    expect((await session.post(path, { action: 'resume' })).headers.get('location')).toMatch(/done=resume$/);
    const pauses = await orgCall('GET', `${orgPath(shop.organizationId)}/subscription-pauses`, { fullKey: shop.fullKey });
    expect(pauses.json.data.filter((p: { subscriptionId: string }) => p.subscriptionId === mine.subscriptionId)).toHaveLength(1);
  });

  it('takes one of two card changes sent at once (or both, one after the other): a card is saved only by a change that was made, and every subscription charges the last', async () => {
    const shop = await organizationAccount('Portal Card Race Org');
    const mine = await subscriber(shop);
    // A second and a third subscription of the same customer: a change takes all of them, or none.
    const plan = await orgPlan(shop, { name: 'Portal weekly' }, { productType: 'recurring' });
    for (let n = 0; n < 2; n++) {
      const more = await orgCall('POST', `${orgPath(shop.organizationId)}/subscriptions`, {
        fullKey: shop.fullKey,
        body: { customerId: mine.customerId, paymentInstrumentId: mine.instrumentId, items: [{ plan: plan.id }] },
      });
      expect(more.status, more.text).toBe(201);
    }
    const charging = async () =>
      (await orgCall('GET', `${orgPath(shop.organizationId)}/subscriptions?customerId=${mine.customerId}`, { fullKey: shop.fullKey })).json.data.map(
        (s: { paymentInstrumentId: string }) => s.paymentInstrumentId,
      );
    const instruments = async () =>
      (await orgCall('GET', `${orgPath(shop.organizationId)}/customers/${mine.customerId}/payment-instruments?limit=100`, { fullKey: shop.fullKey })).json
        .data as Array<{ id: string }>;
    const before = await instruments();
    for (let round = 0; round < 3; round++) {
      const session = await signedIn((await linkOf(shop, mine.customerId)).url);
      const path = `/portal/${shop.organizationId}/payment-method`;
      const [a, b] = await Promise.all([cardToken(shop), cardToken(shop)]);
      const answers = await Promise.all([session.post(path, { token: a }), session.post(path, { token: b })]);
      for (const r of answers) expect([303, 409], r.text).toContain(r.status);
      expect(answers.some((r) => r.status === 303)).toBe(true);
      const made = answers.filter((r) => r.status === 303).length;
      // The cards saved: the ones before, and one for each change made (the 409's card is not kept).
      const now = await instruments();
      expect(now.length, `round ${round}: ${JSON.stringify(answers.map((r) => r.status))}`).toBe(before.length + made);
      before.splice(0, before.length, ...now);
      const customer = (await orgCall('GET', `${orgPath(shop.organizationId)}/customers/${mine.customerId}`, { fullKey: shop.fullKey })).json.data;
      expect(await charging(), `round ${round}`).toEqual([
        customer.primaryPaymentInstrument.id,
        customer.primaryPaymentInstrument.id,
        customer.primaryPaymentInstrument.id,
      ]);
    }
  });

  it("names the card that paid at checkout, not one declined before it, and each subscription's card when they differ", async () => {
    const shop = await organizationAccount('Portal Checkout Card Org');
    const plan = await orgPlan(shop, { name: 'Checkout monthly' }, { productType: 'recurring' });
    const email = `portal-checkout-${Date.now()}@example.com`;
    const buy = async (card: string) => {
      const started = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email, billingAddress: { country: 'DE' } } });
      expect(started.status, started.text).toBe(200);
      const declined = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, {
        body: { sessionId: started.json.sessionId, token: await cardToken(shop, testCards.genericDecline) },
      });
      expect(declined.status, declined.text).toBe(402);
      const paid = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, {
        body: { sessionId: started.json.sessionId, token: await cardToken(shop, card) },
      });
      expect(paid.status, paid.text).toBe(200);
      return (await orgCall('GET', `${orgPath(shop.organizationId)}/subscriptions/${paid.json.subscriptionId}`, { fullKey: shop.fullKey })).json.data;
    };
    const first = await buy('5555555555554444');
    const customer = (await orgCall('GET', `${orgPath(shop.organizationId)}/customers/${first.customer.id}`, { fullKey: shop.fullKey })).json.data;
    // The card that paid is the customer's primary card; the declined one never was.
    expect(customer.primaryPaymentInstrument.id).toBe(first.paymentInstrumentId);
    const session = await signedIn((await linkOf(shop, first.customer.id)).url);
    const page = async () => (await session.get(`/portal/${shop.organizationId}/payment-method`)).text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(await page()).toContain('Your subscriptions are charged to your Mastercard card ending in 4444');
    expect(await page()).not.toContain('0002');
    // A second subscription bought with another card: the page names each card with what it pays.
    const second = await buy(testCards.succeeds);
    expect(second.paymentInstrumentId).not.toBe(first.paymentInstrumentId);
    const both = await page();
    expect(both).toContain('Your Mastercard card ending in 4444');
    expect(both).toContain('Your Visa card ending in 4242');
    expect(both).toContain('A new card saved here pays all of them.');
  });

  it('replaces the card: the subscription charges the new one, and a past-due one is retried with it at once', { timeout: 60_000 }, async () => {
    const shop = await organizationAccount('Portal Card Org');
    const mine = await subscriber(shop);
    const session = await signedIn((await linkOf(shop, mine.customerId)).url);
    const save = async (card: string) => {
      const page = await session.get(`/portal/${shop.organizationId}/payment-method`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-src 'self'");
      const saved = await session.post(`/portal/${shop.organizationId}/payment-method`, { token: await cardToken(shop, card) });
      expect(saved.status, saved.text).toBe(303);
      expect(saved.headers.get('location')).toContain('done=card-replaced');
    };
    const subscriptionOf = async () =>
      (await orgCall('GET', `${orgPath(shop.organizationId)}/subscriptions/${mine.subscriptionId}`, { fullKey: shop.fullKey })).json.data;
    const customerOf = async () => (await orgCall('GET', `${orgPath(shop.organizationId)}/customers/${mine.customerId}`, { fullKey: shop.fullKey })).json.data;

    // A card that attaches, then declines every charge: the subscription's and the customer's card from now on.
    await save(testCards.declinesAfterAttaching);
    const declining = (await customerOf()).primaryPaymentInstrument.id;
    expect((await subscriptionOf()).paymentInstrumentId).toBe(declining);

    // Its renewal is declined: past due.
    const clock = await orgCall('GET', `${orgPath(shop.organizationId)}/test-clock`, { fullKey: shop.fullKey });
    const to = new Date(Date.parse(clock.json.data.now) + 32 * 86_400_000).toISOString();
    expect((await orgCall('POST', `${orgPath(shop.organizationId)}/test-clock/advance`, { fullKey: shop.fullKey, body: { to } })).status).toBe(200);
    await expect.poll(async () => (await subscriptionOf()).status).toBe('past-due');
    // The subscriptions page says the payment failed, and links to the card's page.
    const pastDueNotice = async () =>
      /<p class="error" id="past-due-[^"]+">(.*?)<\/p>/s.exec((await session.get(`/portal/${shop.organizationId}/subscriptions`)).text)?.[1];
    expect(await pastDueNotice()).toContain(`Its last payment failed. <a href="/portal/${shop.organizationId}/payment-method">Replace your card</a>`);

    // A good card: retried with it at once, paid, active; the page no longer says it failed.
    await save(testCards.succeeds);
    const after = await subscriptionOf();
    expect(after.status).toBe('active');
    expect(await pastDueNotice()).toBeUndefined();
    expect(after.paymentInstrumentId).not.toBe(declining);
    expect((await customerOf()).primaryPaymentInstrument.id).toBe(after.paymentInstrumentId);
  });
});

describe('signing in by e-mail', () => {
  const ask = async (email: string, headers: Record<string, string> = {}) => {
    const started = Date.now();
    const answer = await http('POST', `/portal/${org.organizationId}`, {
      baseUrl: origin,
      headers: { origin, 'content-type': form, ...headers },
      body: new URLSearchParams({ email }).toString(),
    });
    return { ...answer, ms: Date.now() - started, page: answer.text.replace(/nonce-[^'"]+|nonce="[^"]+"/g, 'nonce') };
  };
  const mailsTo = async (to: string) => await keptMailsTo(to);

  it("answers a stranger's address exactly like a customer's, and mails the customer a link that opens the portal once", async () => {
    const entry = await http('GET', `/portal/${org.organizationId}`, { baseUrl: origin });
    expect(entry.text).toContain('Email me a link');
    // A newer customer with the same address (in other letters): the link goes to the oldest, whose subscription it shows.
    const twin = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: sub.email.toUpperCase() } });
    expect(twin.status, twin.text).toBe(201);
    const stranger = `stranger-${Date.now()}@example.com`;
    const [known, unknown] = [await ask(sub.email.toUpperCase()), await ask(stranger)];
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.page).toBe(unknown.page);
    for (const a of [known, unknown]) expect(a.ms).toBeGreaterThanOrEqual(SIGN_IN_ANSWER_MS - 5);
    expect(await mailsTo(stranger)).toEqual([]);
    // The customer's other mails (the receipt of its subscription's payment) aside: one link.
    const links = (await mailsTo(sub.email)).filter((m) => m.subject.includes('billing link'));
    expect(links.map((m) => m.subject)).toEqual(['Your billing link for Portal Org']);
    const [mail] = links;
    const url = /https?:\/\/\S+\/link\/mor_portal_[0-9a-f]{64}/.exec(mail!.text)?.[0];
    expect(url).toBeDefined();
    const session = await signedIn(url!);
    expect((await session.get(`/portal/${org.organizationId}/subscriptions`)).text).toContain(sub.subscriptionId);
    expect((await open(url!)).status).toBe(404);
  });

  it("answers a customer's address as a stranger's when its mail cannot be sent (SES refusing it, say), and mails nothing", async () => {
    // In this process, with SES out of reach: the send throws, as it does when SES refuses a mail.
    const event = { headers: {}, requestContext: { http: { sourceIp: '198.51.100.7' } } } as unknown as HttpEvent;
    const before = (await mailsTo(sub.email)).length;
    const [known, unknown] = await withEnv({ AWS_ENDPOINT_URL_SESV2: 'http://127.0.0.1:1' }, async () => [
      await requestSignInLink(org.organizationId, sub.email, event),
      await requestSignInLink(org.organizationId, `stranger-${Date.now()}@example.com`, event),
    ]);
    const page = (r: { status?: number; body?: unknown }) => ({ status: r.status, body: String(r.body).replace(/nonce-[^'"]+|nonce="[^"]+"/g, 'nonce') });
    expect(page(known!)).toEqual(page(unknown!));
    expect(known!.status).toBe(200);
    expect((await mailsTo(sub.email)).length).toBe(before);
  });

  it('shows a malformed address again with the reason, and throttles an address past five requests (429, Retry-After)', { timeout: 40_000 }, async () => {
    const bad = await ask('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Enter the e-mail address');
    // The counters are fixed 15-minute windows: six requests (about 4 s) that would straddle a window's end are started
    // after it instead, so all six count in one window.
    await inOneWindow(portalSignInLimits.email.windowSeconds);
    const address = `throttled-${Date.now()}@example.com`;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(address));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another merchant's portal counts the address apart: its customer is not locked out there.
    const elsewhere = await organizationAccount('Portal Org elsewhere');
    const there = await http('POST', `/portal/${elsewhere.organizationId}`, {
      baseUrl: origin,
      headers: { origin, 'content-type': form },
      body: new URLSearchParams({ email: address }).toString(),
    });
    expect(there.status).toBe(200);
  });
});
