/**
 * The dashboard pages' HTML over HTTP, signed in with a session cookie: what a merchant owes the platform on the home
 * and payouts pages (absent while it owes nothing, shown with what it means after a refund larger than its
 * available funds, and smaller once released funds repaid part of it); a checkout payment's buyer on the payment's
 * page, linking to their customer page; and the partners and catalog lists paging past 100 records (made through
 * the services directly), every record on exactly one page; a list paged past its end; and the create forms of the
 * Developers area sent twice (one key, token or destination made); the catalog's create forms sent three times at once
 * (one record made), and each of them sent once from one showing of the page (each made).
 */
import { describe, expect, inject, it } from 'vitest';
import { createPlan } from '../../../shared/catalog/plans.service.ts';
import { createProduct } from '../../../shared/catalog/products.service.ts';
import { createPromoCode } from '../../../shared/catalog/promo-codes.service.ts';
import { HOLD_DAYS } from '../../../shared/money/ledger.rules.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { taxInPayment } from '../../../shared/payments/transaction.entity.ts';
import { createSubMerchant } from '../../../shared/people/merchants.service.ts';
import { SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { http } from '../../support/http.ts';
import { startReceiver } from '../../support/receiver.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, PASSWORD, payByCard, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';

const origin = new URL(inject('baseUrl')).origin;
const dash = (merchantId: string, rest = '') => `/dashboard/merchants/${merchantId}${rest}`;

/** A signed-in reader of the dashboard's pages: each page's HTML, after checking its status. */
async function pagesOf(email: string) {
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
  expect(session.status, session.text).toBe(201);
  return async (path: string, status = 200): Promise<string> => {
    const res = await http('GET', path, { baseUrl: origin, headers: { cookie: `${SESSION_COOKIE}=${session.json.token}` } });
    expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(status);
    return res.text;
  };
}

const decode = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The text a reader sees of `html`: its tags gone, its spaces collapsed. */
const textOf = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

/** The `<section>` of the page labelled by the heading `id`. */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`<section aria-labelledby="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}

/** The texts of a list's cells under the column `label` (the stacking tables' `data-label`). */
const cellsOf = (html: string, label: string) =>
  [...html.matchAll(new RegExp(`<td data-label="${label}"[^>]*>(.*?)</td>`, 'gs'))].map(([, cell]) => textOf(cell!));

/** The `href` of the pager's link `rel` (`prev` or `next`) in `html`, decoded, or null. */
const pagerLink = (html: string, rel: 'prev' | 'next') => {
  const m = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(html);
  return m ? decode(m[1]!) : null;
};

/** Runs `make(i)` for i = 0 … n − 1, `width` at a time. */
async function inBatches<T>(n: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let i = 0; i < n; i += width) made.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => make(i + j)))));
  return made;
}

/** `i` ms after `base`, as an ISO time: records made in a known order, whatever order their writes land in. */
const nthTime = (base: number, i: number) => new Date(base + i).toISOString();

describe('the dashboard pages over HTTP: what the merchant owes', () => {
  it('shows nothing owed until a refund takes more than is available, then the amount and what it means, and less once funds repay it', async () => {
    const org = await organizationAccount('Owed Pages Shop');
    const paid = await payByCard(org, 100, 'EUR');
    expect(paid.status, paid.text).toBe(201);
    const page = await pagesOf(org.ownerEmail);

    const homeBefore = textOf(sectionOf(await page(dash(org.organizationId)), 'balances'));
    expect(homeBefore).toContain('€0.00 available');
    expect(homeBefore).not.toContain('owed');
    const payoutsBefore = textOf(sectionOf(await page(dash(org.organizationId, '/payouts')), 'balances'));
    expect(payoutsBefore).not.toContain('owed');
    // Funds in a currency no payout method is paid in: the page says how they are paid out.
    const noMethod = 'No payout method is paid in EUR: these funds are paid out once one in EUR is added';
    expect(payoutsBefore).toContain(noMethod);
    const method = await orgCall('POST', `${orgPath(org.organizationId)}/payout-methods`, {
      fullKey: org.fullKey,
      body: { type: 'bank-account', holderName: 'Jane Seller', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
    });
    expect(method.status, method.text).toBe(201);
    expect(textOf(sectionOf(await page(dash(org.organizationId, '/payouts')), 'balances'))).not.toContain(noMethod);

    // The whole payment refunded while its net is still pending: nothing is available, so all of it is owed.
    const refund = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${paid.json.data.id}/refunds`, { fullKey: org.fullKey, body: {} });
    expect(refund.status, refund.text).toBe(201);
    const summary = await call('GET', `/v1/public-api/merchants/${org.organizationId}/balances/summary`, { key: org.merchantApiKey });
    expect(summary.json.balances).toEqual([expect.objectContaining({ currency: 'EUR', available: 0, pending: 95, owed: 100 })]);

    const meaning =
      'This merchant owes it to the platform: a refund or dispute took more than the available balance. It is taken from the next funds that become available, before any payout.';
    const home = textOf(sectionOf(await page(dash(org.organizationId)), 'balances'));
    expect(home).toContain('€100.00 owed');
    expect(home).toContain(meaning);
    const payouts = textOf(sectionOf(await page(dash(org.organizationId, '/payouts')), 'balances'));
    expect(payouts).toContain('€100.00 owed');
    expect(payouts).toContain(meaning);

    // The held net (95.00) is released: it repays what is owed first, so 5.00 is still owed and nothing is available.
    expect(await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId })).toBe(1);
    const released = textOf(sectionOf(await page(dash(org.organizationId, '/payouts')), 'balances'));
    expect(released).toContain('€0.00 available');
    expect(released).toContain('€5.00 owed');
    expect(textOf(sectionOf(await page(dash(org.organizationId)), 'balances'))).toContain('€5.00 owed');
  });
});

describe('the dashboard pages over HTTP: a checkout payment’s buyer', () => {
  it("shows the buyer's e-mail on the payment's page, linking to their customer page, and in the payments list", async () => {
    const org = await organizationAccount('Buyer Pages Shop');
    const plan = await orgPlan(org);
    const buyer = uniqueEmail('buyer');
    const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email: buyer, billingAddress: { country: 'DE' } } });
    expect(session.status, session.text).toBe(200);
    const confirmed = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId: session.json.sessionId, token: await cardToken(org) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const transactionId = confirmed.json.transactionId as string;
    const customerId = (await getTransaction(org.organizationId, transactionId))?.customerId;
    expect(customerId).toBeTruthy();

    const page = await pagesOf(org.ownerEmail);
    const payment = await page(dash(org.organizationId, `/payments/${transactionId}`));
    const customer = /<dt>Customer<\/dt>\s*<dd>(.*?)<\/dd>/s.exec(payment)?.[1];
    expect(customer?.trim()).toBe(`<a href="${dash(org.organizationId, `/customers/${customerId}`)}">${buyer}</a>`);
    // Its parts, as its journal booked them: the German VAT in it, the 5 % fee on the whole, the merchant's share.
    const t = (await getTransaction(org.organizationId, transactionId))!;
    const tax = taxInPayment(t);
    const fee = Math.round(t.amountMinor * 0.05);
    const fact = (name: string) => textOf(new RegExp(`<dt>${name}</dt>\\s*<dd>(.*?)</dd>`, 's').exec(payment)?.[1] ?? '');
    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    expect(tax).toBeGreaterThan(0);
    expect(fact('Tax in it')).toBe(`${money(tax)} owed by the platform, the seller of record`);
    expect(fact('Platform fee')).toBe(`${money(fee)} 5 % of the amount, tax included`);
    expect(fact('Your share')).toBe(`${money(t.amountMinor - tax - fee)} before any refund`);
    // The link leads to the buyer's customer page, which lists this payment.
    const customerPage = await page(dash(org.organizationId, `/customers/${customerId}`));
    expect(customerPage).toContain(`<h1>${buyer}</h1>`);
    expect(customerPage).toContain(`/payments/${transactionId}"`);

    const list = await page(dash(org.organizationId, `/payments?q=${transactionId}`));
    const row = /<tbody>(.*?)<\/tbody>/s.exec(list)?.[1] ?? '';
    expect(textOf(row)).toContain(buyer);
  });
});

describe('the dashboard pages over HTTP: a list paged past its end', () => {
  it('says there is no such page and links to the first one (filters kept), where "No … yet" would call the list empty', async () => {
    const org = await organizationAccount('Past The End Shop');
    const plan = await orgPlan(org);
    const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email: uniqueEmail('buyer'), billingAddress: { country: 'DE' } } });
    expect(session.status, session.text).toBe(200);
    const confirmed = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId: session.json.sessionId, token: await cardToken(org) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const page = await pagesOf(org.ownerEmail);
    const lists = [
      { path: '/payments?status=completed&page=3', what: 'payments', first: '/payments?status=completed' },
      { path: '/subscriptions?page=2', what: 'subscriptions', first: '/subscriptions' },
      { path: '/customers?search=buyer&page=2', what: 'customers', first: '/customers?search=buyer' },
      { path: '/invoices?page=4', what: 'invoices', first: '/invoices' },
      { path: '/payouts?page=2', what: 'payouts', first: '/payouts' },
    ];
    for (const list of lists) {
      const html = await page(dash(org.organizationId, list.path));
      const main = textOf(/<main[^>]*>(.*?)<\/main>/s.exec(html)?.[1] ?? '');
      const n = /page=(\d+)/.exec(list.path)?.[1];
      expect(main, list.path).toContain(`There is no page ${n} of the ${list.what}. Show the first page`);
      expect(main, list.path).not.toContain(`No ${list.what} yet`);
      expect(html, list.path).toContain(`<a href="${dash(org.organizationId, list.first).replace(/&/g, '&amp;')}">Show the first page</a>`);
      // The first page has the row the page past the end does not.
      expect(textOf(await page(dash(org.organizationId, list.first))), list.first).not.toContain('There is no page');
    }
    // A page that is not a whole number from 1 to 10,000 is 400, on every list, the payouts' included.
    for (const bad of ['0', '-1', '1.5', 'NaN', '10001']) await page(dash(org.organizationId, `/payouts?page=${bad}`), 400);
  });
});

describe('the dashboard pages over HTTP: a create form sent twice', () => {
  it('creates one API key, MCP token, destination and sub-merchant when the same form is sent again (a reload of the secret’s page), and refuses a form without its key', async () => {
    const owner = await rootMerchant('Sent Once Shop');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    expect(session.status, session.text).toBe(201);
    const cookie = `${SESSION_COOKIE}=${session.json.token}`;
    const receiver = await startReceiver();
    const forms: { path: string; fields: Record<string, string>; secret: RegExp; sentBefore: string; refusedFirst?: Record<string, string> }[] = [
      {
        path: '/developers/api-keys',
        fields: { action: 'create', name: 'Build server' },
        secret: /mor_test_[0-9a-f]{64}/,
        sentBefore: 'its key was created then',
      },
      {
        path: '/developers/mcp-tokens',
        fields: { action: 'create', name: 'Laptop agent', scopes: 'merchant:read', expiresInDays: '1' },
        secret: /id="mcp-token-secret"/,
        sentBefore: 'its token was created then',
      },
      {
        path: '/developers/webhooks',
        fields: { action: 'create', url: `${receiver.url}/hooks`, eventTypes: 'payment.completed' },
        // Refused first (nothing added): the same form, mended, is then sent as it is.
        refusedFirst: { url: 'ftp://example.com/hooks' },
        secret: /id="signing-secret"/,
        sentBefore: 'its destination was added then',
      },
      { path: '/partners', fields: { action: 'create', name: 'Sent Once Sub' }, secret: /id="join-link-url"/, sentBefore: 'its merchant was created then' },
    ];
    for (const form of forms) {
      const shown = await http('GET', dash(owner.merchantId, form.path), { baseUrl: origin, headers: { cookie } });
      expect(shown.status, shown.text.slice(0, 300)).toBe(200);
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(shown.text)?.[1];
      const formKey = field('form_key');
      expect(formKey, form.path).toMatch(/^[0-9a-f-]{36}$/);
      const send = (extra: Record<string, string>) =>
        http('POST', dash(owner.merchantId, form.path), {
          baseUrl: origin,
          headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf_token: field('csrf_token')!, ...form.fields, ...extra }).toString(),
        });
      if (form.refusedFirst) {
        const refused = await send({ ...form.refusedFirst, form_key: formKey! });
        expect(refused.status, refused.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
        expect(refused.text).not.toMatch(form.secret);
      }
      const first = await send({ form_key: formKey! });
      expect(first.status, first.text.slice(0, 300)).toBe(200);
      expect(first.text, form.path).toMatch(form.secret);
      const again = await send({ form_key: formKey! });
      expect(again.status, again.text.slice(0, 300)).toBe(200);
      expect(again.text, form.path).not.toMatch(form.secret);
      expect(textOf(again.text), form.path).toContain(form.sentBefore);
      const without = await send({});
      expect(without.status, form.path).toBe(400);
      expect(textOf(without.text)).toContain('This form is out of date: reload the page and send it again.');
    }
    // One of each was made: the owner's API keys (the fixture's and this one), tokens and destinations.
    const keys = await call('GET', `/v1/public-api/merchants/${owner.merchantId}/api-keys`, { key: owner.apiKey });
    expect(keys.json.map((k: { name: string }) => k.name).filter((n: string) => n === 'Build server')).toHaveLength(1);
    const tokensPage = await http('GET', dash(owner.merchantId, '/developers/mcp-tokens'), { baseUrl: origin, headers: { cookie } });
    expect(textOf(tokensPage.text).match(/Laptop agent/g)).toHaveLength(1);
    const destinations = await call('GET', `/v1/dashboard/merchants/${owner.merchantId}/webhook-destinations`, { key: session.json.token });
    expect(destinations.json.data).toHaveLength(1);
    const partners = await http('GET', dash(owner.merchantId, '/partners'), { baseUrl: origin, headers: { cookie } });
    expect(cellsOf(sectionOf(partners.text, 'sub-merchants'), 'Name').filter((n) => n.startsWith('Sent Once Sub'))).toHaveLength(1);
    await receiver.close();
  });
});

describe('the dashboard pages over HTTP: create forms sent at once', () => {
  it('makes one product, plan, promo code and payout method of a form sent three times at once, and says the others were sent before; from one showing of the page, each of its forms makes its record', async () => {
    const owner = await rootMerchant('Double Click Shop');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    const cookie = `${SESSION_COOKIE}=${session.json.token}`;
    const product = await createProduct(owner.merchantId, { name: 'Mug', type: 'one-time' });
    const forms: Array<{ path: string; fields: Record<string, string>; done: string; sentBefore: string }> = [
      { path: '/catalog', fields: { action: 'create_product', name: 'Lamp', type: 'one-time' }, done: 'product_created', sentBefore: 'sent_before' },
      {
        path: '/catalog',
        fields: { action: 'create_plan', product_id: product.id, name: 'Lamp plan', amount: '12.00', currency: 'USD' },
        done: 'plan_created',
        sentBefore: 'sent_before',
      },
      { path: '/catalog', fields: { action: 'create_promo', code: 'TWICE', percent_off: '10' }, done: 'promo_created', sentBefore: 'sent_before' },
      {
        path: '/payouts',
        fields: { action: 'add_method', holder_name: 'Jane Seller', country: 'DE', currency: 'EUR', account_number: 'DE89 3704 0044 0532 0130 00' },
        done: 'method_added',
        sentBefore: 'method_sent_before',
      },
    ];
    for (const form of forms) {
      const shown = await http('GET', dash(owner.merchantId, form.path), { baseUrl: origin, headers: { cookie } });
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(shown.text)?.[1];
      const body = new URLSearchParams({ csrf_token: field('csrf_token')!, form_key: field('form_key')!, ...form.fields }).toString();
      const send = () =>
        http('POST', dash(owner.merchantId, form.path), {
          baseUrl: origin,
          headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const answers = await Promise.all([send(), send(), send()]);
      const dones = answers.map((a) => new URL(a.headers.get('location') ?? '/', origin).searchParams.get('done'));
      expect(dones.sort(), `${form.fields.action}: ${answers.map((a) => a.status)}`).toEqual([form.done, form.sentBefore, form.sentBefore].sort());
    }
    // A form refused claims nothing: sent again as it is, refused again (not "sent before"); mended, it creates.
    const shown = await http('GET', dash(owner.merchantId, '/catalog'), { baseUrl: origin, headers: { cookie } });
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(shown.text)?.[1];
    const promo = (code: string) =>
      http('POST', dash(owner.merchantId, '/catalog'), {
        baseUrl: origin,
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          csrf_token: field('csrf_token')!,
          form_key: field('form_key')!,
          action: 'create_promo',
          code,
          percent_off: '5',
        }).toString(),
      });
    expect((await Promise.all([promo('x'), promo('x')])).map((a) => a.status)).toEqual([400, 400]);
    expect((await promo('MENDED')).headers.get('location')).toMatch(/done=promo_created$/);
    // The page's create forms share its key, and each is sent once of its own: from one showing of the page (a page
    // the Back button brings back as it was), a product, then a plan, then a promo code are each made.
    const again = await http('GET', dash(owner.merchantId, '/catalog'), { baseUrl: origin, headers: { cookie } });
    const keyOf = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(again.text)?.[1];
    for (const [fields, done] of [
      [{ action: 'create_product', name: 'Desk', type: 'one-time' }, 'product_created'],
      [{ action: 'create_plan', product_id: product.id, name: 'Desk plan', amount: '30.00', currency: 'USD' }, 'plan_created'],
      [{ action: 'create_promo', code: 'ONEPAGE', percent_off: '15' }, 'promo_created'],
    ] as const) {
      const sent = await http('POST', dash(owner.merchantId, '/catalog'), {
        baseUrl: origin,
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: keyOf('csrf_token')!, form_key: keyOf('form_key')!, ...fields }).toString(),
      });
      expect(new URL(sent.headers.get('location') ?? '/', origin).searchParams.get('done'), fields.action).toBe(done);
    }
    const list = async (rest: string) =>
      (await call('GET', `/v1/public-api/merchants/${owner.merchantId}${rest}`, { key: owner.apiKey })).json.data as unknown[];
    expect((await list('/products')).length).toBe(3);
    expect((await list('/payouts/payout-methods')).length).toBe(1);
    const catalog = await http('GET', dash(owner.merchantId, '/catalog'), { baseUrl: origin, headers: { cookie } });
    expect(textOf(catalog.text).match(/Lamp plan/g)).toHaveLength(1);
    expect(textOf(catalog.text).match(/TWICE/g)).toHaveLength(1);
  });
});

describe('the dashboard pages over HTTP: a destination with custom headers', () => {
  it('adds a destination with the headers written in the form, and refuses malformed ones with the form kept and nothing added', async () => {
    const owner = await rootMerchant('Header Shop');
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
    const cookie = `${SESSION_COOKIE}=${session.json.token}`;
    const path = dash(owner.merchantId, '/developers/webhooks');
    const receiver = await startReceiver();
    const send = async (headers: string) => {
      const shown = await http('GET', path, { baseUrl: origin, headers: { cookie } });
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(shown.text)?.[1] ?? '';
      return http('POST', path, {
        baseUrl: origin,
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...{ csrf_token: field('csrf_token'), form_key: field('form_key'), action: 'create' },
          ...{ url: `${receiver.url}/mor`, eventTypes: 'payment.completed', headers },
        }).toString(),
      });
    };
    const destinations = async () =>
      (await call('GET', `/v1/dashboard/merchants/${owner.merchantId}/webhook-destinations`, { key: session.json.token })).json.data;
    for (const [headers, error] of [
      ['X-Team billing', 'Line 1: write each header on its own line as Name: value.'],
      ['Host: evil.example', 'must not set connection headers such as Host or Content-Length'],
      ['X-Team: a\nx-team: b', 'must not name a header twice'],
      ['Bad Name: 1', 'must be an HTTP header name'],
    ]) {
      const refused = await send(headers!);
      expect(refused.status, headers).toBe(400);
      expect(textOf(refused.text), headers).toContain(error!);
      expect(refused.text, headers).toContain('aria-invalid="true"');
      expect(refused.text, headers).toContain(headers!.split('\n')[0]);
    }
    expect(await destinations()).toEqual([]);
    const added = await send('Authorization: Bearer receiver-secret\r\n\r\nX-Team:  billing ');
    expect(added.status, textOf(added.text).slice(0, 600)).toBe(200);
    expect(added.text).toMatch(/id="signing-secret"/);
    expect(await destinations()).toMatchObject([{ url: `${receiver.url}/mor`, headerNames: ['Authorization', 'X-Team'] }]);
    await receiver.close();
  });
});

describe('the dashboard pages over HTTP: lists past 100', { timeout: 120_000 }, () => {
  it('pages the partners list: 101 sub-merchants over five pages of 25, newest first, each on one page', async () => {
    const partner = await rootMerchant('Paging Partner');
    const base = Date.now() - 3_600_000;
    const names = await inBatches(101, 20, async (i) => {
      const name = `Sub ${String(i).padStart(3, '0')}`;
      await createSubMerchant(partner.merchantId, { name }, nthTime(base, i));
      return name;
    });
    const page = await pagesOf(partner.ownerEmail);
    const path = dash(partner.merchantId, '/partners');

    const seen: string[][] = [];
    let next: string | null = path;
    while (next) {
      const html = await page(next);
      const list = sectionOf(html, 'sub-merchants');
      seen.push(cellsOf(list, 'Name'));
      expect(textOf(list)).toContain('101 sub-merchants');
      expect(textOf(list)).toContain(`Page ${seen.length} of 5`);
      next = pagerLink(list, 'next');
      if (next) expect(next).toBe(`${path}?page=${seen.length + 1}`);
    }
    expect(seen.map((p) => p.length)).toEqual([25, 25, 25, 25, 1]);
    // Newest first: the last made leads the first page, the first made is alone on the last.
    expect(seen.flat()).toEqual([...names].reverse());

    expect(textOf(sectionOf(await page(`${path}?page=6`), 'sub-merchants'))).toContain('There is no page 6 of the sub-merchants.');
    await page(`${path}?page=abc`, 400);
  });

  it('pages the catalog’s products, plans and promo codes: 101 of each, each list paged on its own', async () => {
    const shop = await rootMerchant('Paging Catalog Shop');
    const id = shop.merchantId;
    const base = Date.now() - 3_600_000;
    const n = (i: number) => String(i).padStart(3, '0');
    const products = await inBatches(101, 20, (i) => createProduct(id, { name: `Product ${n(i)}`, type: 'one-time' }));
    // Plan i sells product i, so the plans on a page name products of other pages of the products list.
    await inBatches(101, 20, (i) =>
      createPlan(
        id,
        {
          name: `Plan ${n(i)}`,
          currency: 'USD',
          productId: products[i]!.id,
          pricing: { price: 10 + i, formula: 'fixed-fee' },
          description: null,
          richDescription: null,
          productOptions: {},
          setup: null,
          recurringInterval: null,
          trial: null,
          isActive: true,
          isTrialOnly: false,
        },
        nthTime(base, i),
      ),
    );
    await inBatches(101, 20, (i) =>
      createPromoCode(id, { code: `CODE${n(i)}`, percentOff: 10, planIds: [], expiresAt: null, maxRedemptions: null, isActive: true }, nthTime(base, i)),
    );
    const page = await pagesOf(shop.ownerEmail);
    const path = dash(id, '/catalog');

    // Plans: five pages, newest first; the products list stays on the page it was on.
    const productsPage2 = cellsOf(sectionOf(await page(`${path}?products_page=2`), 'products'), 'Name');
    expect(productsPage2).toHaveLength(25);
    const plans: string[] = [];
    const productsOfPlans: string[] = [];
    let next: string | null = `${path}?products_page=2`;
    for (let p = 1; next; p++) {
      const html = await page(next);
      const list = sectionOf(html, 'plans');
      expect(textOf(list)).toContain(`Page ${p} of 5 · 101 plans`);
      plans.push(...cellsOf(list, 'Name'));
      productsOfPlans.push(...cellsOf(list, 'Product'));
      expect(cellsOf(sectionOf(html, 'products'), 'Name')).toEqual(productsPage2);
      next = pagerLink(list, 'next');
      if (next) expect(next).toBe(`${path}?products_page=2&plans_page=${p + 1}#plans`);
    }
    const all = Array.from({ length: 101 }, (_, i) => 100 - i);
    expect(plans).toEqual(all.map((i) => `Plan ${n(i)}`));
    // Each plan's product by its name, whichever page of products it is on.
    expect(productsOfPlans).toEqual(all.map((i) => `Product ${n(i)}`));

    // Promo codes and products: every one on exactly one of five pages.
    const codes: string[] = [];
    const productNames: string[] = [];
    for (let p = 1; p <= 5; p++) {
      const html = await page(`${path}?promo_codes_page=${p}&products_page=${p}`);
      codes.push(...cellsOf(sectionOf(html, 'promo-codes'), 'Code'));
      productNames.push(...cellsOf(sectionOf(html, 'products'), 'Name'));
    }
    expect(codes).toEqual(all.map((i) => `CODE${n(i)}`));
    expect([...productNames].sort()).toEqual(products.map((x) => x.name).sort());

    const past = await page(`${path}?plans_page=6`);
    expect(textOf(sectionOf(past, 'plans'))).toContain('There is no page 6 of the plans.');
    await page(`${path}?promo_codes_page=0`, 400);
  });
});
