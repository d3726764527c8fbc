/**
 * User MCP tokens on the dashboard back end: minted by a signed-in member for one merchant of theirs, with the scopes
 * and lifetime (1 to 7 days) they choose, shown once, stored hashed, listed without the secret, revoked at once.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { mcpTokenIdOf, mcpTokenVerifierOf } from '../../../shared/agents/mcp-tokens.rules.ts';
import { agentScopes } from '../../../shared/domain/agent-scopes.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as mcpTokenKeys from '../../../shared/agents/mcp-token.entity.ts';
import { call, joinTeam, person, rootMerchant } from '../../support/fixtures.ts';
import { initializeMessage, mcpUrl, rawMcp, signIn } from '../support.ts';

const tokensOf = (merchantId: string) => `/v1/dashboard/merchants/${merchantId}/mcp-tokens`;
const DAY = 86_400_000;

/** A partner merchant whose owner is signed in. */
async function owner() {
  const merchant = await rootMerchant();
  return { ...merchant, session: await signIn(merchant.ownerEmail) };
}

describe('minting a user MCP token', () => {
  it('answers 201 with the token (shown once), its hint, scopes, expiry in 7 days by default and the MCP URL it works with', async () => {
    const o = await owner();
    const before = Date.now();
    const res = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'Claude Code', scopes: ['merchant:read', 'docs:read'] } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Claude Code',
      mode: 'test',
      userId: o.ownerUserId,
      merchantId: o.merchantId,
      scopes: ['merchant:read', 'docs:read'],
      lastUsedAt: null,
      revokedAt: null,
      mcpUrl: mcpUrl(),
    });
    expect(res.json.token).toMatch(/^mor_mcp_test_[A-Za-z0-9_-]{86}$/);
    expect(res.json.id).toBe(mcpTokenIdOf(res.json.token));
    expect(res.json.hint).toBe(`mor_mcp_test_…${res.json.token.slice(-4)}`);
    const lifetime = Date.parse(res.json.expiresAt) - Date.parse(res.json.createdAt);
    expect(lifetime).toBe(7 * DAY);
    expect(Date.parse(res.json.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('takes a lifetime of 1 to 7 days and refuses 0, 8 and a fraction with 400', async () => {
    const o = await owner();
    for (const days of [1, 7]) {
      const res = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes: ['docs:read'], expiresInDays: days } });
      expect(res.status, String(days)).toBe(201);
      expect(Date.parse(res.json.expiresAt) - Date.parse(res.json.createdAt)).toBe(days * DAY);
    }
    for (const [days, message] of [
      [0, 'expiresInDays: must be at least 1'],
      [8, 'expiresInDays: must be at most 7 (an MCP token lives at most 7 days)'],
      [1.5, 'expiresInDays: must be a whole number of days'],
    ] as const) {
      const res = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes: ['docs:read'], expiresInDays: days } });
      expect(res.status, String(days)).toBe(400);
      expect(res.json).toMatchObject({ code: 'request.validation_failed', message });
    }
  });

  it('refuses no scope, an unknown scope and a scope named twice with 400', async () => {
    const o = await owner();
    const cases: Array<[unknown, string]> = [
      [[], 'scopes: must grant at least one scope'],
      [['payouts:write'], `scopes.0: must be one of: ${agentScopes.join(', ')}`],
      [['docs:read', 'docs:read'], 'scopes: must name each scope once'],
    ];
    for (const [scopes, message] of cases) {
      const res = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes } });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect(res.json.message).toBe(message);
    }
  });

  it("stores only the token's derivations, never the token", async () => {
    const o = await owner();
    const res = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes: ['docs:read'] } });
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: mcpTokenKeys.mcpToken(res.json.id), ConsistentRead: true }));
    expect(Item).toMatchObject({ entity: 'mcpToken', verifier: mcpTokenVerifierOf(res.json.token), merchantId: o.merchantId, userId: o.ownerUserId });
    expect(JSON.stringify(Item)).not.toContain(res.json.token.slice(13));
    expect(Item!.ttl).toBeGreaterThan(Date.parse(res.json.expiresAt) / 1000);
  });

  it('is for members of the merchant only: someone else and an unknown merchant get the same 403, no session 401', async () => {
    const o = await owner();
    const stranger = await person();
    const foreign = await call('POST', tokensOf(o.merchantId), { key: stranger.token, body: { name: 'x', scopes: ['docs:read'] } });
    const unknown = await call('POST', tokensOf('00000000-0000-4000-8000-000000000000'), { key: stranger.token, body: { name: 'x', scopes: ['docs:read'] } });
    expect(foreign.status).toBe(403);
    expect(unknown.text).toBe(foreign.text);
    expect((await call('POST', tokensOf(o.merchantId), { body: { name: 'x', scopes: ['docs:read'] } })).status).toBe(401);
    // A member of any role may mint their own.
    await joinTeam(o.merchantId, o.session, stranger);
    expect((await call('POST', tokensOf(o.merchantId), { key: stranger.token, body: { name: 'x', scopes: ['docs:read'] } })).status).toBe(201);
  });
});

describe('listing and revoking', () => {
  it("lists your tokens on the merchant, oldest first, without the secret, and not anyone else's", async () => {
    const o = await owner();
    const first = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'first', scopes: ['docs:read'] } });
    const second = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'second', scopes: ['merchant:read'] } });
    const colleague = await person();
    await joinTeam(o.merchantId, o.session, colleague);
    await call('POST', tokensOf(o.merchantId), { key: colleague.token, body: { name: 'theirs', scopes: ['docs:read'] } });

    const listed = await call('GET', tokensOf(o.merchantId), { key: o.session });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((t: { name: string }) => t.name)).toEqual(['first', 'second']);
    expect(listed.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 2, totalPages: 1 });
    expect(listed.json.data[0]).toEqual({ ...first.json, token: undefined, mcpUrl: undefined });
    expect(listed.text).not.toContain(first.json.token);
    expect(listed.text).not.toContain(second.json.token);
    expect((await call('GET', tokensOf(o.merchantId), { key: colleague.token })).json.data.map((t: { name: string }) => t.name)).toEqual(['theirs']);
    const secondPage = await call('GET', `${tokensOf(o.merchantId)}?limit=1&page=2`, { key: o.session });
    expect(secondPage.json.data.map((t: { name: string }) => t.name)).toEqual(['second']);
    expect(secondPage.json.pagination).toEqual({ page: 2, limit: 1, totalCount: 2, totalPages: 2 });
    expect((await call('GET', `${tokensOf(o.merchantId)}?limit=101`, { key: o.session })).status).toBe(400);
  });

  it('records lastUsedAt when the token is used', async () => {
    const o = await owner();
    const minted = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes: ['docs:read'] } });
    expect((await rawMcp(minted.json.token, initializeMessage)).status).toBe(200);
    const [listed] = (await call('GET', tokensOf(o.merchantId), { key: o.session })).json.data;
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(minted.json.createdAt));
  });

  it("revokes at once with 204 (again: 204), and answers 404 for an unknown id or someone else's", async () => {
    const o = await owner();
    const minted = await call('POST', tokensOf(o.merchantId), { key: o.session, body: { name: 'x', scopes: ['docs:read'] } });
    expect((await rawMcp(minted.json.token, initializeMessage)).status).toBe(200);
    expect((await call('DELETE', `${tokensOf(o.merchantId)}/${minted.json.id}`, { key: o.session })).status).toBe(204);
    expect((await rawMcp(minted.json.token, initializeMessage)).json.code).toBe('invalid_token');
    expect((await call('DELETE', `${tokensOf(o.merchantId)}/${minted.json.id}`, { key: o.session })).status).toBe(204);
    const [listed] = (await call('GET', tokensOf(o.merchantId), { key: o.session })).json.data;
    expect(listed.revokedAt).not.toBeNull();

    const notFound = { statusCode: 404, code: 'mcp_token.not_found', message: 'You have no MCP token with that id on this merchant.', details: {} };
    for (const id of [`mcp_${'0'.repeat(24)}`, 'not-an-id', `mcp_${'a'.repeat(200)}`]) {
      const res = await call('DELETE', `${tokensOf(o.merchantId)}/${id}`, { key: o.session });
      expect(res.status, id).toBe(404);
      expect(res.json, id).toEqual(notFound);
    }
    const colleague = await person();
    await joinTeam(o.merchantId, o.session, colleague);
    const theirs = await call('POST', tokensOf(o.merchantId), { key: colleague.token, body: { name: 'theirs', scopes: ['docs:read'] } });
    expect((await call('DELETE', `${tokensOf(o.merchantId)}/${theirs.json.id}`, { key: o.session })).json).toEqual(notFound);
    expect((await rawMcp(theirs.json.token, initializeMessage)).status).toBe(200);
  });
});
