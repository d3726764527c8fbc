/**
 * A fuzz of every form the dashboard's and the customer portal's pages show, as the people who use them fill them in.
 * A merchant with a payment, released funds, a promo code, a subscription and a Member is set up, and its owner's
 * pages are crawled from the home page over HTTP (links under `/dashboard`; for a buyer, the portal's three pages).
 * The browser reads each `POST` form found into a body: its fields as the page fills them, an empty field given what
 * a person would type for its name (a list, its first choice), and one body for each named submit button.
 *
 * First, each of the merchant's forms is sent by the owner of another merchant and by the Member, each with their own
 * session and CSRF token: every one is refused with a 403 page, but the Member's MCP token of their own, and the
 * owner's pages then read as before, byte for byte but each answer's keys.
 *
 * Then the owner (and the buyer) sends each form
 *
 * 1. as filled in: it must get past the form's validation (any answer but 400 and 5xx; a 422 is the business refusing
 *    it, after validation), so the cases below reach the form's handler, not only the page's first check;
 * 2. with each field in turn missing, and with one odd value, the fields taking turns (empty, control characters,
 *    3,000 characters); with `FORM_FUZZ_VALUES=all` (`npm run test:deep`), two dozen odd values in each field
 *    (numbers in odd notations, HTML, a lone surrogate, another script's digits, a URL elsewhere, an impossible date)
 *    and the field sent twice.
 *
 * A create form's key (`form_key`, `idempotency_key`) is made afresh for each request, so a form accepted once does
 * not answer every later request with "sent before". Forms that end something (archive, revoke, cancel, pause) go
 * last, so the forms that make something still find the records they name. What it proves: no answer is a 5xx, the
 * session holds (no answer sends the person to the sign-in page), and every refusal is a whole HTML page that keeps
 * its route's contract.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_DAYS } from '../../../shared/money/ledger.rules.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { SIGN_IN_PATH } from '../../../shared/platform/http/page-errors.ts';
import { csrfTokenOf, PORTAL_SESSION_COOKIE, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { checkContractAt } from '../../support/contract.ts';
import {
  call,
  cardToken,
  joinTeam,
  organizationAccount,
  orgPromoCode,
  PASSWORD,
  payByCard,
  person,
  portalSession,
  rootMerchant,
  subscriber,
  uniqueEmail,
} from '../../support/fixtures.ts';
import { launchBrowser, ONBOARDING_ANSWERS, origin } from '../support.ts';

/** A `POST` form of a page: where it posts, and its body as the page fills it (the submit button's pair last). */
interface Form {
  readonly action: string;
  readonly body: ReadonlyArray<readonly [string, string]>;
}

/** What a person types into a field the page leaves empty, by its name (any other empty field gets `A <name>`). */
const TYPED: Record<string, string> = {
  name: 'Desk lamp',
  description: 'A lamp for a desk',
  amount: '12.50',
  currency: 'EUR',
  country: 'DE',
  code: 'SAVE10',
  percent_off: '10',
  amount_off: '',
  amount_off_currency: '',
  interval: 'month',
  email: 'teammate@example.com',
  brand_color: '#1A56DB',
  accent_color: '#0E9F6E',
  display_name: 'Lamp Shop',
  website_url: 'https://lamps.example',
  terms_url: 'https://lamps.example/terms',
  privacy_url: 'https://lamps.example/privacy',
  return_policy_url: 'https://lamps.example/returns',
  eula_url: 'https://lamps.example/eula',
  url: 'http://127.0.0.1:9999/hook',
  headers: '',
  websiteUrl: 'https://partner.example',
  ownerEmail: '',
  holder_name: 'Jane Seller',
  account_number: 'DE89 3704 0044 0532 0130 00',
  routing_number: '',
  reason: 'Asked by the buyer',
  comment: 'Moving on',
  ...ONBOARDING_ANSWERS,
  business_sales_volume: '25000',
  member_date_of_birth: '1980-02-03',
  member_state: 'Berlin',
  member_zip: '10115',
  member_phone_code: '+49',
  member_phone_number: '30123456',
};

/** The odd values of `npm test`: one in each field, taking turns (besides the field missing). */
const FEW = ['', 'a\u0000b\u001bc', 'x'.repeat(3000)];
/** And of `npm run test:deep`. */
const MANY = [
  ...FEW,
  ' ',
  '-1',
  '0',
  '-0',
  '1e309',
  'NaN',
  '0x10',
  '10.001',
  '1,000.00',
  '9'.repeat(30),
  '١٢٣',
  '<b>x</b>',
  '\ud800',
  'true',
  '__proto__',
  '../../x',
  'https://elsewhere.example/',
  '2026-02-30',
  'USD',
  'month',
  '00000000-0000-0000-0000-000000000000',
];
const ALL_ODD_VALUES = process.env.FORM_FUZZ_VALUES === 'all';
/** Fields made afresh for each request (a create form's one-sending key), and the CSRF token: neither is fuzzed here. */
const KEYS = new Set(['form_key', 'idempotency_key']);
/** A form that ends something: sent after the others. */
const ENDS = /archive|deactivate|revoke|cancel|pause/;

/**
 * What the browser reads of a page (a script run in it: the tests' types hold no DOM), called with `{ url, typed }`:
 * its links, and each `POST` form's body (a choice sends its checked box, or the group's first when none is; an empty
 * field gets `typed[name]`, a list its first choice, or `A <name>`), once for each of its named submit buttons.
 */
const READ_PAGE = `({ url, typed }) => {
  const links = [...document.querySelectorAll('a[href]')].map((a) => new URL(a.getAttribute('href'), url).toString());
  const forms = [];
  for (const form of document.querySelectorAll('form[method=post]')) {
    const body = [];
    for (const field of form.querySelectorAll('input, select, textarea')) {
      const { name, type } = field;
      if (!name || type === 'submit' || body.some(([n]) => n === name && (type === 'radio' || type === 'checkbox'))) continue;
      if ((type === 'checkbox' || type === 'radio') && !field.checked && form.querySelector('input[name="' + name + '"]:checked')) continue;
      const firstChoice = field.tagName === 'SELECT' ? ([...field.options].find((o) => o.value)?.value ?? '') : 'A ' + name;
      body.push([name, field.value || (typed[name] ?? firstChoice)]);
    }
    const action = new URL(form.getAttribute('action') ?? url, url).toString();
    const buttons = [...form.querySelectorAll('button[name]')];
    if (buttons.length === 0) forms.push({ action, body });
    for (const b of buttons) forms.push({ action, body: [...body, [b.name, b.value]] });
  }
  return { links, forms };
}`;

/** The links and `POST` forms of a page's HTML (its scripts left out), as `READ_PAGE` reads them. */
async function readPage(page: Page, html: string, url: string, typed: Record<string, string>): Promise<{ links: string[]; forms: Form[] }> {
  await page.setContent(html.replace(/<script[\s\S]*?<\/script>/g, ''));
  return page.evaluate(`(${READ_PAGE})(${JSON.stringify({ url, typed })})`) as Promise<{ links: string[]; forms: Form[] }>;
}

/** Every page under `under` reached by links from `starts` (no query strings: one page of each list), and their `POST` forms, one of each kind. */
async function crawl(page: Page, cookie: string, starts: string[], under: RegExp, typed = TYPED): Promise<Form[] & { pages: string[] }> {
  const seen = new Set<string>();
  const queue = [...starts];
  const forms = new Map<string, Form>();
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    expect(res.status, url).toBe(200);
    const read = await readPage(page, await res.text(), url, typed);
    for (const form of read.forms) {
      // One form of each kind: its path with the ids left out, and its fields' names.
      const kind = `${nameOf(form).replace(/\/[^/]*\d[^/]*(?=\/|$)/g, '/{id}')} ${form.body.map(([n]) => n).join(',')}`;
      if (!forms.has(kind)) forms.set(kind, form);
    }
    for (const link of read.links) {
      const u = new URL(link);
      if (u.origin === origin && under.test(u.pathname) && !u.search && !u.hash && !/sign-out|\/pdf$/.test(u.pathname) && !seen.has(u.toString()))
        queue.push(u.toString());
    }
  }
  const found = [...forms.values()]
    .filter((f) => !/sign-out/.test(f.action))
    .sort((a, b) => Number(ENDS.test(JSON.stringify(a))) - Number(ENDS.test(JSON.stringify(b))));
  return Object.assign(found, { pages: [...seen] });
}

/** A form's path and what it does (its `action`'s value). */
const nameOf = (form: Form) => `${new URL(form.action).pathname} ${form.body.find(([n]) => n === 'action')?.[1] ?? ''}`.trim();

interface Probe {
  readonly form: Form;
  readonly body: ReadonlyArray<readonly [string, string]>;
  readonly label: string;
}

/** Each form as filled in, then with each field in turn missing, odd (one value, or all of them), and (all values) twice. */
function probesOf(forms: readonly Form[]): Probe[] {
  return forms.flatMap((form) => [
    { form, body: form.body, label: 'as filled in' },
    ...form.body.flatMap(([name], i): Probe[] =>
      name === 'csrf_token' || KEYS.has(name)
        ? []
        : [
            { form, body: form.body.filter((_, j) => j !== i), label: `${name} missing` },
            ...(ALL_ODD_VALUES ? MANY : [FEW[i % FEW.length]!]).map((odd) => ({
              form,
              body: form.body.map(([n, v], j) => [n, j === i ? odd : v] as const),
              label: `${name}=${JSON.stringify(odd.slice(0, 20))}`,
            })),
            ...(ALL_ODD_VALUES ? [{ form, body: [...form.body, [name, 'again'] as const], label: `${name} twice` }] : []),
          ],
    ),
  ]);
}

/**
 * Posts `body` to the form's address as a browser posts it, with `cookie` (and, when given, `csrf` as its CSRF token),
 * a create form's key made afresh; the answer, and the body sent.
 */
async function sendForm(form: Form, body: Probe['body'], cookie: string, csrf?: string): Promise<{ res: Response; sent: [string, string][] }> {
  const sent = body.map(([n, v]): [string, string] => [n, n === 'csrf_token' && csrf ? csrf : KEYS.has(n) ? randomUUID() : v]);
  const res = await fetch(form.action, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(sent).toString(),
    redirect: 'manual',
  });
  return { res, sent };
}

/** The text of a page's alert (why a form was refused), or ''. */
const alertOf = (html: string) =>
  (/role="alert"[^>]*>([\s\S]*?)<\/(?:div|p|section)>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** How a form sent as filled in was answered: its status, what its page said, and the body sent. */
interface FilledIn {
  readonly status: number;
  readonly said: string;
  readonly body: [string, string][];
}

/** Sends the probes four at a time, in order; what is wrong, one line each. A redirect to `signIn` is a session lost. */
async function fuzz(probes: readonly Probe[], cookie: string, signIn: RegExp): Promise<{ problems: string[]; filledIn: Map<string, FilledIn> }> {
  const problems: string[] = [];
  const filledIn = new Map<string, FilledIn>();
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const { form, body, label } = probes[next++]!;
      const { res, sent } = await sendForm(form, body, cookie);
      const text = await res.text();
      const path = new URL(form.action).pathname;
      const where = `${nameOf(form)}: ${label}`;
      if (label === 'as filled in') filledIn.set(nameOf(form), { status: res.status, said: alertOf(text), body: sent });
      if (res.status >= 500) problems.push(`${where}: answered ${res.status}`);
      else if (res.status === 303 && signIn.test(new URL(res.headers.get('location') ?? '/', origin).pathname)) problems.push(`${where}: sent to sign in`);
      else if (res.status >= 400 && !res.headers.get('content-type')?.startsWith('text/html'))
        problems.push(`${where}: a ${res.status} of ${res.headers.get('content-type')}`);
      else {
        try {
          checkContractAt('POST', path, res.status, null, text, res.headers.get('content-type'), res.headers);
        } catch (e) {
          problems.push(`${where}: ${(e as Error).message.slice(0, 200)}`);
        }
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { problems, filledIn };
}

describe('every form of the dashboard and the portal, fuzzed', { timeout: 600_000 }, () => {
  let browser: Browser;
  let page: Page;
  /** A merchant with a payment, released funds, a promo code, a subscription and a Member; its owner's forms. */
  let org: Awaited<ReturnType<typeof organizationAccount>>;
  let owner: string;
  let member: { email: string; token: string };
  let forms: Awaited<ReturnType<typeof crawl>>;
  const cookieOf = (token: string) => `${SESSION_COOKIE}=${token}`;
  const sessionOf = async (email: string) => {
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
    expect(session.status, session.text).toBe(201);
    return session.json.token as string;
  };
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    org = await organizationAccount('Fuzzed Forms Shop');
    expect((await payByCard(org, 100, 'USD')).status).toBe(201);
    await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });
    await orgPromoCode(org, { percentOff: 10 });
    await subscriber(org);
    owner = await sessionOf(org.ownerEmail);
    member = await person(uniqueEmail('member'));
    await joinTeam(org.organizationId, owner, member);
    forms = await crawl(page, cookieOf(owner), [`${origin}/dashboard`, `${origin}/dashboard/merchants/${org.organizationId}`], /^\/dashboard(\/|$)/);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('finds the forms of every area of the dashboard', () => {
    // A guard against a crawl that stopped short.
    for (const area of [
      '/catalog',
      '/payouts',
      '/checkout-settings',
      '/portal-settings',
      '/team',
      '/partners',
      '/onboarding',
      '/payments/',
      '/subscriptions/',
      '/api-keys',
      '/webhooks',
      '/mcp-tokens',
    ])
      expect(
        forms.some((f) => new URL(f.action).pathname.includes(area)),
        area,
      ).toBe(true);
    for (const action of ['create_merchant', 'create_product', 'add_method', 'role', 'remove', 'pause', 'cancel_now', 'revoke', 'submit'])
      expect(
        forms.some((f) => nameOf(f).endsWith(` ${action}`)),
        action,
      ).toBe(true);
  });

  // First, as it changes nothing; the fuzz below changes much.
  it("refuses the owner's every form of the merchant sent by another merchant's owner, and by a Member but their own MCP token, changing nothing", async () => {
    const stranger = await sessionOf((await rootMerchant('Stranger Shop')).ownerEmail);
    // What the owner reads on the pages, each form's fresh key and the page's script nonce left out; read until two
    // readings agree (nothing the setup started still lands).
    const reading = () =>
      Promise.all(
        forms.pages.map(async (url) =>
          (await (await fetch(url, { headers: { cookie: cookieOf(owner) } })).text()).replace(/((?:form_key|idempotency_key)" value|nonce)="[^"]*"/g, '$1=""'),
        ),
      );
    let before = await reading();
    await expect
      .poll(
        async () => {
          const again = await reading();
          const settled = again.join() === before.join();
          before = again;
          return settled;
        },
        { interval: 500 },
      )
      .toBe(true);

    // The merchant's forms (the home page's makes a merchant of one's own, which anyone signed in may).
    const merchants = forms.filter((f) => new URL(f.action).pathname.startsWith(`/dashboard/merchants/${org.organizationId}`));
    const sent = await Promise.all(
      merchants.flatMap((form) =>
        [
          ['a stranger', stranger],
          ['a member', member.token],
        ].map(async ([who, token]) => {
          const { res } = await sendForm(form, form.body, cookieOf(token!), csrfTokenOf(token!));
          return { form: `${nameOf(form)} by ${who}`, status: res.status, page: res.headers.get('content-type') };
        }),
      ),
    );
    const html = 'text/html; charset=utf-8';
    // A Member may make an MCP token of their own (on their own page, which the owner's do not show).
    const own = (form: string) => /\/developers\/mcp-tokens create by a member$/.test(form);
    expect(sent.filter((s) => !own(s.form))).toEqual(sent.filter((s) => !own(s.form)).map((s) => ({ ...s, status: 403, page: html })));
    expect(sent.filter((s) => own(s.form)).map((s) => s.status)).toEqual([200]);
    expect(await reading()).toEqual(before);
  });

  it("sends the owner's every dashboard form filled in, then each field odd: no 5xx, the session kept, each refusal a page", async () => {
    const { problems, filledIn } = await fuzz(probesOf(forms), cookieOf(owner), new RegExp(`^${SIGN_IN_PATH}$`));
    expect(problems).toEqual([]);
    expect([...filledIn].filter(([, a]) => a.status === 400)).toEqual([]);
  });

  it("sends a buyer's every portal form filled in, then each field odd: no 5xx, the session kept, each refusal a page", async () => {
    const shop = await organizationAccount('Fuzzed Portal Shop');
    const { customerId } = await subscriber(shop);
    const cookie = `${PORTAL_SESSION_COOKIE}=${await portalSession(shop, customerId)}`;
    const portal = `${origin}/portal/${shop.organizationId}`;
    const found = await crawl(
      page,
      cookie,
      [`${portal}/subscriptions`, `${portal}/invoices`, `${portal}/payment-method`],
      /^\/portal\/[^/]+\/(subscriptions|invoices|payment-method)$/,
      {
        ...TYPED,
        // The card the buyer's browser tokenized in the page's card fields.
        token: await cardToken(shop),
      },
    );
    for (const area of ['/pause', '/cancel', '/payment-method'])
      expect(
        found.some((f) => f.action.endsWith(area)),
        area,
      ).toBe(true);
    // A buyer whose session is gone is sent to the portal's entry page.
    const { problems, filledIn } = await fuzz(probesOf(found), cookie, new RegExp(`^/portal/${shop.organizationId}$`));
    expect(problems).toEqual([]);
    expect([...filledIn].filter(([, a]) => a.status === 400)).toEqual([]);
  });
});
