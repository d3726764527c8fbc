import { describe, expect, it } from 'vitest';
import { queryGsi1 } from '../../shared/db/client.ts';
import { keys } from '../../shared/db/keys.ts';
import { getMerchant } from '../../shared/db/merchants.ts';
import { call, person, rootMerchant, subMerchant, uniqueEmail, PASSWORD } from './fixtures.ts';

const M = '/v1/public-api/merchants';
const D = '/v1/dashboard';
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/join/') + '/join/'.length);
const claim = (token: string, session: string) => call('POST', `${D}/join-links/${token}/claim`, { key: session });

const eventsOf = (merchantId: string) => queryGsi1(keys.eventListing(merchantId, '', '').gsi1pk);

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
    expect(session.json.token).toMatch(/^mor_sess_[0-9a-f]{64}$/);
    const cookie = session.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^mor_session=mor_sess_[0-9a-f]{64}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Secure');

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

  it('refuses an 11-character password and accepts 12', async () => {
    expect((await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: 'a'.repeat(11) } })).status).toBe(400);
    expect((await call('POST', `${D}/users`, { body: { email: uniqueEmail(), password: 'a'.repeat(12) } })).status).toBe(201);
  });

  it('does not take a merchant API key as a session', async () => {
    const partner = await rootMerchant();
    expect((await call('GET', `${D}/me`, { key: partner.apiKey })).status).toBe(401);
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
    expect(events[0]).toMatchObject({ type: 'merchant.owner_attached', merchantId: sub.id, payload: { merchantId: sub.id, ownerUserId: seller.userId, email: seller.email } });

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

  it('gives exactly one owner when two people claim the same link at once', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const token = tokenOf(sub.joinLink.url);
    const people = await Promise.all([person(), person(), person(), person()]);
    const answers = await Promise.all(people.map((p) => claim(token, p.token)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200)) {
      expect(loser.status).toBe(409);
      expect(loser.json.code).toBe('merchant.owner_already_attached');
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
    expect((await claim(tokenOf(sub.joinLink.url), seller.token)).status).toBe(409);
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

  it('refuses a user outside the parent\'s team with 422 and changes nothing', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const stranger = await person();
    const res = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: stranger.email } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('member.not_in_parent_team');
    expect((await getMerchant(sub.id))!.ownerUserId).toBeNull();
  });
});
