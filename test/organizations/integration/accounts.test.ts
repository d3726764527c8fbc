import { describe, expect, it } from 'vitest';
import { getAccount, getOrgApiKey, listOrgApiKeys, rotateOrgApiKey } from '../../../shared/organizations/accounts.repository.ts';
import { type AccountSecretPrincipal, createAccount, ROTATION_QUIET_SECONDS, rotateKey } from '../../../shared/organizations/accounts.service.ts';
import { call, orgCall } from '../../support/fixtures.ts';

const A = '/v1/public-api/accounts';
const HEX64 = /^[0-9a-f]{64}$/;

/** A fresh account as the operator CLI makes it: not activated, with its one-time secret. */
const newAccount = () => createAccount({ name: 'Backend', mode: 'test' });

async function activeAccount() {
  const account = await newAccount();
  const res = await call('POST', `${A}/${account.accountId}/activate`, { body: { secret: account.secret } });
  expect(res.status).toBe(200);
  return account;
}

async function issueKey(account: { accountId: string; secret: string }) {
  const res = await call('POST', `${A}/${account.accountId}/api-keys`, { body: { secret: account.secret } });
  expect(res.status).toBe(201);
  return { id: res.json.data.id as string, fullKey: res.json.data.apiKey as string };
}

const readKey = (accountId: string, keyId: string, fullKey: string) => orgCall('GET', `${A}/${accountId}/api-keys/${keyId}`, { fullKey });
const revoke = (accountId: string, keyId: string, fullKey: string) => orgCall('DELETE', `${A}/${accountId}/api-keys/${keyId}`, { fullKey });

describe('account activation and secrets', () => {
  it('activates an account once with its secret; activating again is a 409 that changes nothing', async () => {
    const account = await newAccount();
    const res = await call('POST', `${A}/${account.accountId}/activate`, { body: { secret: account.secret } });
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({ id: account.accountId, name: 'Backend', userType: 'service', apiKey: null, deletedAt: null });
    expect(Date.parse(res.json.data.activatedAt)).not.toBeNaN();
    expect(res.text).not.toContain(account.secret);

    const again = await call('POST', `${A}/${account.accountId}/activate`, { body: { secret: account.secret } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ errorCode: 'account.already_activated', statusCode: 409 });
    expect((await getAccount(account.accountId))!.activatedAt).toBe(res.json.data.activatedAt);
  });

  it('refuses a wrong secret and an unknown account alike with 401, and activates nothing', async () => {
    const account = await newAccount();
    const wrong = await call('POST', `${A}/${account.accountId}/activate`, { body: { secret: 'f'.repeat(64) } });
    const unknown = await call('POST', `${A}/00000000-0000-4000-8000-000000000000/activate`, { body: { secret: account.secret } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.errorCode).toBe('auth.invalid_secret');
    expect(unknown.text).toBe(wrong.text);
    expect((await getAccount(account.accountId))!.activatedAt).toBeNull();
  });

  it('refuses to issue a key before activation with 409 account.not_activated, and issues none', async () => {
    const account = await newAccount();
    const res = await call('POST', `${A}/${account.accountId}/api-keys`, { body: { secret: account.secret } });
    expect(res.status).toBe(409);
    expect(res.json.errorCode).toBe('account.not_activated');
    expect(await listOrgApiKeys(account.accountId)).toHaveLength(0);
  });

  it('changes the secret: the old one is refused from then on and the new one works', async () => {
    const account = await activeAccount();
    const newSecret = 'a brand new account secret!';
    const res = await call('POST', `${A}/${account.accountId}/secret`, { body: { secret: account.secret, newSecret } });
    expect(res.status).toBe(200);
    expect(res.json.data.id).toBe(account.accountId);
    expect(res.text).not.toContain(newSecret);

    const withOld = await call('POST', `${A}/${account.accountId}/api-keys`, { body: { secret: account.secret } });
    expect(withOld.status).toBe(401);
    expect(withOld.json.errorCode).toBe('auth.invalid_secret');
    expect(await listOrgApiKeys(account.accountId)).toHaveLength(0);
    expect((await call('POST', `${A}/${account.accountId}/api-keys`, { body: { secret: newSecret } })).status).toBe(201);
  });

  it('takes a new secret of 24 to 128 characters and refuses 23 and 129 with 400', async () => {
    const account = await activeAccount();
    const change = (secret: string, newSecret: string) => call('POST', `${A}/${account.accountId}/secret`, { body: { secret, newSecret } });
    const short = await change(account.secret, 's'.repeat(23));
    expect(short.status).toBe(400);
    expect(short.json.errorCode).toBe('request.validation_failed');
    expect((await change(account.secret, 'l'.repeat(129))).status).toBe(400);
    expect((await change(account.secret, 's'.repeat(24))).status).toBe(200);
    expect((await change('s'.repeat(24), 'l'.repeat(128))).status).toBe(200);
    expect((await change('l'.repeat(128), 'x'.repeat(24))).status).toBe(200);
  });
});

describe('account API keys', () => {
  it('issues a key whose full key is shown once, authenticates with it, and never shows its secret again', async () => {
    const account = await activeAccount();
    const res = await call('POST', `${A}/${account.accountId}/api-keys`, { body: { secret: account.secret } });
    expect(res.status).toBe(201);
    const { id, apiKey } = res.json.data;
    const [accountPart, secretPart, idPart] = apiKey.split('_');
    expect(accountPart).toBe(account.accountId);
    expect(secretPart).toMatch(HEX64);
    expect(idPart).toBe(id);
    expect(res.json.data).toMatchObject({ accountId: account.accountId, revokedAt: null, rotatedAt: null, deletedAt: null });

    const read = await readKey(account.accountId, id, apiKey);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual({
      id,
      accountId: account.accountId,
      createdAt: res.json.data.createdAt,
      updatedAt: res.json.data.updatedAt,
      deletedAt: null,
      revokedAt: null,
      rotatedAt: null,
    });
    expect(read.text).not.toContain(secretPart);
    expect(JSON.stringify(await getOrgApiKey(id))).not.toContain(secretPart);
  });

  it('rotates a key: the old full key is refused, the new one works under the same id, and rotatedAt is set', async () => {
    const account = await activeAccount();
    const key = await issueKey(account);
    const res = await call('POST', `${A}/${account.accountId}/api-keys/${key.id}/rotate`, { body: { secret: account.secret } });
    expect(res.status).toBe(200);
    expect(res.json.data.id).toBe(key.id);
    expect(res.json.data.apiKey).not.toBe(key.fullKey);
    expect(Date.parse(res.json.data.rotatedAt)).not.toBeNaN();

    const old = await readKey(account.accountId, key.id, key.fullKey);
    expect(old.status).toBe(401);
    expect(old.json.errorCode).toBe('auth.invalid_api_key');
    const fresh = await readKey(account.accountId, key.id, res.json.data.apiKey);
    expect(fresh.status).toBe(200);
    expect(fresh.json.data.rotatedAt).toBe(res.json.data.rotatedAt);
  });

  it('answers one working key when ten rotations of a key race: the others are 409 api_key.changed and answer no key', async () => {
    const account = await activeAccount();
    const key = await issueKey(account);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `${A}/${account.accountId}/api-keys/${key.id}/rotate`, { body: { secret: account.secret } })),
    );
    // One wins, however the platform orders them (at once, or one after the other a few milliseconds apart).
    const won = answers.filter((r) => r.status === 200);
    expect(won, JSON.stringify(answers.map((r) => r.status))).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(r.json.errorCode).toBe('api_key.changed');
      expect(r.text).not.toContain('apiKey');
    }
    // The key answered works.
    expect((await readKey(account.accountId, key.id, won[0]!.json.data.apiKey as string)).status).toBe(200);

    // The interleaving that made several answers with one dead key: a rotation that read the key before another
    // rotation wrote it is refused, and writes nothing.
    const read = (await getOrgApiKey(key.id))!;
    const later = new Date(Date.now() + ROTATION_QUIET_SECONDS * 1000).toISOString();
    const between = await rotateKey({ account: (await getAccount(account.accountId))! } as AccountSecretPrincipal, key.id, later);
    expect(await rotateOrgApiKey(read, 'f'.repeat(64), later)).toBeNull();
    expect((await readKey(account.accountId, key.id, between.apiKey)).status).toBe(200);
  });

  it('refuses to rotate with a wrong secret (401) and a revoked key (404), leaving the key as it was', async () => {
    const account = await activeAccount();
    const key = await issueKey(account);
    const other = await issueKey(account);
    const wrong = await call('POST', `${A}/${account.accountId}/api-keys/${key.id}/rotate`, { body: { secret: 'w'.repeat(64) } });
    expect(wrong.status).toBe(401);
    expect((await readKey(account.accountId, key.id, key.fullKey)).status).toBe(200);

    expect((await revoke(account.accountId, key.id, other.fullKey)).status).toBe(200);
    const rotated = await call('POST', `${A}/${account.accountId}/api-keys/${key.id}/rotate`, { body: { secret: account.secret } });
    expect(rotated.status).toBe(404);
    expect(rotated.json.errorCode).toBe('api_key.not_found');
    expect((await getOrgApiKey(key.id))!.rotatedAt).toBeNull();
  });

  it('revokes a key (updatedAt with it): revoking again answers the same record with the same revokedAt, and the key is refused', async () => {
    const account = await activeAccount();
    const key = await issueKey(account);
    const admin = await issueKey(account);
    const first = await revoke(account.accountId, key.id, admin.fullKey);
    expect(first.status).toBe(200);
    expect(Date.parse(first.json.data.revokedAt)).not.toBeNaN();
    expect(first.json.data.updatedAt).toBe(first.json.data.revokedAt);
    const second = await revoke(account.accountId, key.id, admin.fullKey);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);

    const refused = await readKey(account.accountId, key.id, key.fullKey);
    expect(refused.status).toBe(401);
    expect(refused.json.errorCode).toBe('auth.invalid_api_key');
    expect((await readKey(account.accountId, key.id, admin.fullKey)).json.data.revokedAt).toBe(first.json.data.revokedAt);
  });

  it('stores one revokedAt when ten revokes of the same key race', async () => {
    const account = await activeAccount();
    const key = await issueKey(account);
    const admin = await issueKey(account);
    const answers = await Promise.all(Array.from({ length: 10 }, () => revoke(account.accountId, key.id, admin.fullKey)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const revokedAts = new Set(answers.map((a) => a.json.data.revokedAt));
    expect(revokedAts.size).toBe(1);
    expect((await getOrgApiKey(key.id))!.revokedAt).toBe([...revokedAts][0]);
  });

  it("gives a key of account A 403 on account B's key routes, and B's key stays as it was", async () => {
    const a = await activeAccount();
    const b = await activeAccount();
    const aKey = await issueKey(a);
    const bKey = await issueKey(b);
    const read = await readKey(b.accountId, bKey.id, aKey.fullKey);
    const del = await revoke(b.accountId, bKey.id, aKey.fullKey);
    expect(read.status).toBe(403);
    expect(read.json.errorCode).toBe('forbidden');
    expect(del.status).toBe(403);
    expect(del.text).toBe(read.text);
    expect((await getOrgApiKey(bKey.id))!.revokedAt).toBeNull();
    expect((await readKey(b.accountId, bKey.id, bKey.fullKey)).status).toBe(200);
  });

  it("answers 404 for another account's key id under the caller's own path, and revokes nothing", async () => {
    const a = await activeAccount();
    const b = await activeAccount();
    const aKey = await issueKey(a);
    const bKey = await issueKey(b);
    const read = await readKey(a.accountId, bKey.id, aKey.fullKey);
    expect(read.status).toBe(404);
    expect(read.json.errorCode).toBe('api_key.not_found');
    expect((await revoke(a.accountId, bKey.id, aKey.fullKey)).status).toBe(404);
    expect((await readKey(a.accountId, 'not-a-key-id', aKey.fullKey)).status).toBe(404);
    expect((await getOrgApiKey(bKey.id))!.revokedAt).toBeNull();
  });

  it("shows the newest usable key's id as the account's apiKey, never a secret", async () => {
    const account = await activeAccount();
    const first = await issueKey(account);
    const second = await issueKey(account);
    const newSecret = 'another long account secret';
    const res = await call('POST', `${A}/${account.accountId}/secret`, { body: { secret: account.secret, newSecret } });
    expect(res.json.data.apiKey).toBe(second.id);
    expect(res.text).not.toContain(second.fullKey.split('_')[1]);
    expect((await revoke(account.accountId, second.id, first.fullKey)).status).toBe(200);
    const after = await call('POST', `${A}/${account.accountId}/secret`, { body: { secret: newSecret, newSecret: account.secret } });
    expect(after.json.data.apiKey).toBe(first.id);
  });
});
