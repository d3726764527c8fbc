import { randomBytes, randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as merchantKeys from '../../../shared/people/merchant.entity.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { attemptsIn, takeAttemptSlot } from '../../../shared/people/throttle.repository.ts';
import * as peopleRoutes from '../../../shared/people/routes.ts';
import { counterOf, emailThrottleKey, ipThrottleKey, signInLimits, signUpLimits } from '../../../shared/people/throttle.service.ts';
import { buildHttpApiEvent } from '../../../infra/local/apigw-event.ts';
import { DEVICE_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { invokeHandler, lambdaContext, loadHandler } from '../../../infra/local/lambda.ts';
import { checkContract } from '../../support/contract.ts';
import { call, deviceCookieIn, person, rootMerchant, subMerchant, uniqueEmail, PASSWORD } from '../../support/fixtures.ts';
import { eventItemsOf } from '../../support/events.ts';

const M = '/v1/public-api/merchants';
const D = '/v1/dashboard';
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/join/') + '/join/'.length);
const claim = (token: string, session: string) => call('POST', `${D}/join-links/${token}/claim`, { key: session });

const eventsOf = (merchantId: string) => eventItemsOf(merchantId);

describe('people and sessions', () => {
  it('signs up, signs in with a bearer token and an HttpOnly cookie, and signs out', async () => {
    const email = uniqueEmail();
    const up = await call('POST', `${D}/users`, { body: { email, password: PASSWORD } });
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({ email });
    expect(up.text).not.toContain(PASSWORD);
    expect(up.json).not.toHaveProperty('passwordHash');

    const session = await call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } });
    expect(session.status).toBe(201);
    expect(session.json.token).toMatch(/^mor_sess_[0-9a-f-]{36}\.[0-9a-f]{64}$/);
    const cookie = session.headers.getSetCookie().find((c) => c.startsWith('__Host-mor_session='))!;
    expect(cookie).toMatch(/^__Host-mor_session=mor_sess_[0-9a-f-]{36}\.[0-9a-f]{64}; /);
    expect(cookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Lax', 'Secure']);

    const byBearer = await call('GET', `${D}/me`, { key: session.json.token });
    expect(byBearer.status).toBe(200);
    expect(byBearer.json.user).toMatchObject({ id: up.json.id, email });
    const byCookie = await call('GET', `${D}/me`, { headers: { cookie: `theme=dark; ${cookie.split(';')[0]}` } });
    expect(byCookie.status).toBe(200);

    expect((await call('DELETE', `${D}/sessions/current`, { key: session.json.token })).status).toBe(204);
    expect((await call('GET', `${D}/me`, { key: session.json.token })).status).toBe(401);
  });

  it('refuses a wrong password and an unknown e-mail alike with 401', async () => {
    const p = await person();
    const wrong = await call('POST', `${D}/sessions`, { body: { email: p.email, password: 'not the password!' } });
    const unknown = await call('POST', `${D}/sessions`, { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
  });

  it('refuses a second sign-up with the same e-mail (any case) with 409', async () => {
    const p = await person();
    const again = await call('POST', `${D}/users`, { body: { email: p.email.toUpperCase(), password: PASSWORD } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('user.email_taken');
  });

  it('refuses an 11-character password and accepts 12, counting characters (an emoji is one, not two)', async () => {
    expect((await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: 'a'.repeat(11) } })).status).toBe(400);
    expect((await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: 'a'.repeat(12) } })).status).toBe(201);
    const six = await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: '😀'.repeat(6) } });
    expect(six.status, six.text).toBe(400);
    expect(six.json.message).toContain('password: must be at least 12 characters');
    expect((await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: '😀'.repeat(12) } })).status).toBe(201);
  });

  it('does not take a merchant API key as a session', async () => {
    const partner = await rootMerchant();
    expect((await call('GET', `${D}/me`, { key: partner.apiKey })).status).toBe(401);
  });
});

/** True when `a` and `b` fall in the same throttle window (a test that straddles two may see twice the limit). */
const sameWindow = (a: Date, b: Date) => counterOf(signInLimits.email, '', a).windowStart === counterOf(signInLimits.email, '', b).windowStart;
const signIn = (email: string, password: string) => call('POST', `${D}/sessions`, { body: { email, password } });

/**
 * The sign-in function called the way the gateway calls it, from `sourceIp` (the local gateway only sees 127.0.0.1),
 * with the browser's `cookie` header when given.
 */
const signInFrom = (sourceIp: string, email: string, password: string, cookie?: string) => fromAddress(peopleRoutes.signIn, sourceIp, email, password, cookie);

/** `route`'s function (sign-in, sign-up) called the way the gateway calls it, from `sourceIp`. */
async function fromAddress(route: typeof peopleRoutes.signIn | typeof peopleRoutes.signUp, sourceIp: string, email: string, password: string, cookie?: string) {
  const event = buildHttpApiEvent({
    method: 'POST',
    rawPath: route.path,
    routeKey: `POST ${route.path}`,
    sourceIp,
    headers: [['content-type', 'application/json'], ...(cookie ? [['cookie', cookie] as const] : [])],
    body: JSON.stringify({ email, password }),
  });
  const handler = await loadHandler(route.handler);
  const result = (await invokeHandler(handler, event, lambdaContext({ name: route.name, timeoutMs: 10_000, region: 'us-east-1' }), 10_000)) as {
    statusCode: number;
    headers: Record<string, string>;
    cookies?: string[];
    body?: string;
  };
  const text = result.body ?? '';
  const json = text ? JSON.parse(text) : null;
  checkContract('POST', route.path.slice('/api'.length), result.statusCode, json, text);
  return { status: result.statusCode, headers: result.headers, cookies: result.cookies ?? [], json, text };
}

/** A fresh source address (an IPv6 /64 of its own), so a test's failures are counted on no one else's. */
const freshAddress = (last: string) => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${last}`;

/** The `name=value` of the device cookie a sign-in answered with. */
const deviceCookieOf = (answer: { cookies: string[] }) => deviceCookieIn(answer.cookies);

describe('sign-up throttling', () => {
  it('answers 429 with Retry-After after 10 refused sign-ups of an e-mail, so a taken address cannot be asked about without limit', async () => {
    const p = await person();
    const from = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::9`;
    const started = new Date();
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await fromAddress(peopleRoutes.signUp, from, p.email, PASSWORD));
    if (!sameWindow(started, new Date())) return; // straddled two windows: twice the limit, nothing to learn
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(409), 429, 429]);
    expect(answers[10]!.json.code).toBe('auth.too_many_attempts');
    expect(Number(answers[10]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A new address signs up from there as usual, and gives its slot back.
    expect((await fromAddress(peopleRoutes.signUp, from, uniqueEmail('new'), PASSWORD)).status).toBe(201);
  });

  it('counts every sign-up from a source, 20 an hour: the next is 429 whatever the address, and another source signs up', async () => {
    const from = freshAddress('7');
    const started = new Date();
    const answers = [];
    for (let i = 0; i <= signUpLimits.made.limit; i++) answers.push(await fromAddress(peopleRoutes.signUp, from, uniqueEmail('many'), PASSWORD));
    const inOneHour = counterOf(signUpLimits.made, '', started).windowStart === counterOf(signUpLimits.made, '', new Date()).windowStart;
    if (!inOneHour) return; // straddled two windows: twice the limit, nothing to learn
    expect(answers.map((a) => a.status)).toEqual([...Array(signUpLimits.made.limit).fill(201), 429]);
    expect(answers.at(-1)!.json.code).toBe('auth.too_many_attempts');
    expect(Number(answers.at(-1)!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await fromAddress(peopleRoutes.signUp, freshAddress('8'), uniqueEmail('other'), PASSWORD)).status).toBe(201);
  });
});

describe('sign-in throttling', () => {
  it('answers 429 with Retry-After after 10 wrong passwords for an e-mail, even to the right password', async () => {
    const p = await person();
    // From an address of its own: its ten failures are not counted on the address every other test signs in from.
    const from = freshAddress('5');
    const started = new Date();
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await signInFrom(from, p.email, `wrong password ${i}`));
    const locked = await signInFrom(from, p.email, PASSWORD);
    const straddled = !sameWindow(started, new Date());

    const failures = answers.filter((a) => a.status === 401).length;
    if (!straddled) expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(401));
    expect(failures).toBe(straddled ? Math.min(failures, 20) : 10);
    for (const refused of [...answers.slice(failures), locked]) {
      expect(refused.status).toBe(429);
      expect(refused.json.code).toBe('auth.too_many_attempts');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(signInLimits.email.windowSeconds);
    }
    expect(locked.cookies).toEqual([]);
    // Another person signs in as usual: the lock is on that e-mail, not on this address.
    const other = await person();
    expect((await signIn(other.email, PASSWORD)).status).toBe(201);
  });

  it("keeps the person's own browsers open while anyone else's wrong passwords lock the address: a known browser is counted on its own", async () => {
    const p = await person();
    const other = await person();
    const home = freshAddress('1');
    // Signed in once from a browser: it gets a device cookie (a year, host-only, HttpOnly).
    const first = await signInFrom(home, p.email, PASSWORD);
    expect(first.status).toBe(201);
    expect(first.cookies.find((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toMatch(
      /^__Host-mor_device=mor_dev_[0-9a-f]{32}; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=31536000$/,
    );
    const browser = deviceCookieOf(first);
    const otherBrowser = deviceCookieOf(await signInFrom(freshAddress('2'), other.email, PASSWORD));
    const started = new Date();
    // Someone else, from elsewhere, sends wrong passwords until the address is locked.
    const attacker = freshAddress('3');
    for (let i = 0; i < signInLimits.email.limit; i++) expect((await signInFrom(attacker, p.email, `wrong ${i}`)).status).toBe(401);
    const locked = await signInFrom(freshAddress('4'), p.email, PASSWORD);
    // Another person's browser, and a made-up device token, are no way in.
    const viaOther = await signInFrom(home, p.email, PASSWORD, otherBrowser);
    const madeUp = await signInFrom(home, p.email, PASSWORD, `${DEVICE_COOKIE}=mor_dev_${'0'.repeat(32)}`);
    // The person's own browser signs in, and keeps its device token.
    const own = await signInFrom(home, p.email, PASSWORD, browser);
    if (!sameWindow(started, new Date())) return; // straddled a window: the counts above do not apply
    expect([locked.status, viaOther.status, madeUp.status]).toEqual([429, 429, 429]);
    expect(own.status).toBe(201);
    expect(deviceCookieOf(own)).toBe(browser);
    // That browser has its own limit: wrong passwords from it lock it too, whatever the address's counter says.
    const fromBrowser = [];
    for (let i = 0; i <= signInLimits.device.limit; i++) fromBrowser.push((await signInFrom(home, p.email, `wrong again ${i}`, browser)).status);
    if (!sameWindow(started, new Date())) return;
    expect(fromBrowser).toEqual([...Array(signInLimits.device.limit).fill(401), 429]);
  });

  it('locks an unknown e-mail exactly like a known one', async () => {
    const p = await person();
    const unknown = uniqueEmail('nobody');
    const from = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::7`;
    const started = new Date();
    const known = [];
    const made = [];
    for (let i = 0; i < 11; i++) {
      known.push(await signInFrom(from, p.email, 'not the password!'));
      made.push(await signInFrom(from, unknown, 'not the password!'));
    }
    if (!sameWindow(started, new Date())) return; // straddled a window: the counts below do not apply
    const seconds = (text: string) => text.replace(/\d+ seconds/, 'N seconds');
    expect(known.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    expect(made.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    expect(known[0]!.text).toBe(made[0]!.text);
    expect(seconds(known[10]!.text)).toBe(seconds(made[10]!.text));
  });

  it('answers 200 concurrent sign-ins with 201, 401 or 429 only, hashing no more than the limit allows', async () => {
    const p = await person();
    const started = new Date();
    // From a loopback address of its own: 200 sign-ins in flight at once hold that address's slots, not those of the
    // address every other test signs in from.
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call('POST', `${D}/sessions`, { body: { email: p.email, password: i % 2 ? PASSWORD : 'not the password!' }, from: '127.0.0.5' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => ![201, 401, 429].includes(s))).toEqual([]);
    const failures = statuses.filter((s) => s === 401).length;
    expect(failures).toBeLessThanOrEqual(sameWindow(started, new Date()) ? 10 : 20);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(150);
    for (const a of answers.filter((x) => x.status === 201)) expect(a.json.user.id).toBe(p.userId);
  });

  it('answers 429 to every e-mail from an address past 50 failures, counting IPv6 by its /64', async () => {
    const p = await person();
    const prefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const counter = counterOf(signInLimits.ip, ipThrottleKey(`${prefix}::1`), new Date());
    // 49 failures from this /64 already in this window.
    for (let i = 0; i < 49; i++) expect(await takeAttemptSlot(counter, signInLimits.ip.limit)).toBe(true);

    const fiftieth = await signInFrom(`${prefix}::1`, uniqueEmail('spray'), 'not the password!');
    const refused = await signInFrom(`${prefix}:ffff:ffff:ffff:ffff`, p.email, PASSWORD);
    const elsewhere = await signInFrom(`2001:db8:ffff:${randomBytes(2).toString('hex')}::1`, p.email, PASSWORD);
    if (counterOf(signInLimits.ip, '', new Date()).windowStart !== counter.windowStart) return; // straddled a window

    expect(fiftieth.status).toBe(401);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('auth.too_many_attempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(elsewhere.status).toBe(201);
    // The refused attempt took no slot; the successful one gave its slot back.
    expect(await attemptsIn(counter)).toBe(50);
    expect(await attemptsIn(counterOf(signInLimits.email, emailThrottleKey(p.email), new Date()))).toBe(0);
  });
});

describe('owner-claim join links', () => {
  it('lets a signed-in seller claim a merchant, writing merchant.owner_attached in the same transaction', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const seller = await person();
    const res = await claim(tokenOf(sub.joinLink.url), seller.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ merchantId: sub.id, userId: seller.userId, role: 'owner' });

    const read = await call('GET', `${M}/${sub.id}`, { key: partner.apiKey });
    expect(read.json.ownerAttached).toBe(true);
    const events = await eventsOf(sub.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'merchant.owner_attached',
      merchantId: sub.id,
      payload: { merchantId: sub.id, ownerUserId: seller.userId, email: seller.email },
    });

    const me = await call('GET', `${D}/me`, { key: seller.token });
    expect(me.json.memberships).toContainEqual({ merchantId: sub.id, role: 'owner' });
  });

  it('answers 409 to a join-link re-mint once an owner is attached', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const seller = await person();
    expect((await claim(tokenOf(sub.joinLink.url), seller.token)).status).toBe(200);
    const res = await call('POST', `${M}/${sub.id}/join-link`, { key: partner.apiKey });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('merchant.owner_already_attached');
    // and the root merchant, created with its owner, has no link to re-mint either
    expect((await call('POST', `${M}/${partner.merchantId}/join-link`, { key: partner.apiKey })).status).toBe(409);
  });

  it('refuses a stale link once a newer one has been minted, and accepts the newest', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const remint = await call('POST', `${M}/${sub.id}/join-link`, { key: partner.apiKey });
    expect(remint.status).toBe(201);
    expect(remint.json.url).not.toBe(sub.joinLink.url);
    expect(Date.parse(remint.json.expiresAt)).toBeGreaterThan(Date.now());
    const seller = await person();

    const stale = await claim(tokenOf(sub.joinLink.url), seller.token);
    expect(stale.status).toBe(404);
    expect(stale.json.code).toBe('join_link.invalid');
    expect((await getMerchant(sub.id))!.ownerUserId).toBeNull();

    expect((await claim(tokenOf(remint.json.url), seller.token)).status).toBe(200);
  });

  it('refuses a made-up token and a claim without a session', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const seller = await person();
    expect((await claim(`${sub.id}.${'0'.repeat(64)}`, seller.token)).status).toBe(404);
    expect((await claim('nonsense', seller.token)).status).toBe(404);
    expect((await call('POST', `${D}/join-links/${tokenOf(sub.joinLink.url)}/claim`)).status).toBe(401);
  });

  it('answers every link that cannot be claimed with the same 404 body, so links tell nothing about merchants', async () => {
    const partner = await rootMerchant();
    const [owned, stale, expired] = await Promise.all([subMerchant(partner.apiKey), subMerchant(partner.apiKey), subMerchant(partner.apiKey)]);
    const [first, second] = await Promise.all([person(), person()]);
    expect((await claim(tokenOf(owned.joinLink.url), first.token)).status).toBe(200);
    expect((await call('POST', `${M}/${stale.id}/join-link`, { key: partner.apiKey })).status).toBe(201);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: merchantKeys.merchant(expired.id),
        UpdateExpression: 'SET joinLink.expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const ownedToken = tokenOf(owned.joinLink.url);

    const answers = {
      unknownMerchant: await claim(`${randomUUID()}.${ownedToken.split('.')[1]}`, second.token),
      madeUp: await claim(`${stale.id}.${'0'.repeat(64)}`, second.token),
      nonsense: await claim('nonsense', second.token),
      stale: await claim(tokenOf(stale.joinLink.url), second.token),
      expired: await claim(tokenOf(expired.joinLink.url), second.token),
      usedAlready: await claim(ownedToken, second.token),
      usedAgainByItsOwner: await claim(ownedToken, first.token),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.status, what).toBe(404);
      expect(res.json.code, what).toBe('join_link.invalid');
      expect(res.text, what).toBe(answers.madeUp.text);
    }
    // Nothing changed: the owned merchant keeps its owner, the others have none.
    expect((await getMerchant(owned.id))!.ownerUserId).toBe(first.userId);
    expect((await getMerchant(stale.id))!.ownerUserId).toBeNull();
    expect((await getMerchant(expired.id))!.ownerUserId).toBeNull();
    expect(await eventsOf(owned.id)).toHaveLength(1);
  });

  it('gives exactly one owner when two people claim the same link at once', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const token = tokenOf(sub.joinLink.url);
    const people = await Promise.all([person(), person(), person(), person()]);
    const answers = await Promise.all(people.map((p) => claim(token, p.token)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200)) {
      expect(loser.status).toBe(404);
      expect(loser.json.code).toBe('join_link.invalid');
    }
    const merchant = await getMerchant(sub.id);
    expect(merchant!.ownerUserId).toBe(winners[0]!.json.userId);
    expect(await eventsOf(sub.id)).toHaveLength(1);
  });
});

describe('assigning members', () => {
  it('makes a parent-team user the owner of an unowned sub-merchant, with no event', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const res = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: partner.ownerEmail } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ merchantId: sub.id, userId: partner.ownerUserId, role: 'owner', ownerAttached: true });
    expect((await call('GET', `${M}/${sub.id}`, { key: partner.apiKey })).json.ownerAttached).toBe(true);
    expect(await eventsOf(sub.id)).toHaveLength(0);
    // the old join link no longer works
    const seller = await person();
    const stale = await claim(tokenOf(sub.joinLink.url), seller.token);
    expect(stale.status).toBe(404);
    expect(stale.json.code).toBe('join_link.invalid');
  });

  it('adds a member with the requested role when an owner exists, and 409 on a second assignment', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const seller = await person();
    await claim(tokenOf(sub.joinLink.url), seller.token);
    const res = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: partner.ownerEmail, role: 'admin' } });
    expect(res.status).toBe(201);
    expect(res.json.role).toBe('admin');
    const again = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: partner.ownerEmail } });
    expect(again.status).toBe(409);
    expect((await getMerchant(sub.id))!.ownerUserId).toBe(seller.userId);
  });

  it("refuses a user outside the parent's team with 422 and changes nothing", async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const stranger = await person();
    const res = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: stranger.email } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('member.not_in_parent_team');
    expect((await getMerchant(sub.id))!.ownerUserId).toBeNull();
  });
});
