/**
 * A person's OAuth grants on a merchant end with their membership of its team, by two layers, each proven alone:
 * removing a member (or a member leaving) revokes their token families on that merchant, and the `refresh_token`
 * grant itself refuses a person no longer on the team even when no revocation happened (the membership is a
 * condition of the refresh, and of redeeming a code approved before a removal). Over HTTP through the local gateway: the token endpoint and the MCP endpoint.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as membershipKeys from '../../../shared/people/membership.entity.ts';
import { parseToken, tokenIdOf } from '../../../shared/oauth/oauth.rules.ts';
import { getTokenAndFamily } from '../../../shared/oauth/tokens.repository.ts';
import { call, joinTeam, PASSWORD, person } from '../../support/fixtures.ts';
import { initializeMessage, rawMcp } from '../../agents/support.ts';
import { authorize, exchange, merchantOwner, pkce, publicClient, tokenRequest } from '../support.ts';

const membersOf = (merchantId: string) => `/v1/dashboard/merchants/${merchantId}/members`;

const sessionOf = async (email: string) => (await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } })).json.token as string;

/** A merchant whose owner is signed in, and a registered public client. */
async function shop() {
  const owner = await merchantOwner();
  return { owner: { ...owner, session: await sessionOf(owner.email) }, client: await publicClient() };
}

/** `who` on `merchantId`'s team as a member, invited by the signed-in `by`. */
const addTo = (merchantId: string, by: string, who: { email: string; token: string }) => joinTeam(merchantId, by, who);

/** `who` completes the OAuth flow with `client` (for `merchantId`, when they are on several teams): their tokens. */
async function grant(client: { clientId: string; redirectUri: string }, who: { email: string }, merchantId?: string) {
  const { verifier, challenge } = pkce();
  const { code } = await authorize(client, { email: who.email, password: PASSWORD }, challenge, merchantId ? { merchant_id: merchantId } : {});
  const tokens = await exchange(client, code, verifier);
  expect(tokens.status, tokens.text).toBe(200);
  expect(tokens.json.refresh_token).toBeTruthy();
  return tokens.json as { access_token: string; refresh_token: string };
}

const refresh = (client: { clientId: string }, refreshToken: string) =>
  tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId });

/** What the MCP endpoint answers an `initialize` with `accessToken`: 200 when it is accepted. */
const mcpStatus = async (accessToken: string) => (await rawMcp(accessToken, initializeMessage)).status;

/** The token family a token names, as stored. */
async function familyOf(token: string) {
  const parsed = parseToken(token);
  expect(parsed, token).not.toBeNull();
  return (await getTokenAndFamily(tokenIdOf(token, parsed!.kind), parsed!.familyId)).family;
}

describe('removing a member ends their OAuth grants on the merchant', () => {
  it("revokes them: the removed member's refresh answers invalid_grant and their access token is refused at /api/mcp", async () => {
    const { owner, client } = await shop();
    const member = await person();
    await addTo(owner.merchantId, owner.session, member);
    const tokens = await grant(client, member);
    expect(await mcpStatus(tokens.access_token)).toBe(200);

    const removed = await call('DELETE', `${membersOf(owner.merchantId)}/${member.userId}`, { key: owner.session });
    expect(removed.status, removed.text).toBe(204);

    expect(await familyOf(tokens.refresh_token)).toMatchObject({ status: 'revoked', revokedBecause: 'member_removed' });
    const refused = await refresh(client, tokens.refresh_token);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toBe('invalid_grant');
    expect(await mcpStatus(tokens.access_token)).toBe(401);
  });

  it('revokes them when the member leaves the team themselves', async () => {
    const { owner, client } = await shop();
    const member = await person();
    await addTo(owner.merchantId, owner.session, member);
    const tokens = await grant(client, member);

    const left = await call('DELETE', `${membersOf(owner.merchantId)}/${member.userId}`, { key: member.token });
    expect(left.status, left.text).toBe(204);

    expect(await familyOf(tokens.refresh_token)).toMatchObject({ status: 'revoked', revokedBecause: 'member_removed' });
    const refused = await refresh(client, tokens.refresh_token);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toBe('invalid_grant');
  });

  it("leaves everyone else's grants alone: a member who stays, the owner, and the removed person's grant on another merchant keep refreshing", async () => {
    const { owner, client } = await shop();
    const other = await shop();
    const leaving = await person();
    const staying = await person();
    await addTo(owner.merchantId, owner.session, leaving);
    await addTo(owner.merchantId, owner.session, staying);
    await addTo(other.owner.merchantId, other.owner.session, leaving);
    const leavingHere = await grant(client, leaving, owner.merchantId);
    const leavingElsewhere = await grant(client, leaving, other.owner.merchantId);
    const stayingHere = await grant(client, staying);
    const ownerHere = await grant(client, owner);

    expect((await call('DELETE', `${membersOf(owner.merchantId)}/${leaving.userId}`, { key: owner.session })).status).toBe(204);

    expect((await refresh(client, leavingHere.refresh_token)).json.error).toBe('invalid_grant');
    for (const tokens of [stayingHere, ownerHere, leavingElsewhere]) {
      const first = await refresh(client, tokens.refresh_token);
      expect(first.status, first.text).toBe(200);
      expect(await mcpStatus(first.json.access_token)).toBe(200);
      const second = await refresh(client, first.json.refresh_token);
      expect(second.status, second.text).toBe(200);
    }
  });
});

describe('the refresh_token grant checks the membership itself', () => {
  it('refuses a person no longer on the team with invalid_grant even when their grant was never revoked, and revokes nothing', async () => {
    const { owner, client } = await shop();
    const member = await person();
    await addTo(owner.merchantId, owner.session, member);
    const tokens = await grant(client, member);

    // The membership goes without the removal's revocation: only the refresh grant's own check can refuse now.
    await db.send(new DeleteCommand({ TableName: tableName(), Key: membershipKeys.membership(owner.merchantId, member.userId) }));
    expect(await familyOf(tokens.refresh_token)).toMatchObject({ status: 'active' });

    const refused = await refresh(client, tokens.refresh_token);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toBe('invalid_grant');
    expect(refused.json.error_description).toContain('no longer a member');
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    // Nothing was revoked nor spent: the grant and its refresh token are as they were.
    expect(await familyOf(tokens.refresh_token)).toMatchObject({ status: 'active' });
    const again = await refresh(client, tokens.refresh_token);
    expect(again.json.error).toBe('invalid_grant');
    expect(await familyOf(tokens.refresh_token)).toMatchObject({ status: 'active' });
  });

  it('makes no grant of a code approved by a member removed before the client exchanged it', async () => {
    const { owner, client } = await shop();
    const member = await person();
    await addTo(owner.merchantId, owner.session, member);
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, { email: member.email, password: PASSWORD }, challenge);
    const removed = await call('DELETE', `${membersOf(owner.merchantId)}/${member.userId}`, { key: owner.session });
    expect(removed.status, removed.text).toBe(204);

    const refused = await exchange(client, code, verifier);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toEqual({
      error: 'invalid_grant',
      error_description: 'The person who approved it is no longer a member of its merchant. Start the authorization again for a new code.',
    });
  });
});
