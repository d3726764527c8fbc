/**
 * A seller alone, in a real browser, every form filled with the keyboard alone: sign up → open a merchant (sandbox) →
 * create an API key (and use it) → a product and a plan → a buyer pays the plan's checkout link → the website →
 * the onboarding form (sent once with problems, each shown beside its field, then complete) → a payout method → go
 * live, where the home page says that live payments are refused while no processor is configured for them. Every
 * page on the way is axe-clean. Over HTTP: the onboarding's hosted URL is the page that shows what was submitted;
 * a Member cannot submit it; the create form refuses a missing name or country and creates nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, joinTeam, PASSWORD, uniqueEmail } from '../../support/fixtures.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signUpThroughPages } from '../support.ts';

const expiry = `12 / ${String(new Date().getUTCFullYear() + 3).slice(2)}`;

/** The id of the focused element ('' when none has one). */
const focusedId = (page: Page) => page.evaluate<string>("document.activeElement && document.activeElement.id ? document.activeElement.id : ''");

/** Presses Tab until `id` has the focus (it must be reachable by Tab from where the focus is). */
async function tabTo(page: Page, id: string, max = 300): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focusedId(page)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`#${id} never got the focus`);
}

/** Presses Tab until the button named `name` has the focus, then Enter. */
async function pressButton(page: Page, name: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate<string>(
      "document.activeElement && document.activeElement.tagName === 'BUTTON' ? document.activeElement.innerText.trim() : ''",
    );
    if (text === name) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`the button ${name} never got the focus`);
}

/**
 * Fills a form with the keyboard: Tab to its first field, then each field in turn, in the page's Tab order (the
 * order is checked: `fields` lists every field of the form): a text replaced by typing, a select chosen by typing its
 * choice's name, a checkbox ticked with Space (`true`) or left (`false`); then Tab to the submit button and Enter.
 */
async function fillWithKeyboard(page: Page, fields: ReadonlyArray<readonly [id: string, value: string | boolean]>, submit: string): Promise<void> {
  await tabTo(page, fields[0]![0]);
  for (const [id, value] of fields) {
    expect(await focusedId(page), 'the Tab order follows the form').toBe(id);
    const kind = await page.evaluate<string>('document.activeElement.type');
    if (kind === 'checkbox') {
      if (value === true) await page.keyboard.press('Space');
    } else if (kind === 'select-one') {
      await page.keyboard.type(String(value));
      expect(await page.evaluate<string>('document.activeElement.selectedOptions[0].textContent'), `#${id}`).toBe(value);
    } else {
      await page.keyboard.press('ControlOrMeta+A');
      if (value === '') await page.keyboard.press('Delete');
      else await page.keyboard.type(String(value));
    }
    // Tab to the next field (a date input takes one Tab per part: day, month, year).
    if (id !== fields.at(-1)![0]) for (let parts = 0; parts < 4 && (parts === 0 || (await focusedId(page)) === id); parts++) await page.keyboard.press('Tab');
  }
  await pressButton(page, submit);
}

/** The onboarding form's fields in order, complete but for `blank` (left empty). */
const onboardingAnswers = (blank: readonly string[] = []): Array<readonly [string, string | boolean]> =>
  (
    [
      ['business_name', 'Solo Studio GmbH'],
      ['business_dba', 'Solo Studio'],
      ['business_type', 'Limited liability company'],
      ['business_category', 'Design'],
      ['business_description', 'Online courses in type design'],
      ['business_website', 'https://solo.example'],
      ['business_tax_id', 'DE123456789'],
      ['business_registration_number', 'HRB 12345'],
      ['business_payment_reference', 'SOLO STUDIO'],
      ['business_address', 'Hauptstrasse 1'],
      ['business_city', 'Berlin'],
      ['business_state', 'Berlin'],
      ['business_zip', '10115'],
      ['business_country', 'Germany'],
      ['business_phone_code', '+49'],
      ['business_phone_number', '30123456'],
      ['business_sales_volume', '2500'],
      ['business_is_startup', true],
      ['business_public', false],
      ['business_restricted_items', false],
      ['member_first_name', 'Sam'],
      ['member_last_name', 'Solo'],
      ['member_date_of_birth', ''],
      ['member_address', 'Hauptstrasse 1'],
      ['member_city', 'Berlin'],
      ['member_state', ''],
      ['member_zip', ''],
      ['member_country', 'Germany'],
      ['member_phone_code', ''],
      ['member_phone_number', ''],
      ['account_report_currency', 'EUR'],
      ['account_payout_currency', 'EUR'],
    ] as const
  ).map(([id, value]) => [id, blank.includes(id) ? '' : value] as const);

describe('the dashboard: a seller starts alone', { timeout: 240_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up, opens a merchant, sells a plan through its checkout link, onboards and goes live, with the keyboard for every form', async () => {
    const w = await openPage(browser, { allowStatuses: [400] });
    const { page } = w;
    page.on('dialog', (d) => void d.accept());

    // Sign up.
    await page.goto(`${origin}/dashboard/sign-up`);
    const email = uniqueEmail('solo');
    await fillWithKeyboard(
      page,
      [
        ['name', 'Sam Solo'],
        ['email', email],
        ['password', PASSWORD],
      ],
      'Sign up',
    );
    await page.waitForURL(`${origin}/dashboard`);
    expect(await heading(page)).toBe('Your merchants');
    expect(await page.getByRole('main').innerText()).toContain('Open your own merchant below');
    await expectAccessible(page, 'self-serve-switcher');

    // A merchant without a country is refused with why, and nothing is made.
    await fillWithKeyboard(page, [['merchant-name', 'Solo Studio']], 'Create merchant');
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe('Choose the country your business is in.');
    expect(await page.getByLabel('Name').inputValue()).toBe('Solo Studio');
    expect(await page.getByRole('table').count()).toBe(0);
    await expectAccessible(page, 'self-serve-switcher-refused');

    // Open the merchant: its home, its checklist with the owner step done.
    await fillWithKeyboard(
      page,
      [
        ['merchant-name', 'Solo Studio'],
        ['merchant-country', 'Germany'],
      ],
      'Create merchant',
    );
    await page.waitForURL(/\/dashboard\/merchants\/[0-9a-f-]{36}\?done=created$/);
    const merchantId = new URL(page.url()).pathname.split('/')[3]!;
    const home = `${origin}/dashboard/merchants/${merchantId}`;
    expect(await page.getByRole('status').innerText()).toContain('Your sandbox merchant is ready');
    const checklist = () => page.locator('ol.checklist').innerText();
    expect(await checklist()).toMatch(/done[\s\S]*An owner has claimed the merchant/);
    expect(await page.getByRole('link', { name: 'Fill in the onboarding form' }).getAttribute('href')).toBe(`/dashboard/merchants/${merchantId}/onboarding`);
    await expectAccessible(page, 'self-serve-home-new');

    // An API key, shown once, works at once on the merchant API.
    await page.goto(`${home}/developers/api-keys`);
    await fillWithKeyboard(page, [['name', 'Shop server']], 'Create API key');
    await page.waitForLoadState();
    const apiKey = (await page.locator('#api-key-secret').innerText()).trim();
    expect(apiKey).toMatch(/^mor_test_[0-9a-f]{64}$/);
    const merchant = await call('GET', `/v1/public-api/merchants/${merchantId}`, { key: apiKey });
    expect(merchant.status).toBe(200);
    expect(merchant.json).toMatchObject({ id: merchantId, name: 'Solo Studio', parentId: null, mode: 'test', ownerAttached: true });

    // A product and a plan.
    await page.goto(`${home}/catalog`);
    await fillWithKeyboard(
      page,
      [
        ['product-name', 'Type course'],
        ['product-description', 'Twelve lessons in type design'],
        ['product-type', 'As a subscription'],
      ],
      'Create product',
    );
    await page.waitForURL(`${home}/catalog?done=product_created`);
    await fillWithKeyboard(
      page,
      [
        ['plan-product', 'Type course (subscription)'],
        ['plan-name', 'Monthly'],
        ['plan-amount', '20'],
        ['plan-currency', 'EUR'],
        ['plan-interval', 'Every month'],
      ],
      'Create plan',
    );
    await page.waitForURL(`${home}/catalog?done=plan_created`);
    const checkoutLink = await page
      .getByRole('row', { name: /Monthly/ })
      .getByRole('link')
      .getAttribute('href');
    expect(checkoutLink).toMatch(new RegExp(`^${origin}/checkout/plans/plan_[0-9a-f]{32}$`));

    // A buyer pays it.
    const buyer = await (await browser.newContext()).newPage();
    await buyer.goto(checkoutLink!);
    await expect.poll(() => buyer.locator('main').getAttribute('data-state')).toBe('ready');
    expect(await buyer.locator('#merchant').innerText()).toBe('Solo Studio · test mode');
    await buyer.getByLabel('E-mail').fill(uniqueEmail('buyer'));
    await buyer.getByLabel('Billing country').selectOption('DE');
    await expect.poll(() => buyer.locator('#totals').innerText()).toContain('€23.80');
    await buyer.getByRole('button', { name: 'Continue to payment' }).click();
    const frame = buyer.frameLocator('#card iframe');
    await frame.locator('#number').fill('4242 4242 4242 4242');
    await frame.locator('#expiry').fill(expiry);
    await frame.locator('#cvc').fill('123');
    await buyer.getByRole('button', { name: 'Pay €23.80' }).click();
    // Paid, or an answer the page shows (which the failure names): the machine may be slow, not the checkout wrong.
    const outcome = async () => ((await buyer.locator('main').getAttribute('data-state')) === 'paid' ? 'paid' : await buyer.locator('#form-error').innerText());
    await expect.poll(outcome, { timeout: 40_000 }).not.toBe('');
    expect(await outcome()).toBe('paid');
    await buyer.context().close();
    await page.goto(home);
    expect(await page.getByRole('table', { name: 'The five latest payments' }).innerText()).toContain('€23.80');

    // The website.
    await page.goto(`${home}/checkout-settings`);
    await fillWithKeyboard(page, [['website_url', 'https://solo.example']], 'Save website');
    await page.waitForURL(/done=/);

    // The onboarding form: sent with two problems, each shown beside its field; then complete.
    await page.goto(`${home}/onboarding`);
    expect(await heading(page)).toBe('Onboarding');
    expect(await page.getByLabel('Legal name').inputValue()).toBe('Solo Studio');
    await expectAccessible(page, 'self-serve-onboarding');
    const withProblems = onboardingAnswers(['business_city']).map(([id, value]) =>
      id === 'business_phone_number' ? ([id, '12'] as const) : ([id, value] as const),
    );
    await fillWithKeyboard(page, withProblems, 'Submit onboarding');
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toBe('Some fields need another look: each says what is wrong.');
    expect(await page.getByRole('list', { name: 'What to fix' }).innerText()).toBe('City: must not be empty\nPhone number: must be 4 to 15 digits');
    expect(await page.locator('#business_city').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#business_city').getAttribute('aria-describedby')).toBe('business_city-error');
    expect(await page.locator('#business_city-error').innerText()).toBe('must not be empty');
    expect(await page.locator('#business_tax_id').inputValue()).toBe('DE123456789');
    await expectAccessible(page, 'self-serve-onboarding-problems');
    await fillWithKeyboard(page, onboardingAnswers(), 'Submit onboarding');
    await page.waitForURL(`${home}?done=onboarding_submitted`);
    expect(await page.getByRole('status').innerText()).toBe('The onboarding form is submitted.');
    await page.goto(`${home}/onboarding`);
    expect(await page.getByRole('main').innerText()).toMatch(/Submitted[\s\S]*Solo Studio GmbH \(Solo Studio\), Berlin, DE[\s\S]*€2,500\.00/);
    expect(await page.getByRole('main').innerText()).not.toContain('DE123456789');
    await expectAccessible(page, 'self-serve-onboarding-submitted');

    // A payout method, then go live.
    await page.goto(`${home}/payouts`);
    await fillWithKeyboard(
      page,
      [
        ['holder_name', 'Solo Studio GmbH'],
        ['country', 'DE'],
        ['currency', 'EUR'],
        ['account_number', 'DE89370400440532013000'],
        ['routing_number', ''],
      ],
      'Add payout method',
    );
    await page.waitForURL(/done=method_added/);
    await page.goto(home);
    expect(await checklist()).not.toContain('to do');
    await pressButton(page, 'Go live');
    await page.waitForURL(`${home}?done=live`);
    expect(await page.getByRole('status').innerText()).toBe('The checklist is complete: the merchant has gone live.');
    const live = await page.getByRole('region', { name: 'Live' }).innerText();
    expect(live).toContain('The checklist is complete. This is the sandbox');
    expect(live).toContain('Live payments are refused for now: no payment processor is configured for live cards');
    expect(live).toContain('payments.processor_unavailable');
    await expectAccessible(page, 'self-serve-home-live');
    expect((await call('GET', `/v1/public-api/merchants/${merchantId}`, { key: apiKey })).json.activation.status).toBe('complete');
    await w.expectClean();
  });

  it('over HTTP: the hosted onboarding URL is the merchant’s onboarding page, a Member cannot submit it, a bad create form makes nothing', async () => {
    const owner = await signedInPerson(browser);
    const blankName = await owner.post('/dashboard', { action: 'create_merchant', name: '  ', country: 'DE' });
    expect(blankName.status()).toBe(400);
    expect(await blankName.text()).toContain('Enter the name buyers will see');
    const unknownCountry = await owner.post('/dashboard', { action: 'create_merchant', name: 'Solo', country: 'XX' });
    expect(unknownCountry.status()).toBe(400);
    expect(await unknownCountry.text()).toContain('Choose the country your business is in.');
    expect(await owner.text('/dashboard')).toContain('You are not a member of any merchant yet.');
    const form = { action: 'create_merchant', name: 'Solo Two', country: 'FR', form_key: randomUUID() };
    const made = await owner.post('/dashboard', form);
    expect(made.status()).toBe(303);
    const merchantId = /\/dashboard\/merchants\/([0-9a-f-]{36})\?done=created$/.exec(made.headers().location ?? '')![1]!;
    // The same form again (a double click, a reload) opens no second merchant, and says so.
    const again = await owner.post('/dashboard', form);
    expect(again.headers().location).toMatch(/\/dashboard\?done=sent_before$/);
    expect((await owner.text('/dashboard')).match(/Solo Two/g)).toHaveLength(1);

    // The organization API's hosted onboarding URL is this page.
    const onboarding = `/dashboard/merchants/${merchantId}/onboarding`;
    expect(await owner.text(onboarding)).toContain('Submit onboarding');

    // A Member sees that an owner submits it, and their post is refused and changes nothing.
    const member = await signedInPerson(browser);
    const sessionOf = async (email: string) => (await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } })).json.token as string;
    await joinTeam(merchantId, await sessionOf(owner.email), { email: member.email, token: await sessionOf(member.email) });
    const seen = await member.text(onboarding);
    expect(seen).toContain('An owner of this merchant submits it');
    expect(seen).not.toContain('Submit onboarding');
    const answers = Object.fromEntries(onboardingAnswers().map(([id, value]) => [id, value === true ? 'on' : String(value)]));
    const refused = await member.post(onboarding, { action: 'submit', ...answers, business_country: 'DE', member_country: 'DE', business_type: 'llc' });
    expect(refused.status()).toBe(403);
    expect(await owner.text(onboarding)).toContain('Submit onboarding');
    await owner.close();
    await member.close();
  });
});

/** A new person signed up through the pages; form posts from this origin with the page's CSRF token. */
async function signedInPerson(browser: Browser) {
  const { page, context } = await openPage(browser);
  const email = await signUpThroughPages(page);
  await page.waitForURL(`${origin}/dashboard`);
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  return {
    email,
    text: async (path: string) => (await context.request.get(`${origin}${path}`)).text(),
    post: (path: string, form: Record<string, string>) =>
      context.request.post(`${origin}${path}`, { form: { csrf_token: csrf, ...form }, headers: { origin }, maxRedirects: 0 }),
    close: () => context.close(),
  };
}
