/**
 * Team invitations and leaving a team. In a real browser: an owner invites a new e-mail address with the keyboard
 * alone; the link is read from the local mail outbox; the person opens it, signs up through it, accepts and lands on
 * the merchant's home as a Member; the used link is the join page's 404; sending the invitation again replaces the
 * earlier link (404) with a new one; the team page and the join page are axe-clean. Over HTTP: two accepts of one link
 * at once make one membership; an expired link is the 404; the signed-in person must be the one invited; a Member may
 * leave (landing on the switcher, which says so) but not invite; the last owner cannot leave.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationOfToken } from '../../../shared/people/invites.rules.ts';
import { getMembership, getMerchant, inviteToTeam, pendingInvites } from '../../../shared/people/index.ts';
import { teamFromForm } from '../../../shared/dashboard/team/team.service.ts';
import type { HttpEvent } from '../../../shared/platform/http/types.ts';
import { listMembershipsOfMerchant } from '../../../shared/people/memberships.repository.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as inviteKeys from '../../../shared/people/invite.entity.ts';
import { csrfTokenOf, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { withEnv } from '../../support/env.ts';
import { keptMailsTo } from '../../support/mails.ts';
import { http } from '../../support/http.ts';
import { expectAccessible, heading, launchBrowser, openPage, origin, signInThroughPages } from '../support.ts';
import { call, PASSWORD, person, rootMerchant, signedInAs, uniqueEmail } from '../../support/fixtures.ts';

const teamPath = (merchantId: string) => `/dashboard/merchants/${merchantId}/team`;

/** The path (`/join/inv_…`) of the latest invitation mailed to `to`, and how many were mailed to that address. */
async function latestInvitation(to: string): Promise<{ path: string; token: string; mails: number; subject: string; text: string }> {
  const mails = await keptMailsTo(to);
  const last = mails.at(-1);
  const path = last ? /\/join\/inv_[0-9a-f.-]+/.exec(last.text)?.[0] : undefined;
  if (!last || !path) throw new Error(`no invitation mailed to ${to}`);
  return { path, token: path.slice('/join/'.length), mails: mails.length, subject: last.subject, text: last.text };
}

/** A person signed in over HTTP: GET a page, POST a page's form (with its CSRF token, from this origin). */
async function signedIn(email: string) {
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
  expect(session.status, session.text).toBe(201);
  const token = session.json.token as string;
  const cookie = `${SESSION_COOKIE}=${token}`;
  return {
    get: (path: string) => http('GET', path, { baseUrl: origin, headers: { cookie } }),
    post: (path: string, form: Record<string, string> = {}) =>
      http('POST', path, {
        baseUrl: origin,
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrfTokenOf(token), ...form }).toString(),
      }),
  };
}

/** Tab until the element whose id (or text) is `target` has the focus. */
async function tabTo(page: Page, target: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>("document.activeElement ? (document.activeElement.id || document.activeElement.innerText.trim()) : ''");
    if (focused === target) return;
  }
  throw new Error(`${target} never got the focus`);
}

describe('the dashboard: inviting people to a team, in a browser', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('invites with the keyboard, the person signs up through the mailed link and joins as a Member; used and replaced links are 404', async () => {
    const shop = await rootMerchant('Invite Shop');
    const team = teamPath(shop.merchantId);
    const invitee = uniqueEmail('invitee');

    // The owner sends an invitation with the keyboard alone.
    const o = await openPage(browser);
    await signInThroughPages(o.page, shop.ownerEmail, undefined, team);
    await o.page.waitForURL(`${origin}${team}`);
    expect(await heading(o.page)).toBe('Team');
    await expectAccessible(o.page, 'team-invite');
    await tabTo(o.page, 'email');
    await o.page.keyboard.type(invitee);
    await o.page.keyboard.press('Tab'); // Role: Member, as it is
    await o.page.keyboard.press('Tab');
    expect(await o.page.evaluate<string>('document.activeElement.innerText.trim()')).toBe('Send invitation');
    await o.page.keyboard.press('Enter');
    await o.page.waitForURL(`${origin}${team}?done=invited`);
    expect(await o.page.getByRole('status').innerText()).toBe('The invitation was sent. Its link works once, for 7 days.');
    const pending = o.page.getByRole('row', { name: new RegExp(invitee) });
    expect(await pending.innerText()).toContain('Member');
    await expectAccessible(o.page, 'team-invitation-pending');

    const first = await latestInvitation(invitee);
    expect(first.mails).toBe(1);
    expect(first.subject).toBe('You are invited to join Invite Shop');
    expect(first.text).toContain('as Member');
    expect(first.token).toMatch(/^inv_[0-9a-f-]{36}\.[0-9a-f]{16}\.[0-9a-f]{40}$/);

    // The person opens the link signed out, signs up through it, comes back and accepts.
    const w = await openPage(browser, { allowStatuses: [404] });
    const { page } = w;
    await page.goto(`${origin}${first.path}`);
    expect(await heading(page)).toBe('Join the team');
    expect(await page.getByRole('main').innerText()).toContain('You are invited to join the team of Invite Shop as Member.');
    await expectAccessible(page, 'invitation-signed-out');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/dashboard\/sign-up\?next=/);
    await page.getByLabel('Email').fill(invitee);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}${first.path}`);
    await expectAccessible(page, 'invitation-signed-in');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL(`${origin}/dashboard/merchants/${shop.merchantId}?done=team_joined`);
    expect(await heading(page)).toBe('Home');
    expect(await page.getByRole('status').innerText()).toBe('You joined the team of this merchant.');
    await page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name: 'Team' }).click();
    expect(await page.getByRole('row', { name: new RegExp(invitee) }).innerText()).toContain('Member');
    expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Leave this team' }).count()).toBe(1);

    // The used link is the join page's 404, signed in or not.
    const used = await page.request.get(`${origin}${first.path}`);
    expect(used.status()).toBe(404);
    expect(await used.text()).toContain('This join link is not valid');
    await w.expectClean();

    // The owner invites someone else, then sends it again: the earlier link is the 404, the new one opens.
    const second = uniqueEmail('invitee');
    await o.page.goto(`${origin}${team}`);
    expect(await o.page.getByRole('row', { name: new RegExp(invitee) }).innerText()).toContain('Member');
    await o.page.getByLabel('Email', { exact: true }).fill(second);
    await o.page.getByRole('button', { name: 'Send invitation' }).click();
    await o.page.waitForURL(`${origin}${team}?done=invited`);
    const earlier = await latestInvitation(second);
    await o.page.goto(`${origin}${team}`);
    await o.page.getByRole('button', { name: `Send again the invitation to ${second}` }).click();
    await o.page.waitForURL(`${origin}${team}?done=invited`);
    const later = await latestInvitation(second);
    expect(later.mails).toBe(2);
    expect(later.token).not.toBe(earlier.token);
    expect((await http('GET', earlier.path, { baseUrl: origin })).status).toBe(404);
    expect((await http('GET', later.path, { baseUrl: origin })).status).toBe(200);
    expect(await o.page.getByRole('row', { name: new RegExp(second) }).count()).toBe(1);
    await o.expectClean();
  });
});

describe('the dashboard: invitations and leaving, over HTTP', () => {
  /** A root merchant whose owner (signed in) invited a new address; the invitation's link. */
  async function invited(name: string) {
    const shop = await rootMerchant(name);
    const owner = await signedIn(shop.ownerEmail);
    const email = uniqueEmail('invitee');
    const sent = await owner.post(teamPath(shop.merchantId), { action: 'invite', email, role: 'member', form_key: randomUUID() });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    return { shop, owner, email, link: await latestInvitation(email) };
  }

  it('sends one invitation, one mail with one working link, however often its form is sent at once or again', async () => {
    const shop = await rootMerchant('Double Click');
    const owner = await signedIn(shop.ownerEmail);
    const email = uniqueEmail('once');
    const form = { action: 'invite', email, role: 'member', form_key: randomUUID() };
    const answers = await Promise.all([
      owner.post(teamPath(shop.merchantId), form),
      owner.post(teamPath(shop.merchantId), form),
      owner.post(teamPath(shop.merchantId), form),
    ]);
    for (const a of answers) expect(a.status, a.text.slice(0, 300)).toBe(303);
    expect(answers.map((a) => a.headers.get('location')?.split('done=')[1]).sort()).toEqual(['invited', 'sent_before', 'sent_before']);
    expect((await owner.post(teamPath(shop.merchantId), form)).headers.get('location')).toMatch(/done=sent_before$/);
    const link = await latestInvitation(email);
    expect(link.mails).toBe(1);
    expect((await http('GET', link.path, { baseUrl: origin })).status).toBe(200);
  });

  it('keeps an invitation whose mail cannot be sent (SES refusing it, say) and says so, 503 with the team page; sent again, it replaces it', async () => {
    const partner = await rootMerchant();
    const merchant = (await getMerchant(partner.merchantId))!;
    const principal = signedInAs(partner.ownerUserId, partner.mode);
    const email = uniqueEmail('unmailed');
    const event = { headers: {}, cookies: [] } as unknown as HttpEvent;
    // In this process, with SES out of reach: the send throws, as it does when SES refuses a mail.
    await withEnv({ AWS_ENDPOINT_URL_SESV2: 'http://127.0.0.1:1' }, async () => {
      await expect(inviteToTeam(merchant, principal, { email, role: 'member' })).rejects.toMatchObject({
        status: 503,
        code: 'invite.mail_not_sent',
        headers: { 'retry-after': '60' },
      });
      const page = await teamFromForm(merchant, 'owner', principal, event, { action: 'invite', email, role: 'admin', form_key: randomUUID() });
      expect(page.status).toBe(503);
      expect(page.headers?.['retry-after']).toBe('60');
      expect(String(page.body)).toContain('The invitation is saved, but its e-mail could not be sent just now.');
    });
    expect((await pendingInvites(merchant)).filter((i) => i.email === email).map((i) => i.role)).toEqual(['admin']);
    await expect(latestInvitation(email)).rejects.toThrow('no invitation mailed');
    // Sent again, now that mail goes out: one invitation, the new one, mailed once.
    await inviteToTeam(merchant, principal, { email, role: 'member' });
    expect((await pendingInvites(merchant)).filter((i) => i.email === email).map((i) => i.role)).toEqual(['member']);
    expect((await latestInvitation(email)).mails).toBe(1);
  });

  it('makes one membership of two accepts of the same link at once', async () => {
    const { shop, email, link } = await invited('Race Shop');
    const joiner = await person(email);
    const browser = await signedIn(email);
    const answers = await Promise.all([browser.post(link.path), browser.post(link.path)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404]);
    expect(answers.find((a) => a.status === 303)!.headers.get('location')).toBe(`${origin}/dashboard/merchants/${shop.merchantId}?done=team_joined`);
    expect(answers.find((a) => a.status === 404)!.text).toContain('This join link is not valid');
    const team = await listMembershipsOfMerchant(shop.merchantId);
    expect(team.filter((m) => m.userId === joiner.userId)).toEqual([expect.objectContaining({ role: 'member' })]);
    expect(team).toHaveLength(2);
  });

  it('answers an expired link with the 404 and joins no one; the team page says it expired', async () => {
    const { shop, owner, email, link } = await invited('Expiry Shop');
    const { inviteId } = invitationOfToken(link.token)!;
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: inviteKeys.teamInvite(shop.merchantId, inviteId),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const joiner = await person(email);
    const browser = await signedIn(email);
    const opened = await browser.get(link.path);
    const accepted = await browser.post(link.path);
    const madeUp = await http('GET', `/join/inv_${shop.merchantId}.${'0'.repeat(16)}.${'0'.repeat(40)}`, { baseUrl: origin });
    expect([opened.status, accepted.status, madeUp.status]).toEqual([404, 404, 404]);
    expect(accepted.text).toBe(opened.text);
    expect(madeUp.text).toContain('This join link is not valid');
    expect(await getMembership(shop.merchantId, joiner.userId)).toBeNull();
    const page = await owner.get(teamPath(shop.merchantId));
    expect(page.text).toMatch(new RegExp(`${email}[\\s\\S]*Expired`));
  });

  it('revokes an invitation: its link is the 404, and the team page lists it no more', async () => {
    const { shop, owner, email, link } = await invited('Revoke Shop');
    const { inviteId } = invitationOfToken(link.token)!;
    expect((await http('GET', link.path, { baseUrl: origin })).status).toBe(200);
    const revoked = await owner.post(teamPath(shop.merchantId), { action: 'revoke', inviteId });
    expect(revoked.headers.get('location')).toBe(`${origin}${teamPath(shop.merchantId)}?done=revoked`);
    expect((await http('GET', link.path, { baseUrl: origin })).status).toBe(404);
    expect((await owner.get(teamPath(shop.merchantId))).text).not.toContain(email);
    const again = await owner.post(teamPath(shop.merchantId), { action: 'revoke', inviteId });
    expect(again.status).toBe(404);
    expect(again.text).toContain('No pending invitation with that id on this merchant.');
  });

  it('lets only the person invited accept: anyone else sees whom it is for and is refused', async () => {
    const { shop, email, link } = await invited('Mismatch Shop');
    const other = await person(uniqueEmail('other'));
    const browser = await signedIn(other.email);
    const opened = await browser.get(link.path);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(`You are signed in as ${other.email}, but this invitation is for ${email}.`);
    expect(opened.text).not.toContain('Accept invitation');
    const accepted = await browser.post(link.path);
    expect(accepted.status).toBe(403);
    expect(await getMembership(shop.merchantId, other.userId)).toBeNull();
    // The link still works for the person invited.
    await person(email);
    expect((await (await signedIn(email)).post(link.path)).status).toBe(303);
  });

  it('lets a Member leave the team (the switcher says so) but not invite anyone', async () => {
    const { shop, email, link } = await invited('Leaving Shop');
    const member = await person(email);
    const browser = await signedIn(email);
    expect((await browser.post(link.path)).status).toBe(303);

    const friend = uniqueEmail('friend');
    const inviting = await browser.post(teamPath(shop.merchantId), { action: 'invite', email: friend, role: 'member', form_key: randomUUID() });
    expect(inviting.status).toBe(403);
    expect(await keptMailsTo(friend)).toEqual([]);

    const left = await browser.post(teamPath(shop.merchantId), { action: 'leave' });
    expect(left.status).toBe(303);
    expect(left.headers.get('location')).toBe(`${origin}/dashboard?done=left`);
    expect(await getMembership(shop.merchantId, member.userId)).toBeNull();
    const switcher = await browser.get('/dashboard?done=left');
    expect(switcher.text).toContain('You left the team.');
    expect(switcher.text).not.toContain('Leaving Shop');
    expect((await browser.get(teamPath(shop.merchantId))).status).toBe(403);
  });

  it('keeps the last owner on the team, and says why', async () => {
    const shop = await rootMerchant('Last Owner Shop');
    const owner = await signedIn(shop.ownerEmail);
    const page = await owner.get(teamPath(shop.merchantId));
    expect(page.text).toContain('You are the only owner of this merchant, so you cannot leave its team');
    expect(page.text).not.toContain('>Leave this team</button>');
    const refused = await owner.post(teamPath(shop.merchantId), { action: 'leave' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('You are this merchant&#39;s last owner, so you cannot leave its team: make someone else an owner first.');
    expect(await getMembership(shop.merchantId, shop.ownerUserId)).toMatchObject({ role: 'owner' });
  });
});
