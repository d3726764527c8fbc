import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import * as merchantKeys from '../../../shared/people/merchant.entity.ts';
import { changeOwnerMemberCount, getMerchant } from '../../../shared/people/merchants.repository.ts';
import { putNewMembership } from '../../../shared/people/memberships.repository.ts';
import { call, colleagues, invitationTokenOf, joinTeam, person, rootMerchant, subMerchant, uniqueEmail, PASSWORD } from '../../support/fixtures.ts';

const M = '/v1/public-api/merchants';
const D = '/v1/dashboard';
const membersOf = (merchantId: string) => `${D}/merchants/${merchantId}/members`;
const memberOf = (merchantId: string, userId: string) => `${membersOf(merchantId)}/${userId}`;

async function signIn(email: string): Promise<string> {
  const res = await call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return res.json.token as string;
}

/** A partner merchant whose owner is signed in. */
async function team() {
  const partner = await rootMerchant();
  const owner = { userId: partner.ownerUserId, email: partner.ownerEmail, token: await signIn(partner.ownerEmail) };
  return { partner, merchantId: partner.merchantId, owner };
}

/** `who` (signed in) on `merchantId`'s team with `role`, invited by `by` (owner made through a role change). */
async function joined(merchantId: string, by: string, role: 'owner' | 'admin' | 'member') {
  const who = await person();
  await joinTeam(merchantId, by, who, role === 'owner' ? 'admin' : role);
  if (role === 'owner') {
    const promoted = await call('PATCH', memberOf(merchantId, who.userId), { key: by, body: { role: 'owner' } });
    if (promoted.status !== 200) throw new Error(`promotion failed: ${promoted.status} ${promoted.text}`);
  }
  return who;
}

type Member = { userId: string; email: string; name: string | null; role: string; createdAt: string };

/** The whole team (one page of 100, enough for every test's team). */
const listed = async (merchantId: string, token: string) => {
  const res = await call('GET', `${membersOf(merchantId)}?limit=100`, { key: token });
  expect(res.status).toBe(200);
  expect(res.json.pagination).toMatchObject({ page: 1, limit: 100, totalCount: res.json.data.length });
  return res.json.data as Member[];
};
const rolesOf = async (merchantId: string, token: string) => Object.fromEntries((await listed(merchantId, token)).map((m) => [m.userId, m.role]));

/** The merchant item's stored owner count (absent on merchants whose team never changed owners). */
async function ownerMemberCount(merchantId: string): Promise<number | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: merchantKeys.merchant(merchantId), ConsistentRead: true }));
  return Item?.ownerMemberCount as number | undefined;
}

describe('listing the team', () => {
  it('shows every member, oldest first, with user id, e-mail, name, role and joining time, to any member', async () => {
    const { merchantId, owner } = await team();
    const named = uniqueEmail('named');
    const up = await call('POST', `${D}/users`, { body: { email: named, password: PASSWORD, name: 'Nadia Named' } });
    expect(up.status).toBe(201);
    const namedToken = await signIn(named);
    await joinTeam(merchantId, owner.token, { email: named, token: namedToken });

    const asMember = await listed(merchantId, namedToken);
    expect(asMember).toHaveLength(2);
    expect(asMember[0]).toMatchObject({ userId: owner.userId, email: owner.email, name: null, role: 'owner' });
    expect(asMember[1]).toMatchObject({ userId: up.json.id, email: named, name: 'Nadia Named', role: 'member' });
    expect(Date.parse(asMember[1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(asMember[0]!.createdAt));
    expect(JSON.stringify(asMember)).not.toContain('passwordHash');
  });

  it('answers a page at a time as {data, pagination}: 20 by default, `page` from 1, `limit` 1 to 100', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const member = await joined(merchantId, owner.token, 'member');
    const page = (query: string) => call('GET', `${membersOf(merchantId)}${query}`, { key: owner.token });

    const all = await page('');
    expect(all.status).toBe(200);
    expect(Object.keys(all.json)).toEqual(['data', 'pagination']);
    expect(all.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 3, totalPages: 1 });
    expect(all.json.data.map((m: Member) => m.userId)).toEqual([owner.userId, admin.userId, member.userId]);

    const first = await page('?limit=2');
    expect(first.json.data.map((m: Member) => m.userId)).toEqual([owner.userId, admin.userId]);
    expect(first.json.pagination).toEqual({ page: 1, limit: 2, totalCount: 3, totalPages: 2 });
    const second = await page('?limit=2&page=2');
    expect(second.json.data.map((m: Member) => m.userId)).toEqual([member.userId]);
    expect(second.json.pagination).toEqual({ page: 2, limit: 2, totalCount: 3, totalPages: 2 });
    const beyond = await page('?limit=2&page=3');
    expect(beyond.status).toBe(200);
    expect(beyond.json).toEqual({ data: [], pagination: { page: 3, limit: 2, totalCount: 3, totalPages: 2 } });
    expect((await page('?limit=100')).json.data).toHaveLength(3);

    for (const query of ['limit=0', 'limit=101', 'limit=-1', 'limit=two', 'page=0', 'page=1.5', 'offset=1']) {
      const bad = await page(`?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.json.code, query).toBe('request.invalid_query');
    }
  });

  it('refuses someone outside the team, and a merchant that does not exist, with the same 403', async () => {
    const { merchantId } = await team();
    const stranger = await person();
    const foreign = await call('GET', membersOf(merchantId), { key: stranger.token });
    const unknown = await call('GET', membersOf('00000000-0000-4000-8000-000000000000'), { key: stranger.token });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('forbidden');
    expect(unknown.text).toBe(foreign.text);
    expect((await call('GET', membersOf(merchantId))).status).toBe(401);
  });
});

describe('adding a member', () => {
  it('lets an owner add someone they work with on another team as admin with 201, and that person then reaches the merchant', async () => {
    const { merchantId, owner } = await team();
    const mate = await person();
    await colleagues(owner.email, mate);
    const res = await call('POST', membersOf(merchantId), { key: owner.token, body: { email: mate.email.toUpperCase(), role: 'admin' } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({ userId: mate.userId, email: mate.email, name: null, role: 'admin', createdAt: expect.any(String) });
    const me = await call('GET', `${D}/me`, { key: mate.token });
    expect(me.json.memberships).toContainEqual({ merchantId, role: 'admin' });
  });

  it('lets an admin add a colleague of theirs as a member, the default role', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const newcomer = await person();
    await colleagues(admin.email, newcomer);
    const res = await call('POST', membersOf(merchantId), { key: admin.token, body: { email: newcomer.email } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.role).toBe('member');
  });

  it("adds no one who has not agreed to work with the adder: a stranger's confirmed address, an unconfirmed one and an unknown one get the same 422", async () => {
    const { merchantId, owner } = await team();
    const stranger = await person();
    // On the owner's other team, but from before addresses were confirmed (a membership of then): not added by it.
    const unconfirmed = await person(uniqueEmail('unconfirmed'), { confirmed: false });
    const other = await rootMerchant('Other shop', { ownerEmail: owner.email });
    await transactWrite([
      ['member', [putNewMembership({ merchantId: other.merchantId, userId: unconfirmed.userId, role: 'member', createdAt: new Date().toISOString() })]],
    ]);
    const answers = [];
    for (const email of [stranger.email, unconfirmed.email, uniqueEmail('nobody')]) {
      answers.push(await call('POST', membersOf(merchantId), { key: owner.token, body: { email } }));
    }
    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ code: 'member.invite_required', details: { field: 'email' } });
      expect(res.text).toBe(answers[0]!.text);
    }
    expect(await listed(merchantId, owner.token)).toHaveLength(1);
    expect((await call('GET', `${D}/me`, { key: stranger.token })).json.memberships).toEqual([]);
  });

  it('refuses a member (not owner or admin) with 403 and adds no one', async () => {
    const { merchantId, owner } = await team();
    const member = await joined(merchantId, owner.token, 'member');
    const newcomer = await person();
    const res = await call('POST', membersOf(merchantId), { key: member.token, body: { email: newcomer.email } });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('forbidden');
    expect(await listed(merchantId, owner.token)).toHaveLength(2);
  });

  it('refuses someone outside the team with 403 and adds no one', async () => {
    const { merchantId, owner } = await team();
    const stranger = await person();
    const res = await call('POST', membersOf(merchantId), { key: stranger.token, body: { email: stranger.email } });
    expect(res.status).toBe(403);
    expect(await listed(merchantId, owner.token)).toHaveLength(1);
  });

  it('answers 409 member.already_assigned for someone already on the team, keeping their role', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const again = await call('POST', membersOf(merchantId), { key: owner.token, body: { email: admin.email, role: 'member' } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('member.already_assigned');
    const self = await call('POST', membersOf(merchantId), { key: owner.token, body: { email: owner.email } });
    expect(self.status).toBe(409);
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner', [admin.userId]: 'admin' });
  });

  it('refuses role owner, an unknown field, a bad e-mail and a missing body with 400', async () => {
    const { merchantId, owner } = await team();
    const mate = await person();
    for (const body of [{ email: mate.email, role: 'owner' }, { email: mate.email, userId: mate.userId }, { email: 'not-an-email' }, {}]) {
      const res = await call('POST', membersOf(merchantId), { key: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.code).toBe('request.validation_failed');
    }
    expect((await call('POST', membersOf(merchantId), { key: owner.token })).json.code).toBe('request.body_required');
    expect(await listed(merchantId, owner.token)).toHaveLength(1);
  });
});

describe('changing a role', () => {
  it('lets an owner make a member admin and an admin owner, counting the new owner', async () => {
    const { merchantId, owner } = await team();
    const mate = await joined(merchantId, owner.token, 'member');
    const toAdmin = await call('PATCH', memberOf(merchantId, mate.userId), { key: owner.token, body: { role: 'admin' } });
    expect(toAdmin.status).toBe(200);
    expect(toAdmin.json).toMatchObject({ userId: mate.userId, email: mate.email, role: 'admin' });
    const toOwner = await call('PATCH', memberOf(merchantId, mate.userId), { key: owner.token, body: { role: 'owner' } });
    expect(toOwner.status).toBe(200);
    expect(toOwner.json.role).toBe('owner');
    expect(await ownerMemberCount(merchantId)).toBe(2);
    expect((await call('GET', `${D}/me`, { key: mate.token })).json.memberships).toContainEqual({ merchantId, role: 'owner' });
  });

  it('answers the same role again with 200 and changes nothing', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const res = await call('PATCH', memberOf(merchantId, admin.userId), { key: owner.token, body: { role: 'admin' } });
    expect(res.status).toBe(200);
    expect(res.json.role).toBe('admin');
    expect(await ownerMemberCount(merchantId)).toBeUndefined();
  });

  it('lets an admin switch members between admin and member, including themselves', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const mate = await joined(merchantId, owner.token, 'member');
    expect((await call('PATCH', memberOf(merchantId, mate.userId), { key: admin.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await call('PATCH', memberOf(merchantId, mate.userId), { key: admin.token, body: { role: 'member' } })).status).toBe(200);
    expect((await call('PATCH', memberOf(merchantId, admin.userId), { key: admin.token, body: { role: 'member' } })).status).toBe(200);
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner', [admin.userId]: 'member', [mate.userId]: 'member' });
  });

  it('refuses an admin who would make an owner or change an owner with 403, changing nothing', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const mate = await joined(merchantId, owner.token, 'member');
    const makeOwner = await call('PATCH', memberOf(merchantId, mate.userId), { key: admin.token, body: { role: 'owner' } });
    expect(makeOwner.status).toBe(403);
    expect(makeOwner.json.code).toBe('forbidden');
    const selfOwner = await call('PATCH', memberOf(merchantId, admin.userId), { key: admin.token, body: { role: 'owner' } });
    expect(selfOwner.status).toBe(403);
    const demoteOwner = await call('PATCH', memberOf(merchantId, owner.userId), { key: admin.token, body: { role: 'member' } });
    expect(demoteOwner.status).toBe(403);
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner', [admin.userId]: 'admin', [mate.userId]: 'member' });
  });

  it('refuses a member, and someone outside the team, with 403', async () => {
    const { merchantId, owner } = await team();
    const member = await joined(merchantId, owner.token, 'member');
    const stranger = await person();
    const byMember = await call('PATCH', memberOf(merchantId, member.userId), { key: member.token, body: { role: 'admin' } });
    expect(byMember.status).toBe(403);
    const byStranger = await call('PATCH', memberOf(merchantId, member.userId), { key: stranger.token, body: { role: 'admin' } });
    expect(byStranger.status).toBe(403);
    expect((await rolesOf(merchantId, owner.token))[member.userId]).toBe('member');
  });

  it('answers 404 member.not_found for a user who is not on the team', async () => {
    const { merchantId, owner } = await team();
    const stranger = await person();
    const res = await call('PATCH', memberOf(merchantId, stranger.userId), { key: owner.token, body: { role: 'admin' } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('member.not_found');
    expect((await call('PATCH', memberOf(merchantId, 'not-a-user'), { key: owner.token, body: { role: 'admin' } })).status).toBe(404);
    expect(await listed(merchantId, owner.token)).toHaveLength(1);
  });

  it('refuses an unknown role, an unknown field and a missing role with 400', async () => {
    const { merchantId, owner } = await team();
    const mate = await joined(merchantId, owner.token, 'member');
    for (const body of [{ role: 'superuser' }, { role: 'admin', email: mate.email }, {}]) {
      const res = await call('PATCH', memberOf(merchantId, mate.userId), { key: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.code).toBe('request.validation_failed');
    }
    expect((await rolesOf(merchantId, owner.token))[mate.userId]).toBe('member');
  });
});

describe('removing a member', () => {
  it('lets an owner remove a member with 204, after which the removed session gets 403 on the merchant', async () => {
    const { merchantId, owner } = await team();
    const mate = await joined(merchantId, owner.token, 'admin');
    expect((await call('GET', membersOf(merchantId), { key: mate.token })).status).toBe(200);
    const res = await call('DELETE', memberOf(merchantId, mate.userId), { key: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('GET', membersOf(merchantId), { key: mate.token })).status).toBe(403);
    expect((await call('GET', `${D}/merchants/${merchantId}/webhook-destinations`, { key: mate.token })).status).toBe(403);
    expect((await call('GET', `${D}/me`, { key: mate.token })).json.memberships).toEqual([]);
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner' });
  });

  it('lets a member leave the team themselves', async () => {
    const { merchantId, owner } = await team();
    const member = await joined(merchantId, owner.token, 'member');
    expect((await call('DELETE', memberOf(merchantId, member.userId), { key: member.token })).status).toBe(204);
    expect((await call('GET', membersOf(merchantId), { key: member.token })).status).toBe(403);
  });

  it('lets an admin remove a member, but refuses an admin removing an owner and a member removing someone else with 403', async () => {
    const { merchantId, owner } = await team();
    const admin = await joined(merchantId, owner.token, 'admin');
    const member = await joined(merchantId, owner.token, 'member');
    const other = await joined(merchantId, owner.token, 'member');
    const byMember = await call('DELETE', memberOf(merchantId, other.userId), { key: member.token });
    expect(byMember.status).toBe(403);
    expect(byMember.json.code).toBe('forbidden');
    const ownerByAdmin = await call('DELETE', memberOf(merchantId, owner.userId), { key: admin.token });
    expect(ownerByAdmin.status).toBe(403);
    expect(await listed(merchantId, owner.token)).toHaveLength(4);
    expect((await call('DELETE', memberOf(merchantId, other.userId), { key: admin.token })).status).toBe(204);
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner', [admin.userId]: 'admin', [member.userId]: 'member' });
  });

  it('refuses someone outside the team with 403, and answers 404 for a user who is not on the team', async () => {
    const { merchantId, owner } = await team();
    const stranger = await person();
    expect((await call('DELETE', memberOf(merchantId, owner.userId), { key: stranger.token })).status).toBe(403);
    const missing = await call('DELETE', memberOf(merchantId, stranger.userId), { key: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('member.not_found');
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner' });
  });
});

describe('the last owner', () => {
  it('can be neither removed nor demoted (409 member.last_owner), and stays the owner', async () => {
    const { merchantId, owner } = await team();
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'admin' }],
      ['PATCH', { role: 'member' }],
    ] as const) {
      const res = await call(method, memberOf(merchantId, owner.userId), { key: owner.token, body });
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(409);
      expect(res.json.code).toBe('member.last_owner');
    }
    expect(await rolesOf(merchantId, owner.token)).toEqual({ [owner.userId]: 'owner' });
    expect((await getMerchant(merchantId))!.ownerUserId).toBe(owner.userId);
  });

  it('is refused by the table itself when a merchant that never stored an owner count would lose its owner', async () => {
    const { merchantId, owner } = await team();
    expect(await ownerMemberCount(merchantId)).toBeUndefined();
    const write = transactWrite([['owner-count', [changeOwnerMemberCount(merchantId, { by: -1, leaving: owner.userId, successor: null })]]]);
    await expect(write).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect(await ownerMemberCount(merchantId)).toBeUndefined();
  });

  it("may leave once another owner exists, who then becomes the merchant's owner and the last one", async () => {
    const { partner, merchantId, owner } = await team();
    const second = await joined(merchantId, owner.token, 'owner');
    expect((await call('DELETE', memberOf(merchantId, owner.userId), { key: owner.token })).status).toBe(204);
    expect((await getMerchant(merchantId))!.ownerUserId).toBe(second.userId);
    expect(await ownerMemberCount(merchantId)).toBe(1);
    expect((await call('GET', `${M}/${merchantId}`, { key: partner.apiKey })).json.ownerAttached).toBe(true);
    const alone = await call('PATCH', memberOf(merchantId, second.userId), { key: second.token, body: { role: 'member' } });
    expect(alone.status).toBe(409);
    expect(alone.json.code).toBe('member.last_owner');
  });

  it('is also kept on a sub-merchant whose owner claimed it through its join link', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const seller = await person();
    const token = sub.joinLink.url.slice(sub.joinLink.url.lastIndexOf('/join/') + '/join/'.length);
    expect((await call('POST', `${D}/join-links/${token}/claim`, { key: seller.token })).status).toBe(200);
    const res = await call('DELETE', memberOf(sub.id, seller.userId), { key: seller.token });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('member.last_owner');
  });

  it('survives two owners leaving at once: one leaves, the other gets 409 and remains the owner', async () => {
    const { merchantId, owner } = await team();
    const second = await joined(merchantId, owner.token, 'owner');
    const answers = await Promise.all([
      call('DELETE', memberOf(merchantId, owner.userId), { key: owner.token }),
      call('DELETE', memberOf(merchantId, second.userId), { key: second.token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
    expect(answers.find((a) => a.status === 409)!.json.code).toBe('member.last_owner');
    const stayer = answers[0]!.status === 409 ? owner : second;
    expect(await rolesOf(merchantId, stayer.token)).toEqual({ [stayer.userId]: 'owner' });
    expect((await getMerchant(merchantId))!.ownerUserId).toBe(stayer.userId);
    expect(await ownerMemberCount(merchantId)).toBe(1);
  });

  it('survives two owners demoting themselves at once: one is demoted, the other gets 409 and stays owner', async () => {
    const { merchantId, owner } = await team();
    const second = await joined(merchantId, owner.token, 'owner');
    const answers = await Promise.all([
      call('PATCH', memberOf(merchantId, owner.userId), { key: owner.token, body: { role: 'admin' } }),
      call('PATCH', memberOf(merchantId, second.userId), { key: second.token, body: { role: 'member' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.code).toBe('member.last_owner');
    const roles = Object.values(await rolesOf(merchantId, owner.token));
    expect(roles.filter((r) => r === 'owner')).toHaveLength(1);
    const stayer = answers[0]!.status === 409 ? owner : second;
    expect((await getMerchant(merchantId))!.ownerUserId).toBe(stayer.userId);
    expect(await ownerMemberCount(merchantId)).toBe(1);
  });
});

describe('inviting', () => {
  it('mails a link the invited person accepts signed in with that address: they join with its role, once; others are refused', async () => {
    const { merchantId, owner } = await team();
    const mate = await person(uniqueEmail('invited'), { confirmed: false });
    const sent = await call('POST', `${D}/merchants/${merchantId}/invitations`, { key: owner.token, body: { email: mate.email.toUpperCase(), role: 'admin' } });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.json).toEqual({
      inviteId: expect.stringMatching(/^[0-9a-f]{16}$/),
      email: mate.email,
      role: 'admin',
      expiresAt: expect.any(String),
      expired: false,
      createdAt: expect.any(String),
    });
    const token = await invitationTokenOf(mate.email);
    // Someone else signed in cannot use it; a made-up link is the join links' 404.
    const stranger = await person();
    expect((await call('POST', `${D}/invitations/${token}/accept`, { key: stranger.token })).status).toBe(403);
    const madeUp = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    expect((await call('POST', `${D}/invitations/${madeUp}/accept`, { key: mate.token })).json.code).toBe('join_link.invalid');
    expect((await call('POST', `${D}/invitations/${token}/accept`)).status).toBe(401);
    const accepted = await call('POST', `${D}/invitations/${token}/accept`, { key: mate.token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ merchantId, userId: mate.userId, role: 'admin' });
    expect((await call('GET', `${D}/me`, { key: mate.token })).json).toMatchObject({
      user: { emailVerified: true },
      memberships: [{ merchantId, role: 'admin' }],
    });
    // Spent: a second accept is the same 404; inviting a member again is 409.
    expect((await call('POST', `${D}/invitations/${token}/accept`, { key: mate.token })).json.code).toBe('join_link.invalid');
    const again = await call('POST', `${D}/merchants/${merchantId}/invitations`, { key: owner.token, body: { email: mate.email } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('member.already_assigned');
    // A member (not owner or admin) may not invite.
    const member = await joined(merchantId, owner.token, 'member');
    expect((await call('POST', `${D}/merchants/${merchantId}/invitations`, { key: member.token, body: { email: uniqueEmail('x') } })).status).toBe(403);
  });
});

describe('the members example of docs/reference-merchant-api.md', () => {
  it("invites a teammate to the partner's team on the dashboard, then the partner key assigns them to a sub-merchant", async () => {
    // The operator made the partner (`npm run admin -- create-merchant`); its key made a sub-merchant with an owner.
    const partner = await rootMerchant('Acme Partners');
    const sub = await subMerchant(partner.apiKey, { name: 'Corner Shop', ownerEmail: partner.ownerEmail });
    // The partner's owner signs in and invites the teammate to the partner's team as admin.
    const ownerToken = await signIn(partner.ownerEmail);
    const teammateEmail = uniqueEmail('teammate');
    const invited = await call('POST', `${D}/merchants/${partner.merchantId}/invitations`, { key: ownerToken, body: { email: teammateEmail, role: 'admin' } });
    expect(invited.status, invited.text).toBe(201);
    // The teammate signs up; before being on the partner's team, the partner key cannot assign them.
    const signedUp = await call('POST', `${D}/users`, { body: { email: teammateEmail, password: PASSWORD } });
    expect(signedUp.status).toBe(201);
    const early = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: teammateEmail, role: 'admin' } });
    expect(early.status).toBe(422);
    expect(early.json.code).toBe('member.not_in_parent_team');
    // The teammate accepts the mailed invitation, signed in.
    const accepted = await call('POST', `${D}/invitations/${await invitationTokenOf(teammateEmail)}/accept`, { key: await signIn(teammateEmail) });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ merchantId: partner.merchantId, userId: signedUp.json.id, role: 'admin' });
    // Now the partner key assigns the teammate to the sub-merchant.
    const assigned = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: teammateEmail, role: 'admin' } });
    expect(assigned.status).toBe(201);
    expect(assigned.json).toEqual({ merchantId: sub.id, userId: signedUp.json.id, email: teammateEmail, role: 'admin', ownerAttached: true });
    const me = await call('GET', `${D}/me`, { key: await signIn(teammateEmail) });
    expect(me.json.memberships).toEqual(
      expect.arrayContaining([
        { merchantId: partner.merchantId, role: 'admin' },
        { merchantId: sub.id, role: 'admin' },
      ]),
    );
  });
});
