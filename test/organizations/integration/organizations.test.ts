import { describe, expect, it } from 'vitest';
import { getAccount, getAccountLink, listAccountLinksOfAccount } from '../../../shared/organizations/accounts.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { getOnboarding } from '../../../shared/organizations/onboarding.repository.ts';
import { config } from '../../../shared/platform/config.ts';
import { countryCodes, onboardingLimits } from '../../../shared/organizations/organizations.schemas.ts';
import { call, cardToken, NO_TAX_PLACE, orgCall, organizationAccount, unlinkedAccount } from '../../support/fixtures.ts';

const O = '/v1/public-api/organizations';
const A = '/v1/public-api/accounts';
const UNKNOWN_ORG = '00000000-0000-4000-8000-000000000000';

/**
 * A valid registration body; the sandbox webhook URL is a loopback receiver (the local stack allows those). Both
 * URLs are held to the delivery rules, and the tests resolve no names: the live one is a public address.
 */
const LIVE_HOOK = 'https://93.184.216.34/hooks';
const registration = (over: Record<string, unknown> = {}) => ({
  organizationName: 'Acme Org',
  website: 'https://acme.example',
  country: 'US',
  reportCurrency: 'USD',
  cfWorkspaceHash: 'ws_3f9a0c',
  webhookMeta: { url: `${LIVE_HOOK}/live`, eventTypes: ['transaction-processed'] },
  sandboxWebhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: ['transaction-processed', 'transaction-declined'] },
  ...over,
});

const register = (fullKey: string, body: unknown) => orgCall('POST', O, { fullKey, body });
const getOrg = (fullKey: string, organizationId: string) => orgCall('GET', `${O}/${organizationId}`, { fullKey });
const link = (fullKey: string, accountId: string, body: Record<string, unknown>) => orgCall('POST', `${O}/link?accountId=${accountId}`, { fullKey, body });
const setOwnFlag = (fullKey: string, organizationId: string, isOwner: boolean) =>
  orgCall('PUT', `${O}/${organizationId}/owner`, { fullKey, body: { isOwner } });
const setFlagOf = (fullKey: string, organizationId: string, accountId: string, isOwner: boolean) =>
  orgCall('PUT', `${O}/${organizationId}/accounts/${accountId}/owner`, { fullKey, body: { isOwner } });
const submit = (fullKey: string, organizationId: string, body: unknown) => orgCall('POST', `${O}/${organizationId}/onboarding`, { fullKey, body });

/** The 403 an organization that does not exist gets: every refusal of scope must answer these same bytes. */
const unknownOrg403 = async (fullKey: string) => {
  const res = await getOrg(fullKey, UNKNOWN_ORG);
  expect(res.status).toBe(403);
  return res.text;
};

/** An organization with its owner account, plus a second account linked to it (owner or not). */
async function organizationWithTwoAccounts(secondIsOwner: boolean) {
  const owner = await organizationAccount();
  const second = await unlinkedAccount();
  const res = await link(owner.fullKey, second.accountId, { organizationId: owner.organizationId, isOwner: secondIsOwner });
  expect(res.status).toBe(201);
  return { owner, second, organizationId: owner.organizationId };
}

const onboarding = (over: { business?: object; member?: object; account?: object } = {}) => ({
  business: {
    address: '1 Main Street',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    isStartup: false,
    taxId: '12-3456789',
    registrationNumber: 'REG-0042',
    name: 'Acme Holdings LLC',
    paymentReference: 'ACME',
    productAndServiceDescription: 'Project management software',
    type: 'llc',
    website: 'https://acme.example',
    country: 'US',
    phone: { countryCode: '+1', number: '2175550100' },
    category: 'software',
    doingBusinessAs: 'Acme',
    salesVolume: 25000.5,
    sellsItemsIllegalInDefaultGateway: false,
    ...over.business,
  },
  member: { firstName: 'Ada', lastName: 'Lovelace', country: 'GB', address: '12 St James Square', city: 'London', ...over.member },
  account: { reportCurrency: 'EUR', payoutCurrency: 'USD', ...over.account },
});

describe('registering an organization', () => {
  it('creates a root merchant on this deployment with the calling account linked as its owner', async () => {
    const caller = await unlinkedAccount();
    const res = await register(caller.fullKey, registration());
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    const org = res.json.data;
    expect(org).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      accountId: caller.accountId,
      isBillingConnected: false,
      canDownloadGatewayReports: false,
      isRegistered: true,
      registeredAt: org.createdAt,
      business: { name: 'Acme Org', dba: null, type: null, public: null, address: null, city: null, state: null, zip: null, phone: null },
      member: { firstName: null, lastName: null, dateOfBirth: null, phone: null, address: null, city: null, state: null, zip: null },
      account: {
        bankState: 'not-connected',
        method: null,
        reportCurrency: 'USD',
        minimalPayoutAmount: null,
        refundReserve: null,
        numberLastFour: null,
        payoutSchedule: null,
      },
      createdAt: org.createdAt,
      updatedAt: org.createdAt,
      deletedAt: null,
      isTaxProviderConnected: false,
      taxProviderKeyLastFour: null,
      defaultGatewayRegion: null,
      defaultGatewaySlug: 'default',
      websiteId: null,
      hostedOnboardingFormStatus: 'not-started',
    });

    // The same UUID is the merchant: a root merchant of this deployment, without a parent or a user owner.
    const merchant = (await getMerchant(org.id))!;
    expect(merchant).toMatchObject({
      id: org.id,
      name: 'Acme Org',
      parentId: null,
      mode: 'test',
      websiteUrl: 'https://acme.example',
      ownerUserId: null,
      country: 'US',
      reportCurrency: 'USD',
      cfWorkspaceHash: 'ws_3f9a0c',
      ownerAccountCount: 1,
      registeredByAccountId: caller.accountId,
    });
    // On the sandbox deployment the sandbox webhook settings are the organization's.
    expect(merchant.webhookMeta).toEqual({
      url: 'http://127.0.0.1:9999/hooks',
      eventTypes: ['transaction-processed', 'transaction-declined'],
      taxCategoryId: null,
      accountingCode: null,
      recognition: null,
      createdAt: org.createdAt,
      updatedAt: org.createdAt,
    });
    expect(await getAccountLink(org.id, caller.accountId)).toMatchObject({ isOwner: true });

    const read = await getOrg(caller.fullKey, org.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
  });

  it('keeps the accounting fields of the webhook settings and ignores the timestamps a caller sends', async () => {
    const caller = await unlinkedAccount();
    const res = await register(
      caller.fullKey,
      registration({
        sandboxWebhookMeta: {
          url: 'http://127.0.0.1:9999/hooks',
          eventTypes: [],
          taxCategoryId: 'tax-1',
          accountingCode: '4000',
          recognition: { debitAccountId: 'd-1', creditAccountId: 'c-1' },
          createdAt: '2001-01-01T00:00:00.000Z',
        },
      }),
    );
    expect(res.status).toBe(201);
    expect((await getMerchant(res.json.data.id))!.webhookMeta).toMatchObject({
      taxCategoryId: 'tax-1',
      accountingCode: '4000',
      recognition: { debitAccountId: 'd-1', creditAccountId: 'c-1' },
      createdAt: res.json.data.createdAt,
    });
  });

  it('takes every limit at its maximum and refuses one more with 400, creating nothing', async () => {
    const caller = await unlinkedAccount();
    const url = (length: number) => `http://127.0.0.1:9999/${'p'.repeat(length - 'http://127.0.0.1:9999/'.length)}`;
    const meta = (over: object) => ({ sandboxWebhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: [], ...over } });
    const cases: Array<[string, (n: number) => Record<string, unknown>, number, string]> = [
      ['organizationName', (n) => ({ organizationName: 'n'.repeat(n) }), 60, 'organizationName'],
      ['website', (n) => ({ website: `https://${'w'.repeat(n - 'https://.example'.length)}.example` }), 65, 'website'],
      ['cfWorkspaceHash', (n) => ({ cfWorkspaceHash: 'h'.repeat(n) }), 128, 'cfWorkspaceHash'],
      ['webhook url', (n) => meta({ url: url(n) }), 2048, 'sandboxWebhookMeta.url'],
      ['event types', (n) => meta({ eventTypes: Array.from({ length: n }, (_, i) => `event-${i}`) }), 50, 'sandboxWebhookMeta.eventTypes'],
      ['event type', (n) => meta({ eventTypes: [`e${'v'.repeat(n - 1)}`] }), 64, 'sandboxWebhookMeta.eventTypes.0'],
      ['taxCategoryId', (n) => meta({ taxCategoryId: 't'.repeat(n) }), 255, 'sandboxWebhookMeta.taxCategoryId'],
      ['accountingCode', (n) => meta({ accountingCode: 'a'.repeat(n) }), 255, 'sandboxWebhookMeta.accountingCode'],
    ];
    for (const [label, body, limit, field] of cases) {
      const over = await register(caller.fullKey, registration(body(limit + 1)));
      expect(over.status, label).toBe(400);
      expect(over.json.errorCode).toBe('request.validation_failed');
      expect(over.json.message.startsWith(`${field}:`), `${label}: ${over.json.message}`).toBe(true);
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(0);
    for (const [label, body, limit] of cases) {
      expect((await register(caller.fullKey, registration(body(limit)))).status, label).toBe(201);
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(cases.length);
  });

  it('takes ISO 3166-1 alpha-2 country codes only', async () => {
    expect(countryCodes).toHaveLength(249);
    const caller = await unlinkedAccount();
    for (const country of ['us', 'USA', 'ZZ', 'XK', 'UK', 'EU', 'AA', '', 42]) {
      const res = await register(caller.fullKey, registration({ country }));
      expect(res.status, String(country)).toBe(400);
      expect(res.json.message).toMatch(/^country:/);
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(0);
    for (const country of ['GB', 'DE', 'AQ', 'SS']) {
      expect((await register(caller.fullKey, registration({ country }))).status, country).toBe(201);
    }
  });

  it('refuses missing fields, unknown fields, unknown currencies, plain-http websites and repeated event types with 400', async () => {
    const caller = await unlinkedAccount();
    const required = Object.keys(registration());
    for (const field of required) {
      const body: Record<string, unknown> = registration();
      delete body[field];
      const res = await register(caller.fullKey, body);
      expect(res.status, field).toBe(400);
      expect(res.json.message.startsWith(`${field}:`), res.json.message).toBe(true);
    }
    const bad: Array<Record<string, unknown>> = [
      { parentId: UNKNOWN_ORG },
      { reportCurrency: 'usd' },
      { reportCurrency: 'ABC' },
      { website: 'http://acme.example' },
      { website: 'not a url' },
      { organizationName: '   ' },
      { cfWorkspaceHash: 'has space' },
      { webhookMeta: { url: 'https://hooks.example', eventTypes: ['a', 'a'] } },
      { webhookMeta: { url: 'https://hooks.example', eventTypes: ['Not Kebab'] } },
      { webhookMeta: { url: 'https://hooks.example' } },
      { sandboxWebhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: [], secret: 'x' } },
    ];
    for (const over of bad) {
      const res = await register(caller.fullKey, registration(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(0);
  });

  it('refuses a sandbox webhook URL that is not deliverable with 422, creating nothing', async () => {
    const caller = await unlinkedAccount();
    for (const url of ['https://10.0.0.1/hooks', 'https://169.254.169.254/latest', 'http://127.0.0.1/no-port']) {
      const res = await register(caller.fullKey, registration({ sandboxWebhookMeta: { url, eventTypes: [] } }));
      expect(res.status, url).toBe(422);
      expect(res.json.errorCode).toBe('webhook.url_forbidden');
      expect(res.json.details).toContain('sandboxWebhookMeta.url');
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(0);
  });

  it('holds the live webhook URL, which the sandbox does not keep, to the same rules: 422 naming webhookMeta.url, creating nothing', async () => {
    const caller = await unlinkedAccount();
    for (const url of ['https://10.0.0.1/hooks', 'https://169.254.169.254/latest', 'http://127.0.0.1/no-port', 'https://hooks.unresolvable.invalid/x']) {
      const res = await register(caller.fullKey, registration({ webhookMeta: { url, eventTypes: [] } }));
      expect(res.status, url).toBe(422);
      expect(res.json.errorCode).toBe('webhook.url_forbidden');
      expect(res.json.details).toContain('webhookMeta.url');
      expect(res.json.details).not.toContain('sandboxWebhookMeta');
    }
    expect(await listAccountLinksOfAccount(caller.accountId)).toHaveLength(0);
  });
});

describe('authentication and scope on organization routes', () => {
  it('answers 401 to every missing, malformed, wrong, revoked or rotated-away key', async () => {
    const org = await organizationAccount();
    const other = await organizationAccount();
    const [accountId, secret, keyId] = org.fullKey.split('_') as [string, string, string];
    const second = await call('POST', `${A}/${accountId}/api-keys`, { body: { secret: org.secret } });
    const revoked = await call('POST', `${A}/${accountId}/api-keys`, { body: { secret: org.secret } });
    expect((await orgCall('DELETE', `${A}/${accountId}/api-keys/${revoked.json.data.id}`, { fullKey: org.fullKey })).status).toBe(200);
    const rotatedAway = await call('POST', `${A}/${accountId}/api-keys`, { body: { secret: org.secret } });
    expect((await call('POST', `${A}/${accountId}/api-keys/${rotatedAway.json.data.id}/rotate`, { body: { secret: org.secret } })).status).toBe(200);

    const path = `${O}/${org.organizationId}`;
    const cases: Array<[string, Record<string, string>, string]> = [
      ['missing', {}, 'auth.missing_api_key'],
      ['wrong scheme', { authorization: `Bearer ${org.fullKey}` }, 'auth.missing_api_key'],
      ['no key after the scheme', { authorization: 'ApiKey ' }, 'auth.missing_api_key'],
      ['two parts', { authorization: `ApiKey ${accountId}_${secret}` }, 'auth.invalid_api_key'],
      ['non-hex secret', { authorization: `ApiKey ${accountId}_${'g'.repeat(64)}_${keyId}` }, 'auth.invalid_api_key'],
      ['right account, wrong secret', { authorization: `ApiKey ${accountId}_${'0'.repeat(64)}_${keyId}` }, 'auth.invalid_api_key'],
      ['right secret, another key id of the account', { authorization: `ApiKey ${accountId}_${secret}_${second.json.data.id}` }, 'auth.invalid_api_key'],
      ['another account id', { authorization: `ApiKey ${other.accountId}_${secret}_${keyId}` }, 'auth.invalid_api_key'],
      ['revoked', { authorization: `ApiKey ${revoked.json.data.apiKey}` }, 'auth.invalid_api_key'],
      ['rotated away', { authorization: `ApiKey ${rotatedAway.json.data.apiKey}` }, 'auth.invalid_api_key'],
    ];
    for (const [label, headers, errorCode] of cases) {
      const res = await call('GET', path, { headers });
      expect(res.status, label).toBe(401);
      expect(res.json, label).toMatchObject({ errorCode, statusCode: 401 });
      expect(res.headers.get('www-authenticate'), label).toBe('ApiKey');
    }
    expect((await getOrg(org.fullKey, org.organizationId)).status).toBe(200);
  });

  it('answers the same 403 bytes for another organization, an unknown one and an id that cannot exist, on every route', async () => {
    const org = await organizationAccount();
    const other = await organizationAccount();
    const expected = await unknownOrg403(org.fullKey);
    expect(JSON.parse(expected)).toMatchObject({ errorCode: 'forbidden', statusCode: 403 });
    for (const target of [other.organizationId, UNKNOWN_ORG, 'not-a-uuid']) {
      expect((await getOrg(org.fullKey, target)).text, target).toBe(expected);
      expect((await setOwnFlag(org.fullKey, target, false)).text, target).toBe(expected);
      expect((await setFlagOf(org.fullKey, target, other.accountId, false)).text, target).toBe(expected);
      expect((await submit(org.fullKey, target, onboarding())).text, target).toBe(expected);
    }
    expect(await getOnboarding(other.organizationId)).toBeNull();
    expect(await getAccountLink(other.organizationId, other.accountId)).toMatchObject({ isOwner: true });
  });
});

describe('reading an organization', () => {
  it('reads an organization the operator made: not registered through this API, so no accountId', async () => {
    const org = await organizationAccount('Operator made');
    const res = await getOrg(org.fullKey, org.organizationId);
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({
      id: org.organizationId,
      accountId: null,
      isRegistered: false,
      registeredAt: null,
      hostedOnboardingFormStatus: 'not-started',
      business: { name: 'Operator made' },
      account: { reportCurrency: null, bankState: 'not-connected' },
    });
  });

  it('lets a non-owner linked account read the organization', async () => {
    const { second, organizationId } = await organizationWithTwoAccounts(false);
    const res = await getOrg(second.fullKey, organizationId);
    expect(res.status).toBe(200);
    expect(res.json.data.id).toBe(organizationId);
  });
});

describe('linking accounts', () => {
  it('links another account as a non-owner by default; it reads the organization but cannot link others', async () => {
    const owner = await organizationAccount();
    const second = await unlinkedAccount();
    const third = await unlinkedAccount();
    expect((await getOrg(second.fullKey, owner.organizationId)).status).toBe(403);

    const res = await link(owner.fullKey, second.accountId, { organizationId: owner.organizationId });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ type: 'object', data: { organizationId: owner.organizationId } });
    expect(await getAccountLink(owner.organizationId, second.accountId)).toMatchObject({ isOwner: false });
    expect((await getOrg(second.fullKey, owner.organizationId)).status).toBe(200);

    const refused = await link(second.fullKey, third.accountId, { organizationId: owner.organizationId, isOwner: null });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe(await unknownOrg403(second.fullKey));
    expect(await getAccountLink(owner.organizationId, third.accountId)).toBeNull();
  });

  it('refuses a caller that is not linked to the organization with the same 403 as an unknown organization', async () => {
    const owner = await organizationAccount();
    const stranger = await organizationAccount();
    const target = await unlinkedAccount();
    const expected = await unknownOrg403(stranger.fullKey);
    const foreign = await link(stranger.fullKey, target.accountId, { organizationId: owner.organizationId });
    const unknown = await link(stranger.fullKey, target.accountId, { organizationId: UNKNOWN_ORG });
    expect(foreign.text).toBe(expected);
    expect(unknown.text).toBe(expected);
    expect(await listAccountLinksOfAccount(target.accountId)).toHaveLength(0);
  });

  it("links only an account that is the caller's own: another company's account is not found, and its requests act as before", async () => {
    const victim = await organizationAccount();
    const attacker = await organizationAccount();
    const refused = await link(attacker.fullKey, victim.accountId, { organizationId: attacker.organizationId });
    expect(refused.status).toBe(404);
    expect(refused.json.errorCode).toBe('account.not_found');
    expect((await listAccountLinksOfAccount(victim.accountId)).map((l) => l.organizationId)).toEqual([victim.organizationId]);
    // Its charges without organizationId still act for its one organization.
    const charged = await orgCall('POST', '/transactions', {
      fullKey: victim.fullKey,
      body: { idempotencyKey: `link-${victim.accountId}`, amount: 1, currency: 'USD', token: await cardToken(victim), billingAddress: NO_TAX_PLACE },
    });
    expect(charged.status, charged.text).toBe(201);
    // An account of the caller's own, linked only to organizations it owns, it may link to another of them.
    const own = await unlinkedAccount();
    expect((await link(attacker.fullKey, own.accountId, { organizationId: attacker.organizationId })).status).toBe(201);
    const second = await register(attacker.fullKey, registration());
    expect(second.status, second.text).toBe(201);
    expect((await link(attacker.fullKey, own.accountId, { organizationId: second.json.data.id })).status).toBe(201);
    // ...and not once it is linked to an organization the caller does not own.
    expect((await link(victim.fullKey, own.accountId, { organizationId: victim.organizationId })).json.errorCode).toBe('account.not_found');
  });

  it('decides who may link an account on what it is linked to at that moment: of two companies linking one account at once, one does', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b, target] = await Promise.all([organizationAccount(), organizationAccount(), unlinkedAccount()]);
      const answers = await Promise.all([
        link(a.fullKey, target.accountId, { organizationId: a.organizationId }),
        link(b.fullKey, target.accountId, { organizationId: b.organizationId }),
      ]);
      expect(
        answers.filter((r) => r.status === 201),
        JSON.stringify(answers.map((r) => r.json)),
      ).toHaveLength(1);
      const refused = answers.find((r) => r.status !== 201)!;
      expect(['account.not_found', 'organization.link_busy']).toContain(refused.json.errorCode);
      // Linked to one company's organization only, as its own list says.
      expect(await listAccountLinksOfAccount(target.accountId)).toHaveLength(1);
      expect((await getAccount(target.accountId))!.organizationIds).toHaveLength(1);
    }
  });

  it('answers 409 to linking an account that is linked already, and of two links at once exactly one succeeds', async () => {
    const { owner, second, organizationId } = await organizationWithTwoAccounts(false);
    const again = await link(owner.fullKey, second.accountId, { organizationId, isOwner: true });
    expect(again.status).toBe(409);
    expect(again.json.errorCode).toBe('organization.account_already_linked');
    expect(await getAccountLink(organizationId, second.accountId)).toMatchObject({ isOwner: false });
    // the refused owner link did not count an owner: the first owner still cannot leave
    expect((await setOwnFlag(owner.fullKey, organizationId, false)).status).toBe(409);

    const third = await unlinkedAccount();
    const both = await Promise.all([
      link(owner.fullKey, third.accountId, { organizationId, isOwner: true }),
      link(owner.fullKey, third.accountId, { organizationId, isOwner: true }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    // one owner link counted: with the third account an owner, the first may drop its flag, and then the third may not
    expect((await setOwnFlag(owner.fullKey, organizationId, false)).status).toBe(200);
    const last = await setOwnFlag(third.fullKey, organizationId, false);
    expect(last.status).toBe(409);
    expect(last.json.errorCode).toBe('organization.last_owner');
  });

  it('answers 404 for an account that does not exist, and 400 for a malformed query or body', async () => {
    const owner = await organizationAccount();
    const missing = await link(owner.fullKey, '11111111-1111-4111-8111-111111111111', { organizationId: owner.organizationId });
    expect(missing.status).toBe(404);
    expect(missing.json.errorCode).toBe('account.not_found');

    const target = await unlinkedAccount();
    const badQuery = await link(owner.fullKey, 'not-a-uuid', { organizationId: owner.organizationId });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.errorCode).toBe('request.invalid_query');
    const noQuery = await orgCall('POST', `${O}/link`, { fullKey: owner.fullKey, body: { organizationId: owner.organizationId } });
    expect(noQuery.status).toBe(400);
    for (const body of [
      {},
      { organizationId: 'nope' },
      { organizationId: owner.organizationId, isOwner: 'yes' },
      { organizationId: owner.organizationId, extra: 1 },
    ]) {
      const res = await link(owner.fullKey, target.accountId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect(await listAccountLinksOfAccount(target.accountId)).toHaveLength(0);
  });

  it("replaces the organization's workspace hash and sandbox webhook settings when the link carries them", async () => {
    const caller = await unlinkedAccount();
    const registered = await register(caller.fullKey, registration());
    const organizationId = registered.json.data.id;
    const target = await unlinkedAccount();
    const res = await link(caller.fullKey, target.accountId, {
      organizationId,
      cfWorkspaceHash: 'ws_new',
      isOwner: false,
      webhookMeta: { url: `${LIVE_HOOK}/other`, eventTypes: [] },
      sandboxWebhookMeta: { url: 'http://127.0.0.1:10000/new', eventTypes: ['transaction-declined'] },
    });
    expect(res.status).toBe(201);
    const merchant = (await getMerchant(organizationId))!;
    expect(merchant.cfWorkspaceHash).toBe('ws_new');
    expect(merchant.webhookMeta).toMatchObject({
      url: 'http://127.0.0.1:10000/new',
      eventTypes: ['transaction-declined'],
      createdAt: registered.json.data.createdAt,
    });
    expect(merchant.webhookMeta!.updatedAt > registered.json.data.createdAt).toBe(true);

    const blocked = await unlinkedAccount();
    const refused = await link(caller.fullKey, blocked.accountId, { organizationId, sandboxWebhookMeta: { url: 'https://192.168.1.10/x', eventTypes: [] } });
    expect(refused.status).toBe(422);
    expect(refused.json.errorCode).toBe('webhook.url_forbidden');
    expect(await getAccountLink(organizationId, blocked.accountId)).toBeNull();
    const refusedLive = await link(caller.fullKey, blocked.accountId, { organizationId, webhookMeta: { url: 'https://192.168.1.10/x', eventTypes: [] } });
    expect(refusedLive.status).toBe(422);
    expect(refusedLive.json).toMatchObject({ errorCode: 'webhook.url_forbidden', details: expect.stringContaining('webhookMeta.url') });
    expect(await getAccountLink(organizationId, blocked.accountId)).toBeNull();
  });
});

describe('owner flags', () => {
  it("refuses to drop the last owner's flag with 409 and keeps it", async () => {
    const owner = await organizationAccount();
    const res = await setOwnFlag(owner.fullKey, owner.organizationId, false);
    expect(res.status).toBe(409);
    expect(res.json.errorCode).toBe('organization.last_owner');
    expect(await getAccountLink(owner.organizationId, owner.accountId)).toMatchObject({ isOwner: true });
  });

  it('lets one of two owners drop its flag; of two owners dropping at once exactly one wins', async () => {
    const { owner, second, organizationId } = await organizationWithTwoAccounts(true);
    const answers = await Promise.all([setOwnFlag(owner.fullKey, organizationId, false), setOwnFlag(second.fullKey, organizationId, false)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)!;
    expect(winner.json).toEqual({ type: 'object', data: { organizationId } });
    expect(answers.find((r) => r.status === 409)!.json.errorCode).toBe('organization.last_owner');
    const flags = await Promise.all([getAccountLink(organizationId, owner.accountId), getAccountLink(organizationId, second.accountId)]);
    expect(flags.filter((l) => l!.isOwner)).toHaveLength(1);
  });

  it("lets an owner make another linked account an owner, which may then drop the first one's flag", async () => {
    const { owner, second, organizationId } = await organizationWithTwoAccounts(false);
    const res = await setFlagOf(owner.fullKey, organizationId, second.accountId, true);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 'object', data: { organizationId } });
    expect(await getAccountLink(organizationId, second.accountId)).toMatchObject({ isOwner: true });

    expect((await setFlagOf(second.fullKey, organizationId, owner.accountId, false)).status).toBe(200);
    expect(await getAccountLink(organizationId, owner.accountId)).toMatchObject({ isOwner: false });
    const last = await setFlagOf(owner.fullKey, organizationId, second.accountId, false);
    expect(last.status).toBe(403);
    expect((await setOwnFlag(second.fullKey, organizationId, false)).json.errorCode).toBe('organization.last_owner');
  });

  it('refuses a non-owner making itself or another account an owner, or dropping an owner, with 403', async () => {
    const { owner, second, organizationId } = await organizationWithTwoAccounts(false);
    for (const res of [
      await setOwnFlag(second.fullKey, organizationId, true),
      await setFlagOf(second.fullKey, organizationId, second.accountId, true),
      await setFlagOf(second.fullKey, organizationId, owner.accountId, false),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.errorCode).toBe('forbidden');
    }
    expect(await getAccountLink(organizationId, second.accountId)).toMatchObject({ isOwner: false });
    expect(await getAccountLink(organizationId, owner.accountId)).toMatchObject({ isOwner: true });
    // dropping a flag it does not have changes nothing
    expect((await setOwnFlag(second.fullKey, organizationId, false)).status).toBe(200);
  });

  it('changes nothing when the account already has the flag, and answers 404 for an account that is not linked', async () => {
    const owner = await organizationAccount();
    const before = (await getAccountLink(owner.organizationId, owner.accountId))!;
    expect((await setOwnFlag(owner.fullKey, owner.organizationId, true)).status).toBe(200);
    expect(await getAccountLink(owner.organizationId, owner.accountId)).toEqual(before);

    const stranger = await unlinkedAccount();
    for (const accountId of [stranger.accountId, 'not-an-id']) {
      const res = await setFlagOf(owner.fullKey, owner.organizationId, accountId, true);
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('organization.account_not_linked');
    }
    expect(await getAccountLink(owner.organizationId, stranger.accountId)).toBeNull();
    const bad = await orgCall('PUT', `${O}/${owner.organizationId}/owner`, { fullKey: owner.fullKey, body: { isOwner: 'false' } });
    expect(bad.status).toBe(400);
  });
});

describe('onboarding', () => {
  it('submits onboarding: fills the organization from it, moves the form to submitted and completes the activation step', async () => {
    const org = await organizationAccount();
    const res = await submit(org.fullKey, org.organizationId, onboarding({ member: { dateOfBirth: '1990-12-10', state: 'Greater London', zip: 'SW1Y 4LE' } }));
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ type: 'object', data: { hostedUrl: `${config.dashboardUrl}/dashboard/merchants/${org.organizationId}/onboarding` } });

    const read = await getOrg(org.fullKey, org.organizationId);
    expect(read.json.data).toMatchObject({
      hostedOnboardingFormStatus: 'submitted',
      business: {
        name: 'Acme Holdings LLC',
        dba: 'Acme',
        type: 'llc',
        public: null,
        address: '1 Main Street',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        phone: { countryCode: '+1', number: '2175550100' },
      },
      member: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1990-12-10',
        phone: null,
        address: '12 St James Square',
        city: 'London',
        state: 'Greater London',
        zip: 'SW1Y 4LE',
      },
      account: { reportCurrency: 'EUR' },
    });

    const stored = (await getOnboarding(org.organizationId))!;
    expect(stored).toMatchObject({
      submittedByAccountId: org.accountId,
      business: { taxId: '12-3456789', salesVolume: 2_500_050, isStartup: false, sellsItemsIllegalInDefaultGateway: false, country: 'US' },
      account: { reportCurrency: 'EUR', payoutCurrency: 'USD' },
    });

    const merchant = await call('GET', `/v1/public-api/merchants/${org.organizationId}`, { key: org.merchantApiKey });
    expect(merchant.json.activation.steps.find((s: { key: string }) => s.key === 'onboarding_submitted')).toMatchObject({ done: true });
  });

  it('refuses a second submission with 409 onboarding.already_submitted and keeps the first', async () => {
    const org = await organizationAccount();
    expect((await submit(org.fullKey, org.organizationId, onboarding())).status).toBe(201);
    const again = await submit(org.fullKey, org.organizationId, onboarding({ business: { taxId: '99-0000000' } }));
    expect(again.status).toBe(409);
    expect(again.json.errorCode).toBe('onboarding.already_submitted');
    expect((await getOnboarding(org.organizationId))!.business.taxId).toBe('12-3456789');
  });

  it('stores exactly one of two submissions sent at once', async () => {
    const org = await organizationAccount();
    const answers = await Promise.all([
      submit(org.fullKey, org.organizationId, onboarding({ business: { taxId: 'first' } })),
      submit(org.fullKey, org.organizationId, onboarding({ business: { taxId: 'second' } })),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = answers[0]!.status === 201 ? 'first' : 'second';
    expect((await getOnboarding(org.organizationId))!.business.taxId).toBe(winner);
    expect((await getMerchant(org.organizationId))!.hostedOnboardingFormStatus).toBe('submitted');
  });

  it('takes every text at its limit and refuses one character more with 400, storing nothing until valid', async () => {
    const org = await organizationAccount();
    const at = (n: number) => 'x'.repeat(n);
    const full = (extra: { business?: Record<string, string>; member?: Record<string, string> } = {}) => {
      const business = Object.fromEntries(Object.entries(onboardingLimits.business).map(([k, n]) => [k, at(n)]));
      const member = Object.fromEntries(Object.entries(onboardingLimits.member).map(([k, n]) => [k, at(n)]));
      return onboarding({ business: { ...business, ...extra.business }, member: { ...member, ...extra.member } });
    };
    for (const [group, limits] of Object.entries(onboardingLimits)) {
      for (const [field, n] of Object.entries(limits)) {
        const res = await submit(org.fullKey, org.organizationId, full({ [group]: { [field]: at(n + 1) } }));
        expect(res.status, `${group}.${field}`).toBe(400);
        expect(res.json.message.startsWith(`${group}.${field}:`), res.json.message).toBe(true);
      }
    }
    expect(await getOnboarding(org.organizationId)).toBeNull();
    expect((await submit(org.fullKey, org.organizationId, full())).status).toBe(201);
  });

  it('refuses bad values with 400: missing objects, countries, currencies, phones, dates and sales volumes', async () => {
    const org = await organizationAccount();
    const body = onboarding();
    const bad: unknown[] = [
      { business: body.business, member: body.member },
      { ...body, extra: true },
      onboarding({ business: { country: 'XX' } }),
      onboarding({ member: { country: 'gb' } }),
      onboarding({ account: { payoutCurrency: 'EURO' } }),
      onboarding({ business: { phone: { countryCode: '+1', number: '555-0100' } } }),
      onboarding({ business: { phone: { countryCode: '0', number: '2175550100' } } }),
      onboarding({ business: { isStartup: 'no' } }),
      onboarding({ business: { website: 'ftp://acme.example' } }),
      onboarding({ business: { salesVolume: -1 } }),
      onboarding({ business: { salesVolume: 10.5 }, account: { reportCurrency: 'JPY' } }),
      onboarding({ business: { salesVolume: 10.555 } }),
      onboarding({ member: { dateOfBirth: '1990-02-30' } }),
      onboarding({ member: { dateOfBirth: '2999-01-01' } }),
      onboarding({ member: { firstName: '' } }),
    ];
    for (const b of bad) {
      const res = await submit(org.fullKey, org.organizationId, b);
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect(await getOnboarding(org.organizationId)).toBeNull();
    expect((await getMerchant(org.organizationId))!.hostedOnboardingFormStatus).toBe('not-started');
    // a JPY volume in whole yen is fine
    expect(
      (await submit(org.fullKey, org.organizationId, onboarding({ business: { salesVolume: 1_000_000 }, account: { reportCurrency: 'JPY' } }))).status,
    ).toBe(201);
    expect((await getOnboarding(org.organizationId))!.business.salesVolume).toBe(1_000_000);
  });

  it('refuses a linked account that is not an owner with 403 and stores nothing', async () => {
    const { second, organizationId } = await organizationWithTwoAccounts(false);
    const res = await submit(second.fullKey, organizationId, onboarding());
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe('forbidden');
    expect(await getOnboarding(organizationId)).toBeNull();
  });
});
