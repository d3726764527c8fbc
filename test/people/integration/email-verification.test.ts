/**
 * A sign-in address is the person's once they open the link mailed to it, over HTTP: sign-up mails the link; until it
 * is opened no team adds the person by the address, no partner makes them a sub-merchant's owner by it and no operator
 * makes them a partner's owner (each refused, nothing written); the link's page spends nothing and its form confirms
 * once, with the account's password only; a new link from the switcher replaces the old one, and asking is throttled; a password reset or an accepted
 * invitation proves the address too.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createOwnMerchant, createRootMerchant, inviteToTeam, signIn } from '../../../shared/people/index.ts';
import { counterOf, signInLimits } from '../../../shared/people/throttle.service.ts';
import { listMcpTokens } from '../../../shared/agents/mcp-tokens.repository.ts';
import { listAccountDestinations } from '../../../shared/webhooks/org-webhooks.repository.ts';
import { listDestinations } from '../../../shared/webhooks/webhooks.repository.ts';
import { emailVerificationLimit } from '../../../shared/people/email-verifications.service.ts';
import { invitationLimit } from '../../../shared/people/throttle.service.ts';
import { getUser } from '../../../shared/people/users.repository.ts';
import { deleteMembership, putNewMembership } from '../../../shared/people/memberships.repository.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { db, queryAll, tableName } from '../../../shared/platform/db/client.ts';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { McpTokenEntity } from '../../../shared/agents/mcp-token.entity.ts';
import { TokenFamilyEntity } from '../../../shared/oauth/family.entity.ts';
import { parseToken } from '../../../shared/oauth/oauth.rules.ts';
import { authorize, exchange, pkce, publicClient } from '../../oauth/support.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { inOneWindow } from '../../support/dates.ts';
import { http } from '../../support/http.ts';
import { keptMailsTo } from '../../support/mails.ts';
import {
  adminCli,
  call,
  deviceCookieIn,
  joinTeam,
  orgCall,
  PASSWORD,
  person,
  rootMerchant,
  signedInAs,
  uniqueEmail,
  verificationLinkOf,
} from '../../support/fixtures.ts';

const origin = new URL(inject('baseUrl')).origin;
const form = 'application/x-www-form-urlencoded';
const SUBJECT = 'Confirm your e-mail address';

const openLink = (path: string) => http('GET', path, { baseUrl: origin });
const confirm = (path: string, password = PASSWORD) =>
  http('POST', path, { baseUrl: origin, headers: { origin, 'content-type': form }, body: new URLSearchParams({ action: 'confirm', password }).toString() });

/** A signed-up person who has not confirmed their address, signed in over HTTP (the switcher and its forms). */
async function unconfirmed() {
  const who = await person(uniqueEmail('unverified'), { confirmed: false });
  const cookie = `${SESSION_COOKIE}=${who.token}`;
  return {
    ...who,
    me: async () => (await call('GET', '/v1/dashboard/me', { key: who.token })).json.user as { emailVerified: boolean },
    switcher: () => http('GET', '/dashboard', { baseUrl: origin, headers: { cookie } }),
    askAgain: () =>
      http('POST', '/dashboard', {
        baseUrl: origin,
        headers: { cookie, origin, 'content-type': form },
        body: new URLSearchParams({ csrf_token: csrfTokenOf(who.token), action: 'send_verification' }).toString(),
      }),
  };
}

/** Asks for a reset link for `email` and sets a new password with it: the answer of the link's form. */
async function resetPassword(email: string) {
  const asked = await http('POST', '/dashboard/password-reset', {
    baseUrl: origin,
    headers: { origin, 'content-type': form },
    body: new URLSearchParams({ email }).toString(),
  });
  expect(asked.status).toBe(200);
  const [mail] = await keptMailsTo(email, 'Choose a new password');
  const resetLink = /https?:\/\/\S+(\/dashboard\/password-reset\/\S+)/.exec(mail!.text)![1]!;
  return http('POST', resetLink, {
    baseUrl: origin,
    headers: { origin, 'content-type': form },
    body: new URLSearchParams({ password: 'a brand new passphrase' }).toString(),
  });
}

/** A partner whose owner is signed in (an owner's address is verified: the operator opened it). */
async function partnerTeam() {
  const partner = await rootMerchant();
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email: partner.ownerEmail, password: PASSWORD } });
  return { ...partner, ownerToken: session.json.token as string };
}

const teamEmails = async (merchantId: string, token: string) =>
  ((await call('GET', `/v1/dashboard/merchants/${merchantId}/members?limit=100`, { key: token })).json.data as Array<{ email: string }>).map((m) => m.email);

describe("a person's sign-in address", () => {
  it('is mailed a link at sign-up and gives no access until the link is opened; its page spends nothing, its form confirms once', async () => {
    const who = await unconfirmed();
    const partner = await partnerTeam();
    expect(await who.me()).toMatchObject({ emailVerified: false });
    const switcher = await who.switcher();
    expect(switcher.text).toContain('Confirm your e-mail address');
    expect(switcher.text).toContain('Send a new link');

    // Refused where the address is found to give access: nothing is written.
    const added = await call('POST', `/v1/dashboard/merchants/${partner.merchantId}/members`, { key: partner.ownerToken, body: { email: who.email } });
    expect(added.status, added.text).toBe(422);
    expect(added.json.code).toBe('member.invite_required');
    expect(await teamEmails(partner.merchantId, partner.ownerToken)).not.toContain(who.email);
    // Not on the partner's team: the answer is an unknown address's. On it (a member from before addresses were
    // confirmed), the answer says to confirm.
    const owned = await call('POST', '/v1/public-api/merchants', { key: partner.apiKey, body: { name: 'Shop for someone', ownerEmail: who.email } });
    expect(owned.status, owned.text).toBe(422);
    expect(owned.json.code).toBe('merchant.owner_not_found');
    await transactWrite([
      ['member', [putNewMembership({ merchantId: partner.merchantId, userId: who.userId, role: 'member', createdAt: new Date().toISOString() })]],
    ]);
    const ownedOnTeam = await call('POST', '/v1/public-api/merchants', { key: partner.apiKey, body: { name: 'Shop for someone', ownerEmail: who.email } });
    expect(ownedOnTeam.status, ownedOnTeam.text).toBe(422);
    expect(ownedOnTeam.json.code).toBe('merchant.owner_unverified');
    await transactWrite([['member', [deleteMembership({ merchantId: partner.merchantId, userId: who.userId, role: 'member', createdAt: '' })]]]);
    await expect(
      createRootMerchant({ name: 'Partner of someone', ownerEmail: who.email, ownerPassword: 'another long password', mode: 'test' }),
    ).rejects.toThrow(/not confirmed the address/);
    expect((await call('GET', '/v1/dashboard/me', { key: who.token })).json.memberships).toEqual([]);

    const link = await verificationLinkOf(who.email);
    // Opening the link (a mail scanner would) spends nothing.
    for (let i = 0; i < 2; i++) {
      const opened = await openLink(link);
      expect(opened.status).toBe(200);
      expect(opened.text).toContain(who.email);
      expect(opened.headers.get('cache-control')).toBe('no-store');
    }
    expect(await who.me()).toMatchObject({ emailVerified: false });

    // The button alone, or with another password, confirms nothing: the owner of an address someone else signed up
    // with cannot confirm that account for them, and is shown how to take it over instead.
    for (const password of ['', 'not the password of it']) {
      const refused = await confirm(link, password);
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('That is not the password of this account.');
      expect(refused.text).toContain('href="/dashboard/password-reset"');
    }
    expect(await who.me()).toMatchObject({ emailVerified: false });

    // Two posts of the form at once: one confirms, the other is the link's 404.
    const answers = await Promise.all([confirm(link), confirm(link)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404]);
    expect(answers.find((a) => a.status === 303)!.headers.get('location')).toBe(`${origin}/dashboard?done=email_verified`);
    expect(answers.find((a) => a.status === 404)!.text).toContain('This link cannot be used');
    expect(await who.me()).toMatchObject({ emailVerified: true });
    expect((await who.switcher()).text).not.toContain('Send a new link');
    expect((await openLink(link)).status).toBe(404);

    // Asking for another link once confirmed mails nothing.
    const again = await who.askAgain();
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`${origin}/dashboard?done=verified_already`);
    expect(await keptMailsTo(who.email, SUBJECT)).toHaveLength(1);
  });

  it('takes a new link from the switcher, which replaces the old one; asking is throttled per person', async () => {
    await inOneWindow(emailVerificationLimit.windowSeconds);
    const who = await unconfirmed();
    const first = await verificationLinkOf(who.email);
    const sent = await who.askAgain();
    expect(sent.status, sent.text).toBe(303);
    expect(sent.headers.get('location')).toBe(`${origin}/dashboard?done=verification_sent`);
    const second = await verificationLinkOf(who.email, 2);
    expect(second).not.toBe(first);
    expect((await openLink(first)).status).toBe(404);
    expect((await confirm(first)).status).toBe(404);
    expect(await who.me()).toMatchObject({ emailVerified: false });

    for (let i = 1; i < emailVerificationLimit.limit; i++) expect((await who.askAgain()).status).toBe(303);
    const throttled = await who.askAgain();
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.text).toContain('Confirm your e-mail address');
    expect(await keptMailsTo(who.email, SUBJECT)).toHaveLength(emailVerificationLimit.limit + 1);

    const latest = await verificationLinkOf(who.email, emailVerificationLimit.limit + 1);
    expect((await confirm(latest)).status).toBe(303);
    expect(await who.me()).toMatchObject({ emailVerified: true });
  });

  it("is confirmed from the person's own browser though anyone's wrong passwords locked the address", async () => {
    const who = await person(uniqueEmail('locked'), { confirmed: false });
    // The person signed in from a browser: it has the device cookie.
    const signedIn = await call('POST', '/v1/dashboard/sessions', { body: { email: who.email, password: PASSWORD } });
    const browser = deviceCookieIn(signedIn.headers.getSetCookie());
    // Someone else, from elsewhere, sends wrong passwords for the address until it is locked.
    const attacker = `2001:db8:${randomUUID().slice(0, 4)}::9`;
    const started = new Date();
    for (let i = 0; i < signInLimits.email.limit; i++) {
      await expect(signIn({ email: who.email, password: `wrong ${i}` }, { sourceIp: attacker, cookies: [] })).rejects.toMatchObject({ status: 401 });
    }
    const link = await verificationLinkOf(who.email);
    const post = (cookie?: string) =>
      http('POST', link, {
        baseUrl: origin,
        headers: { origin, 'content-type': form, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams({ action: 'confirm', password: PASSWORD }).toString(),
      });
    const elsewhere = await post();
    const fromBrowser = await post(browser);
    if (counterOf(signInLimits.email, '', started).windowStart !== counterOf(signInLimits.email, '', new Date()).windowStart) return; // straddled a window
    expect(elsewhere.status).toBe(429);
    expect(fromBrowser.status, fromBrowser.text).toBe(303);
    expect((await call('GET', '/v1/dashboard/me', { key: who.token })).json.user.emailVerified).toBe(true);
  });

  it("lets its person sign in from the browser that reset the password, though anyone's wrong passwords locked the address", async () => {
    const who = await person(uniqueEmail('locked-out'));
    // Someone else, from elsewhere, sends wrong passwords for the address until it is locked.
    const attacker = `2001:db8:${randomUUID().slice(0, 4)}::7`;
    const started = new Date();
    for (let i = 0; i < signInLimits.email.limit; i++) {
      await expect(signIn({ email: who.email, password: `wrong ${i}` }, { sourceIp: attacker, cookies: [] })).rejects.toMatchObject({ status: 401 });
    }
    // The person, in a browser never signed in with the address, resets the password with the link mailed to it.
    const reset = await resetPassword(who.email);
    expect(reset.status).toBe(303);
    const browser = deviceCookieIn(reset.headers.getSetCookie());
    const signInFrom = (cookies: string[]) =>
      signIn({ email: who.email, password: 'a brand new passphrase' }, { sourceIp: '198.51.100.23', cookies }).then(
        () => 'in',
        (e) => e.status,
      );
    const [fromThatBrowser, fromAnother] = [await signInFrom([browser]), await signInFrom([])];
    if (counterOf(signInLimits.email, '', started).windowStart !== counterOf(signInLimits.email, '', new Date()).windowStart) return; // straddled a window
    expect(fromAnother).toBe(429);
    expect(fromThatBrowser).toBe('in');
  });

  it('is proved by a password reset, and by an accepted team invitation', async () => {
    const reset = await unconfirmed();
    // Whoever made the account opened a merchant and gave an agent a token: the reset takes the account over, so the
    // token ends with the maker's sessions. A reset of an account whose address was proved keeps its agents' tokens.
    const [squatted, kept] = await Promise.all([createOwnMerchant(reset.userId, { name: 'Squatted', country: 'DE' }), person()]);
    const keptMerchant = await createOwnMerchant(kept.userId, { name: 'Kept', country: 'DE' });
    const mint = (merchantId: string, token: string) =>
      call('POST', `/v1/dashboard/merchants/${merchantId}/mcp-tokens`, { key: token, body: { name: 'agent', scopes: ['merchant:read'], expiresInDays: 7 } });
    expect((await mint(squatted.id, reset.token)).status).toBe(201);
    expect((await mint(keptMerchant.id, kept.token)).status).toBe(201);
    const set = await resetPassword(reset.email);
    expect(set.status).toBe(303);
    expect((await getUser(reset.userId))?.emailVerifiedAt).toEqual(expect.any(String));
    expect((await listMcpTokens(squatted.id, reset.userId)).map((t) => Boolean(t.revokedAt))).toEqual([true]);
    await resetPassword(kept.email);
    expect((await listMcpTokens(keptMerchant.id, kept.userId)).map((t) => Boolean(t.revokedAt))).toEqual([false]);

    const invited = await unconfirmed();
    const partner = await partnerTeam();
    const merchant = { id: partner.merchantId, name: 'Partner' } as Parameters<typeof inviteToTeam>[0];
    await inviteToTeam(merchant, signedInAs(partner.ownerUserId), { email: invited.email, role: 'member' });
    const [invitation] = await keptMailsTo(invited.email, 'You are invited');
    const joinPath = /\/join\/inv_[0-9a-f.-]+/.exec(invitation!.text)![0];
    const accepted = await http('POST', joinPath, {
      baseUrl: origin,
      headers: { cookie: `${SESSION_COOKIE}=${invited.token}`, origin, 'content-type': form },
      body: new URLSearchParams({ csrf_token: csrfTokenOf(invited.token) }).toString(),
    });
    expect(accepted.status, accepted.text).toBe(303);
    expect(await invited.me()).toMatchObject({ emailVerified: true });
  });
});

describe('a password reset that takes an account over', () => {
  /**
   * A key made on the dashboard's API keys page by the person signed in with `token`, shown once: a merchant API key, or
   * (`create_org`) an organization API key of a new account of the merchant's own.
   */
  async function dashboardKey(merchantId: string, token: string, name: string, action: 'create' | 'create_org' = 'create'): Promise<string> {
    const made = await http('POST', `/dashboard/merchants/${merchantId}/developers/api-keys`, {
      baseUrl: origin,
      headers: { cookie: `${SESSION_COOKIE}=${token}`, origin, 'content-type': form },
      body: new URLSearchParams({ csrf_token: csrfTokenOf(token), action, name, form_key: randomUUID() }).toString(),
    });
    const key = /<code id="api-key-secret">(mor_test_[0-9a-f]{64}|[0-9a-f-]{36}_[0-9a-f]{64}_[0-9a-f-]{36})<\/code>/.exec(made.text)?.[1];
    if (!key) throw new Error(`no key on the page: ${made.status} ${made.text}`);
    return key;
  }
  /** The items of the person `userId` whose sort key starts with `prefix`, as stored (keys and `ttl` included). */
  const entriesUnder = (userId: string, prefix: string) =>
    queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': prefix },
    });
  const works = async (merchantId: string, key: string) => (await call('GET', `/v1/public-api/merchants/${merchantId}/api-keys`, { key })).status;
  const orgKeyWorks = async (organizationId: string, fullKey: string) =>
    (await orgCall('GET', `/v1/public-api/organizations/${organizationId}`, { fullKey })).status;

  it("ends the API keys and webhook destinations its maker made (merchant keys, on the dashboard and through the API with them; its own accounts' keys and destinations); a teammate's stay, and a proved account's reset keeps its own", async () => {
    const squatter = await unconfirmed();
    const squatted = await createOwnMerchant(squatter.userId, { name: 'Squatted', country: 'DE' });
    const onDashboard = await dashboardKey(squatted.id, squatter.token, 'Server');
    const made = await call('POST', `/v1/public-api/merchants/${squatted.id}/api-keys`, { key: onDashboard, body: { name: 'Made by the key' } });
    expect(made.status, made.text).toBe(201);
    const throughApi = made.json.apiKey as string;
    const mate = await person();
    await joinTeam(squatted.id, squatter.token, mate, 'admin');
    const matesKey = await dashboardKey(squatted.id, mate.token, "Mate's server");
    const [orgKey, matesOrgKey] = await Promise.all([
      dashboardKey(squatted.id, squatter.token, 'Backend', 'create_org'),
      dashboardKey(squatted.id, mate.token, "Mate's backend", 'create_org'),
    ]);
    for (const key of [onDashboard, throughApi, matesKey]) expect(await works(squatted.id, key)).toBe(200);
    for (const key of [orgKey, matesOrgKey]) expect(await orgKeyWorks(squatted.id, key)).toBe(200);
    // Webhook destinations: each adds one to the merchant (the dashboard's API) and one to its own account (the
    // organization API, with that account's key).
    const destinations = `/v1/dashboard/merchants/${squatted.id}/webhook-destinations`;
    for (const [token, path] of [
      [squatter.token, '/squatter'],
      [mate.token, '/mate'],
    ] as const) {
      const added = await call('POST', destinations, { key: token, body: { url: `http://127.0.0.1:9999/merchant${path}`, eventTypes: ['payment.completed'] } });
      expect(added.status, added.text).toBe(201);
    }
    for (const [fullKey, path] of [
      [orgKey, '/squatter'],
      [matesOrgKey, '/mate'],
    ] as const) {
      const added = await orgCall('POST', '/v1/webhook-destinations', { fullKey, body: { url: `http://127.0.0.1:9999/account${path}` } });
      expect(added.status, added.text).toBe(201);
    }
    const accountOf = (fullKey: string) => fullKey.split('_')[0]!;
    const urlsOn = async () => ({
      merchant: (await call('GET', destinations, { key: mate.token })).json.data.map((d: { url: string }) => d.url).sort(),
      accounts: (await Promise.all([orgKey, matesOrgKey].map((k) => listAccountDestinations(accountOf(k), { consistent: true }))))
        .flat()
        .map((d) => d.url)
        .sort(),
    });
    expect(await urlsOn()).toEqual({
      merchant: ['http://127.0.0.1:9999/merchant/mate', 'http://127.0.0.1:9999/merchant/squatter'],
      accounts: ['http://127.0.0.1:9999/account/mate', 'http://127.0.0.1:9999/account/squatter'],
    });

    expect((await resetPassword(squatter.email)).status).toBe(303);
    for (const key of [onDashboard, throughApi]) {
      const refused = await call('GET', `/v1/public-api/merchants/${squatted.id}/api-keys`, { key });
      expect(refused.status).toBe(401);
      expect(refused.json.message).toBe('The API key has been revoked.');
    }
    expect(await works(squatted.id, matesKey)).toBe(200);
    expect(await orgKeyWorks(squatted.id, orgKey)).toBe(401);
    expect(await orgKeyWorks(squatted.id, matesOrgKey)).toBe(200);
    expect(await urlsOn()).toEqual({ merchant: ['http://127.0.0.1:9999/merchant/mate'], accounts: ['http://127.0.0.1:9999/account/mate'] });

    // An account whose address was proved before: its reset takes nothing over, and its keys work on.
    const owner = await person();
    const own = await createOwnMerchant(owner.userId, { name: 'Own', country: 'DE' });
    const [ownKey, ownOrgKey] = await Promise.all([dashboardKey(own.id, owner.token, 'Server'), dashboardKey(own.id, owner.token, 'Backend', 'create_org')]);
    expect((await resetPassword(owner.email)).status).toBe(303);
    expect(await works(own.id, ownKey)).toBe(200);
    expect(await orgKeyWorks(own.id, ownOrgKey)).toBe(200);
  });
  it('leaves nothing its maker was making as the reset landed (keys through the API with its key, destinations with its session): each one made is ended, the others refused', async () => {
    const squatter = await unconfirmed();
    const squatted = await createOwnMerchant(squatter.userId, { name: 'Raced', country: 'DE' });
    const key = await dashboardKey(squatted.id, squatter.token, 'Server');
    // The maker's scripts make keys with its key and add destinations with its session, ten at once, round after
    // round, until a round has started after the reset.
    let reset = false;
    const script = async (make: (n: string) => Promise<{ status: number; json: any }>) => {
      const made: any[] = [];
      const refused = new Set<string>();
      for (let round = 0; ; round++) {
        const last = reset;
        for (const a of await Promise.all(Array.from({ length: 10 }, (_, i) => make(`${round}-${i}`)))) {
          if (a.status === 201) made.push(a.json);
          else refused.add(`${a.status} ${a.json.code}`);
        }
        if (last) return { made, refused };
      }
    };
    const scripts = Promise.all([
      script((n) => call('POST', `/v1/public-api/merchants/${squatted.id}/api-keys`, { key, body: { name: `Script ${n}` } })),
      script((n) =>
        call('POST', `/v1/dashboard/merchants/${squatted.id}/webhook-destinations`, {
          key: squatter.token,
          body: { url: `http://127.0.0.1:9999/script/${n}`, eventTypes: ['payment.completed'] },
        }),
      ),
    ]);
    expect((await resetPassword(squatter.email)).status).toBe(303);
    reset = true;
    const [keys, destinations] = await scripts;
    expect([keys.made.length, destinations.made.length].every((n) => n > 0)).toBe(true);
    expect([keys.refused, destinations.refused]).toEqual([new Set(['401 auth.invalid_api_key']), new Set(['401 auth.invalid_session'])]);
    const survived = (await Promise.all(keys.made.map(async (k) => ((await works(squatted.id, k.apiKey)) === 200 ? k.id : null)))).filter(Boolean);
    expect(survived).toEqual([]);
    expect(await works(squatted.id, key)).toBe(401);
    expect((await listDestinations(squatted.id)).map((d) => d.url)).toEqual([]);
  }, 60_000);
  it("ends the key of an account its maker made a moment before, though the account's key listing (an index) does not show it yet", async () => {
    const squatter = await unconfirmed();
    const squatted = await createOwnMerchant(squatter.userId, { name: 'Just made', country: 'DE' });
    const orgKey = await dashboardKey(squatted.id, squatter.token, 'Backend', 'create_org');
    // The index has not caught up with the key: it is not on the account's listing.
    const keyId = orgKey.split('_').at(-1)!;
    await db.send(new UpdateCommand({ TableName: tableName(), Key: { pk: `ORGKEY#${keyId}`, sk: 'ORGKEY' }, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    expect(await orgKeyWorks(squatted.id, orgKey)).toBe(200);
    expect((await resetPassword(squatter.email)).status).toBe(303);
    expect(await orgKeyWorks(squatted.id, orgKey)).toBe(401);
  });

  it("ends an agent's token its maker minted a moment before, though the merchant's token listing (an index) does not show it yet", async () => {
    const squatter = await unconfirmed();
    const squatted = await createOwnMerchant(squatter.userId, { name: 'Just minted', country: 'DE' });
    const minted = await call('POST', `/v1/dashboard/merchants/${squatted.id}/mcp-tokens`, {
      key: squatter.token,
      body: { name: 'agent', scopes: ['merchant:read'], expiresInDays: 7 },
    });
    expect(minted.status, minted.text).toBe(201);
    await db.send(new UpdateCommand({ TableName: tableName(), Key: McpTokenEntity.key({ id: minted.json.id }), UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    // Its entry under the person goes with the token's expiry (DynamoDB's TTL).
    const [entry] = await entriesUnder(squatter.userId, 'MADE#mcpToken#');
    expect(entry?.ttl).toBe(Math.ceil(Date.parse(minted.json.expiresAt) / 1000));
    expect((await resetPassword(squatter.email)).status).toBe(303);
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: McpTokenEntity.key({ id: minted.json.id }), ConsistentRead: true }));
    expect(Item?.revokedAt).toEqual(expect.any(String));
  });

  it("ends the agents' grants its maker approved: one exchanged before the reset, though the grant listing (an index) does not show it yet, and one whose code is exchanged after it", async () => {
    const squatter = await unconfirmed();
    await createOwnMerchant(squatter.userId, { name: 'Granted', country: 'DE' });
    const client = await publicClient();
    const [early, late] = [pkce(), pkce()];
    const exchanged = await authorize(client, { email: squatter.email, password: PASSWORD }, early.challenge);
    const pending = await authorize(client, { email: squatter.email, password: PASSWORD }, late.challenge);
    const tokens = await exchange(client, exchanged.code, early.verifier);
    expect(tokens.status, tokens.text).toBe(200);
    const familyId = parseToken(tokens.json.refresh_token)!.familyId;
    await db.send(new UpdateCommand({ TableName: tableName(), Key: TokenFamilyEntity.key({ id: familyId }), UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    expect((await resetPassword(squatter.email)).status).toBe(303);
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: TokenFamilyEntity.key({ id: familyId }), ConsistentRead: true }));
    expect(Item).toMatchObject({ status: 'revoked', revokedBecause: 'account_taken_over' });
    const refused = await exchange(client, pending.code, late.verifier);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toEqual({
      error: 'invalid_grant',
      error_description: 'The account of the person who approved it was taken over since. Start the authorization again for a new code.',
    });
  });

  it('ends a key made before keys were listed under their maker, once the operator lists them (list-made)', async () => {
    const squatter = await unconfirmed();
    const squatted = await createOwnMerchant(squatter.userId, { name: 'Listed late', country: 'DE' });
    const key = await dashboardKey(squatted.id, squatter.token, 'Server');
    // As a version before the list wrote it: the key, with who made it, and no entry under the person.
    const entries = await entriesUnder(squatter.userId, 'MADE#');
    expect(entries).toHaveLength(1);
    await db.send(new DeleteCommand({ TableName: tableName(), Key: { pk: entries[0]!.pk, sk: entries[0]!.sk } }));
    expect(JSON.parse((await adminCli({}, 'list-made', '--json')).stdout).listed).toBeGreaterThanOrEqual(1);
    expect(JSON.parse((await adminCli({}, 'list-made', '--json')).stdout)).toEqual({ listed: 0 });
    expect((await resetPassword(squatter.email)).status).toBe(303);
    expect(await works(squatted.id, key)).toBe(401);
  }, 60_000);
});

describe('writing to people', () => {
  it('takes names on one line only, and at most 30 invitations from a merchant in an hour', async () => {
    const partner = await partnerTeam();
    const twoLines = await call('POST', '/v1/public-api/merchants', {
      key: partner.apiKey,
      body: { name: 'Acme\n\nYour account is locked: unlock it at https://evil.example' },
    });
    expect(twoLines.status).toBe(400);
    expect(twoLines.text).toContain('must be on one line');
    const signUp = await call('POST', '/v1/dashboard/users', { body: { email: uniqueEmail('named'), password: PASSWORD, name: 'Platform\tSecurity' } });
    expect(signUp.status).toBe(400);

    await inOneWindow(invitationLimit.windowSeconds);
    const merchant = { id: partner.merchantId, name: 'Partner' } as Parameters<typeof inviteToTeam>[0];
    const by = signedInAs(partner.ownerUserId);
    for (let i = 0; i < invitationLimit.limit; i++) await inviteToTeam(merchant, by, { email: uniqueEmail('invited'), role: 'member' });
    const victim = uniqueEmail('flooded');
    await expect(inviteToTeam(merchant, by, { email: victim, role: 'member' })).rejects.toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    expect(await keptMailsTo(victim)).toEqual([]);
  });
});
