import { describe, expect, it } from 'vitest';
import { getApiKey } from '../../../shared/people/api-keys.repository.ts';
import { queryGsi1 } from '../../../shared/platform/db/client.ts';
import * as merchantKeys from '../../../shared/people/merchant.entity.ts';
import { createRootMerchant } from '../../../shared/people/merchants.service.ts';
import { call, person, rootMerchant, subMerchant, uniqueEmail, PASSWORD } from '../../support/fixtures.ts';
import { eventItemsOf } from '../../support/events.ts';

const M = '/v1/public-api/merchants';

const childrenOf = (parentId: string) => queryGsi1(merchantKeys.merchantChildren(parentId, '', '').gsi1pk);

describe('authentication of merchant keys', () => {
  it('refuses a request without a key with 401 in the error shape', async () => {
    const res = await call('GET', `${M}/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ statusCode: 401, code: 'auth.missing_api_key' });
    expect(typeof res.json.message).toBe('string');
    expect(res.json.details).toEqual({});
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a well-formed key that does not exist with 401', async () => {
    const res = await call('GET', `${M}/00000000-0000-4000-8000-000000000000`, { key: `mor_test_${'ab'.repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('auth.invalid_api_key');
  });

  it('refuses a live key on the sandbox deployment with 401, even though the key exists', async () => {
    const live = await createRootMerchant({ name: 'Live partner', ownerEmail: uniqueEmail(), ownerPassword: PASSWORD, mode: 'live' });
    expect(live.apiKey).toMatch(/^mor_live_/);
    const res = await call('GET', `${M}/${live.merchantId}`, { key: live.apiKey });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('auth.invalid_api_key');
  });
});

describe('merchants', () => {
  it("creates a sub-merchant under the key's merchant and returns a join link when no owner is named", async () => {
    const partner = await rootMerchant();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'Corner shop', websiteUrl: 'https://corner.example' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Corner shop', parentId: partner.merchantId, ownerAttached: false, websiteUrl: 'https://corner.example' });
    expect(res.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json.joinLink.url).toMatch(new RegExp(`/join/${res.json.id}\\.[0-9a-f]{64}$`));
  });

  it('refuses a parentId in the body with 400 and creates nothing', async () => {
    const partner = await rootMerchant();
    const other = await rootMerchant();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'Sneaky', parentId: other.merchantId } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400, code: 'request.validation_failed' });
    expect(await childrenOf(other.merchantId)).toHaveLength(0);
    expect(await childrenOf(partner.merchantId)).toHaveLength(0);
  });

  it("answers 409 when a sub-merchant's own key tries to create a merchant", async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const subKey = await call('POST', `${M}/${sub.id}/api-keys`, { key: partner.apiKey, body: { name: 'sub key' } });
    const res = await call('POST', M, { key: subKey.json.apiKey, body: { name: 'Grandchild' } });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('merchant.parent_is_sub_merchant');
    expect(await childrenOf(sub.id)).toHaveLength(0);
  });

  it("attaches an owner of the partner's team named at creation without writing an event", async () => {
    const partner = await rootMerchant();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'Owned', ownerEmail: partner.ownerEmail.toUpperCase() } });
    expect(res.status).toBe(201);
    expect(res.json.ownerAttached).toBe(true);
    expect(res.json.joinLink).toBeNull();
    expect(res.json.activation.steps[0]).toMatchObject({ key: 'owner_attached', done: true });
    expect(await eventItemsOf(res.json.id)).toHaveLength(0);
  });

  it('answers 422 for an owner e-mail no user signs in with, and creates nothing', async () => {
    const partner = await rootMerchant();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'Nobody', ownerEmail: uniqueEmail() } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('merchant.owner_not_found');
    expect(await childrenOf(partner.merchantId)).toHaveLength(0);
  });

  it("makes no one outside the partner's team an owner: a confirmed stranger's address is answered as an unknown one, and they get nothing", async () => {
    const partner = await rootMerchant();
    const stranger = await person();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'Not yours', ownerEmail: stranger.email } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: 'merchant.owner_not_found', details: { field: 'ownerEmail' } });
    expect(await childrenOf(partner.merchantId)).toHaveLength(0);
    expect((await call('GET', '/v1/dashboard/me', { key: stranger.token })).json.memberships).toEqual([]);
  });

  it('reads a merchant with ownerAttached and activation steps', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const res = await call('GET', `${M}/${sub.id}`, { key: partner.apiKey });
    expect(res.status).toBe(200);
    expect(res.json.ownerAttached).toBe(false);
    expect(res.json.activation.status).toBe('incomplete');
    expect(res.json.activation.steps.map((s: { key: string }) => s.key)).toEqual([
      'owner_attached',
      'website_set',
      'onboarding_submitted',
      'payout_method_added',
      'go_live',
    ]);
    expect(res.json).not.toHaveProperty('joinLink');
  });

  it('updates the website URL and marks the website step done', async () => {
    const partner = await rootMerchant();
    const res = await call('PATCH', `${M}/${partner.merchantId}`, { key: partner.apiKey, body: { websiteUrl: 'https://partner.example' } });
    expect(res.status).toBe(200);
    expect(res.json.websiteUrl).toBe('https://partner.example');
    expect(res.json.activation.steps.find((s: { key: string }) => s.key === 'website_set').done).toBe(true);
  });

  it.each([
    ['malformed JSON', { rawBody: '{"websiteUrl": ', headers: { 'content-type': 'application/json' } }, 'request.malformed_json'],
    ['a wrong type', { body: { websiteUrl: 42 } }, 'request.validation_failed'],
    ['an http URL', { body: { websiteUrl: 'http://partner.example' } }, 'request.validation_failed'],
    ['an over-long URL', { body: { websiteUrl: `https://p.example/${'a'.repeat(2100)}` } }, 'request.validation_failed'],
    ['an unknown field', { body: { websiteUrl: 'https://p.example', extra: 1 } }, 'request.validation_failed'],
    ['no body', {}, 'request.body_required'],
  ])('refuses %s with 400 and changes nothing', async (_, opts, code) => {
    const partner = await rootMerchant();
    const res = await call('PATCH', `${M}/${partner.merchantId}`, { key: partner.apiKey, ...opts });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400, code });
    const after = await call('GET', `${M}/${partner.merchantId}`, { key: partner.apiKey });
    expect(after.json.websiteUrl).toBeNull();
  });

  it('names the bad field in a validation error', async () => {
    const partner = await rootMerchant();
    const res = await call('POST', M, { key: partner.apiKey, body: { name: 'x', websiteUrl: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^websiteUrl: /);
    expect(res.json.details.issues[0].field).toBe('websiteUrl');
  });

  it('refuses an unknown enum value with 400', async () => {
    const partner = await rootMerchant();
    const sub = await subMerchant(partner.apiKey);
    const res = await call('POST', `${M}/${sub.id}/members`, { key: partner.apiKey, body: { email: partner.ownerEmail, role: 'superuser' } });
    expect(res.status).toBe(400);
    expect(res.json.details.issues[0].field).toBe('role');
  });
});

describe('scope', () => {
  it('answers unknown and foreign merchant ids with the same 403 and the same body', async () => {
    const a = await rootMerchant();
    const b = await rootMerchant();
    const bSub = await subMerchant(b.apiKey);
    const answers = await Promise.all([
      call('GET', `${M}/${b.merchantId}`, { key: a.apiKey }),
      call('GET', `${M}/${bSub.id}`, { key: a.apiKey }),
      call('GET', `${M}/00000000-0000-4000-8000-000000000000`, { key: a.apiKey }),
      call('GET', `${M}/not-even-a-uuid`, { key: a.apiKey }),
      call('PATCH', `${M}/${b.merchantId}`, { key: a.apiKey, body: { websiteUrl: 'https://evil.example' } }),
      call('GET', `${M}/${b.merchantId}/api-keys`, { key: a.apiKey }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.text).toBe(answers[0]!.text);
    }
    expect(answers[0]!.json).toMatchObject({ statusCode: 403, code: 'forbidden' });
    const bAfter = await call('GET', `${M}/${b.merchantId}`, { key: b.apiKey });
    expect(bAfter.json.websiteUrl).toBeNull();
  });

  it('lets a parent key reach its sub-merchants but not a sub-merchant key reach its parent or siblings', async () => {
    const partner = await rootMerchant();
    const s1 = await subMerchant(partner.apiKey);
    const s2 = await subMerchant(partner.apiKey);
    const s1Key = (await call('POST', `${M}/${s1.id}/api-keys`, { key: partner.apiKey, body: { name: 's1' } })).json.apiKey;
    expect((await call('GET', `${M}/${s1.id}`, { key: partner.apiKey })).status).toBe(200);
    expect((await call('GET', `${M}/${s1.id}`, { key: s1Key })).status).toBe(200);
    expect((await call('GET', `${M}/${partner.merchantId}`, { key: s1Key })).status).toBe(403);
    expect((await call('GET', `${M}/${s2.id}`, { key: s1Key })).status).toBe(403);
  });
});

describe('ids that cannot exist', () => {
  it('answers an over-long or malformed merchant id with the scope 403, and a malformed key id with 404, never 500', async () => {
    const partner = await rootMerchant();
    const long = 'x'.repeat(3000);
    const forbidden = await call('GET', `${M}/${long}`, { key: partner.apiKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.code).toBe('forbidden');
    const revoke = await call('DELETE', `${M}/${partner.merchantId}/api-keys/${long}`, { key: partner.apiKey });
    expect(revoke.status).toBe(404);
    expect(revoke.json.code).toBe('api_key.not_found');
  });
});

describe('API keys', () => {
  it('creates a sandbox key shown once, lists summaries without secrets, and revokes with 204', async () => {
    const partner = await rootMerchant();
    const created = await call('POST', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey, body: { name: 'CI key' } });
    expect(created.status).toBe(201);
    expect(created.json.apiKey).toMatch(/^mor_test_[0-9a-f]{64}$/);
    expect(created.json).toMatchObject({ name: 'CI key', mode: 'test', lastUsedAt: null, revokedAt: null });
    expect(created.json.hint).toBe(`mor_test_…${created.json.apiKey.slice(-4)}`);

    // The new key works, and records its use.
    expect((await call('GET', `${M}/${partner.merchantId}`, { key: created.json.apiKey })).status).toBe(200);

    const list = await call('GET', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey });
    expect(list.status).toBe(200);
    expect(list.json.map((k: { id: string }) => k.id)).toContain(created.json.id);
    expect(list.text).not.toMatch(/mor_test_[0-9a-f]{64}/);
    expect(list.text).not.toContain(created.json.apiKey.slice(9));
    const summary = list.json.find((k: { id: string }) => k.id === created.json.id);
    expect(Object.keys(summary).sort()).toEqual(['createdAt', 'hint', 'id', 'lastUsedAt', 'mode', 'name', 'revokedAt']);
    expect(summary.lastUsedAt).not.toBeNull();

    const revoked = await call('DELETE', `${M}/${partner.merchantId}/api-keys/${created.json.id}`, { key: partner.apiKey });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');

    const refused = await call('GET', `${M}/${partner.merchantId}`, { key: created.json.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('auth.invalid_api_key');

    const after = await call('GET', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey });
    expect(after.json.find((k: { id: string }) => k.id === created.json.id).revokedAt).not.toBeNull();
  });

  it('answers 204 to revoking a revoked key again, keeping its first revokedAt', async () => {
    const partner = await rootMerchant();
    const created = await call('POST', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey, body: { name: 'twice' } });
    const path = `${M}/${partner.merchantId}/api-keys/${created.json.id}`;
    expect((await call('DELETE', path, { key: partner.apiKey })).status).toBe(204);
    const first = (await getApiKey(created.json.id))!.revokedAt;
    expect(first).not.toBeNull();

    const again = await call('DELETE', path, { key: partner.apiKey });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    expect((await getApiKey(created.json.id))!.revokedAt).toBe(first);
  });

  it('answers 204 to 20 concurrent revokes of one key and stores one revokedAt', async () => {
    const partner = await rootMerchant();
    const created = await call('POST', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey, body: { name: 'raced' } });
    const path = `${M}/${partner.merchantId}/api-keys/${created.json.id}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('DELETE', path, { key: partner.apiKey })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));

    const stored = (await getApiKey(created.json.id))!.revokedAt;
    expect(stored).not.toBeNull();
    // Exactly one revoke wrote: a later one changes nothing, and the list shows the same instant.
    expect((await call('DELETE', path, { key: partner.apiKey })).status).toBe(204);
    expect((await getApiKey(created.json.id))!.revokedAt).toBe(stored);
    const list = await call('GET', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey });
    expect(list.json.find((k: { id: string }) => k.id === created.json.id).revokedAt).toBe(stored);
  });

  it("does not reveal or revoke another merchant's key through your own merchant path", async () => {
    const a = await rootMerchant();
    const b = await rootMerchant();
    const res = await call('DELETE', `${M}/${a.merchantId}/api-keys/${b.apiKeyId}`, { key: a.apiKey });
    expect(res.status).toBe(404);
    expect((await call('GET', `${M}/${b.merchantId}`, { key: b.apiKey })).status).toBe(200);
  });

  it('lets a key revoke itself, and refuses it from the next request on', async () => {
    const partner = await rootMerchant();
    expect((await call('DELETE', `${M}/${partner.merchantId}/api-keys/${partner.apiKeyId}`, { key: partner.apiKey })).status).toBe(204);
    expect((await call('GET', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey })).status).toBe(401);
  });

  it('refuses an over-long key name with 400', async () => {
    const partner = await rootMerchant();
    expect((await call('POST', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey, body: { name: 'k'.repeat(100) } })).status).toBe(201);
    expect((await call('POST', `${M}/${partner.merchantId}/api-keys`, { key: partner.apiKey, body: { name: 'k'.repeat(101) } })).status).toBe(400);
  });
});
