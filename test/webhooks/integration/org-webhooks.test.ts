import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { putNewAccountLink, revokeOrgApiKey } from '../../../shared/organizations/accounts.repository.ts';
import { authenticateOrgApiKey } from '../../../shared/organizations/accounts.service.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import * as accountWebhookDestinationKeys from '../../../shared/webhooks/account-webhook-destination.entity.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { listDeliveries } from '../../../shared/webhooks/webhooks.repository.ts';
import type { Delivery } from '../../../shared/webhooks/delivery.entity.ts';
import { samplePayload, type EventPayload, type EventType } from '../../../shared/platform/events/catalog.ts';
import { emitEvent, type PaymentEventExtra } from '../../../shared/platform/events/outbox.ts';
import { organizationWebhookEvent } from '../../../shared/webhooks/org-webhooks.schemas.ts';
import { listAccountDestinations } from '../../../shared/webhooks/org-webhooks.repository.ts';
import { accountSubscribersOf, createDestination as createAccountDestination } from '../../../shared/webhooks/org-webhooks.service.ts';
import { createDestination as createMerchantDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { openPassword } from '../../../shared/webhooks/basic-auth.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { organizationAccount, orgCall, unlinkedAccount } from '../../support/fixtures.ts';
import { eventually, startReceiver, type Reply } from '../../support/receiver.ts';

const WD = '/v1/webhook-destinations';
const PASSWORD = 'receiver-pa55word-ü';
const BOTH = ['transaction-processed', 'transaction-declined'];
/** A loopback receiver URL nothing answers on (for tests that never deliver). */
const UNUSED_RECEIVER = 'http://127.0.0.1:9999/x';

type Caller = { fullKey: string; accountId: string };

const create = (c: Caller, body: unknown) => orgCall('POST', WD, { fullKey: c.fullKey, body });
const get = (c: Caller, id: string) => orgCall('GET', `${WD}/${id}`, { fullKey: c.fullKey });
const patch = (c: Caller, id: string, body: unknown) => orgCall('PATCH', `${WD}/${id}`, { fullKey: c.fullKey, body });
const remove = (c: Caller, id: string) => orgCall('DELETE', `${WD}/${id}`, { fullKey: c.fullKey });
const list = (c: Caller, query = '') => orgCall('GET', `${WD}${query}`, { fullKey: c.fullKey });

async function created(c: Caller, body: Record<string, unknown>) {
  const res = await create(c, body);
  if (res.status !== 201) throw new Error(`destination creation failed: ${res.status} ${res.text}`);
  return res.json.data as { id: string; secret: string; [k: string]: unknown };
}

const rawItem = async (accountId: string, id: string) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: accountWebhookDestinationKeys.accountWebhookDestinationKey(accountId, id) }))).Item;

const receivers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(answer?: (n: number) => Reply) {
  const r = await startReceiver(answer && ((_, n) => answer(n)));
  receivers.push(r);
  return r;
}

/** A catalog event of the organization, written to the outbox the way the operator CLI writes it. */
async function emit<T extends EventType>(organizationId: string, type: T, extra?: PaymentEventExtra, payload: Partial<EventPayload<T>> = {}) {
  const merchant = (await getMerchant(organizationId))!;
  const now = new Date().toISOString();
  return emitEvent(type, merchant, { ...samplePayload(type, organizationId, now), ...payload } as never, now, extra as never);
}

/** The finished delivery record of (event, destination). */
const delivered = (destinationId: string, eventId: string) =>
  eventually(
    async () => {
      const { items } = await listDeliveries(destinationId, 100);
      return items.find((d: Delivery) => d.eventId === eventId && d.status !== 'sending');
    },
    25_000,
    `delivery of ${eventId}`,
  );

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;

describe('organization webhook destinations: create and read', () => {
  it('creates a destination with basic auth in the object envelope with 201, showing its signing secret once and never the password', async () => {
    const org = await organizationAccount();
    const res = await create(org, { url: 'http://127.0.0.1:9999/hooks', auth: { type: 'basic', username: 'hook-user', password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: expect.stringMatching(/^whd_[0-9a-f]{32}$/),
        url: 'http://127.0.0.1:9999/hooks',
        auth: { type: 'basic', username: 'hook-user' },
        eventTypes: BOTH,
        circuit: { state: 'closed', consecutiveFailures: 0, openedAt: null },
        createdAt: expect.any(String),
        updatedAt: res.json.data.createdAt,
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(res.text).not.toContain(PASSWORD);
    const { secret, ...record } = res.json.data;

    const read = await get(org, record.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ type: 'object', data: record });
    const all = await list(org);
    expect(all.json).toEqual({ type: 'list', totalCount: 1, paginationMeta: { limit: 20, offset: 0 }, data: [record] });
    for (const answer of [read, all]) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain(PASSWORD);
    }
  });

  it('stores the password sealed and the signing secret not at all', async () => {
    const org = await organizationAccount();
    const auth = { type: 'basic', username: 'hook-user', password: PASSWORD };
    const [a, b] = [await created(org, { url: UNUSED_RECEIVER, auth }), await created(org, { url: UNUSED_RECEIVER, auth })];
    const [itemA, itemB] = [await rawItem(org.accountId, a.id), await rawItem(org.accountId, b.id)];
    for (const [item, d] of [
      [itemA, a],
      [itemB, b],
    ] as const) {
      const raw = JSON.stringify(item);
      expect(raw).not.toContain(PASSWORD);
      expect(raw).not.toContain(Buffer.from(PASSWORD, 'utf8').toString('base64'));
      expect(raw).not.toContain(basic('hook-user', PASSWORD).slice(6));
      expect(raw).not.toContain(d.secret);
      expect(item!.auth).toEqual({ type: 'basic', username: 'hook-user', sealedPassword: expect.stringMatching(/^v1\./) });
    }
    // A fresh IV each time, and each sealed value opens only for the destination it was sealed for.
    expect(itemA!.auth.sealedPassword).not.toBe(itemB!.auth.sealedPassword);
    expect(await openPassword(itemA!.auth.sealedPassword, { accountId: org.accountId, destinationId: a.id })).toBe(PASSWORD);
    await expect(openPassword(itemA!.auth.sealedPassword, { accountId: org.accountId, destinationId: b.id })).rejects.toThrow();
  });

  it('subscribes to both event types when none are given, and to the ones given otherwise; auth is null without credentials', async () => {
    const org = await organizationAccount();
    const all = await created(org, { url: UNUSED_RECEIVER });
    expect(all).toMatchObject({ eventTypes: BOTH, auth: null });
    const declinedOnly = await created(org, { url: UNUSED_RECEIVER, eventTypes: ['transaction-declined'] });
    expect(declinedOnly.eventTypes).toEqual(['transaction-declined']);
  });

  it('stores the URL in its normalised form', async () => {
    const org = await organizationAccount();
    const d = await created(org, { url: 'HTTP://LOCALHOST:9999/a/../hooks?token=abc' });
    expect(d.url).toBe('http://localhost:9999/hooks?token=abc');
    expect((await rawItem(org.accountId, d.id))!.url).toBe('http://localhost:9999/hooks?token=abc');
  });

  it('refuses forbidden URLs with 422 webhook.url_forbidden and creates nothing', async () => {
    const org = await organizationAccount();
    const port = (url: string) => new URL(url).port;
    const forbidden = [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest',
      'https://192.168.1.20/x',
      'http://example.com/hook',
      'https://[::ffff:127.0.0.1]/x',
      'https://localhost/x',
      'https://93.184.216.34:22/x',
      'not a url',
      'ftp://example.com/x',
      'https://user:pass@example.com/x',
      `http://127.0.0.1:${port(inject('baseUrl'))}/api/v1/webhook-destinations`,
      `http://127.0.0.1:${port(inject('dynamoEndpoint'))}/`,
    ];
    for (const url of forbidden) {
      const res = await create(org, { url });
      expect(res.status, url).toBe(422);
      expect(res.json.errorCode, url).toBe('webhook.url_forbidden');
    }
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('refuses malformed bodies with 400 request.validation_failed and creates nothing, and takes user names and passwords of 255 characters', async () => {
    const org = await organizationAccount();
    const auth = (over: Record<string, unknown>) => ({ url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'u', password: 'p', ...over } });
    const bad: unknown[] = [
      {},
      { url: '' },
      { url: 42 },
      auth({ type: 'bearer' }),
      { url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'u' } },
      auth({ username: '' }),
      auth({ username: 'a:b' }),
      auth({ username: 'a'.repeat(256) }),
      auth({ password: 'p'.repeat(256) }),
      auth({ password: 'line\nbreak' }),
      auth({ extra: true }),
      { url: UNUSED_RECEIVER, eventTypes: [] },
      { url: UNUSED_RECEIVER, eventTypes: ['payment.completed'] },
      { url: UNUSED_RECEIVER, eventTypes: ['transaction-processed', 'transaction-processed'] },
      { url: UNUSED_RECEIVER, headers: { 'X-Token': 'a' } },
    ];
    for (const body of bad) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    const malformed = await orgCall('POST', WD, { fullKey: org.fullKey, rawBody: '{"url":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errorCode).toBe('request.malformed_json');
    expect((await list(org)).json.totalCount).toBe(0);

    const atLimit = await create(org, auth({ username: 'a'.repeat(255), password: 'p'.repeat(255) }));
    expect(atLimit.status).toBe(201);
    expect(atLimit.json.data.auth.username).toHaveLength(255);
  });

  it('refuses calls without a valid key with 401', async () => {
    const org = await organizationAccount();
    const d = await created(org, { url: UNUSED_RECEIVER });
    const missing = await orgCall('GET', WD);
    expect(missing.status).toBe(401);
    expect(missing.json.errorCode).toBe('auth.missing_api_key');
    const wrong = await orgCall('GET', `${WD}/${d.id}`, { fullKey: `${org.accountId}_${'0'.repeat(64)}_${org.apiKeyId}` });
    expect(wrong.status).toBe(401);
    expect(wrong.json.errorCode).toBe('auth.invalid_api_key');
  });

  it('makes nothing with a key revoked after the request passed its key check: 401 auth.invalid_api_key, no destination, none counted', async () => {
    const org = await organizationAccount();
    // The request's key check passes; the key is revoked (by its account, or by a takeover of the person who made the
    // account) before the request writes.
    const caller = await authenticateOrgApiKey(`ApiKey ${org.fullKey}`);
    expect(await revokeOrgApiKey(org.accountId, org.apiKeyId, new Date().toISOString())).toMatchObject({ revokedAt: expect.any(String) });
    await expect(createAccountDestination(caller, { url: UNUSED_RECEIVER })).rejects.toMatchObject({ code: 'auth.invalid_api_key', status: 401 });
    expect(await listAccountDestinations(org.accountId, { consistent: true })).toEqual([]);
    const count = await db.send(
      new GetCommand({ TableName: tableName(), Key: accountWebhookDestinationKeys.accountWebhookCountKey(org.accountId), ConsistentRead: true }),
    );
    expect(count.Item).toBeUndefined();
  });
});

describe('organization webhook destinations: update, delete, list', () => {
  it('changes url, credentials and event types; null removes the credentials; createdAt stays and updatedAt moves', async () => {
    const org = await organizationAccount();
    const d = await created(org, { url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'old-user', password: 'old-password' } });
    const before = await rawItem(org.accountId, d.id);

    const res = await patch(org, d.id, {
      url: 'http://127.0.0.1:9998/new',
      auth: { type: 'basic', username: 'new-user', password: PASSWORD },
      eventTypes: ['transaction-declined'],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: d.id,
        url: 'http://127.0.0.1:9998/new',
        auth: { type: 'basic', username: 'new-user' },
        eventTypes: ['transaction-declined'],
        circuit: { state: 'closed', consecutiveFailures: 0, openedAt: null },
        createdAt: d.createdAt,
        updatedAt: expect.any(String),
      },
    });
    expect(res.json.data.updatedAt > (d.createdAt as string)).toBe(true);
    expect(res.text).not.toContain(PASSWORD);
    const after = await rawItem(org.accountId, d.id);
    expect(after!.auth.sealedPassword).not.toBe(before!.auth.sealedPassword);
    expect(await openPassword(after!.auth.sealedPassword, { accountId: org.accountId, destinationId: d.id })).toBe(PASSWORD);
    expect((await get(org, d.id)).json).toEqual(res.json);

    const urlOnly = await patch(org, d.id, { url: UNUSED_RECEIVER });
    expect(urlOnly.json.data).toMatchObject({ url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'new-user' }, eventTypes: ['transaction-declined'] });

    const cleared = await patch(org, d.id, { auth: null });
    expect(cleared.json.data.auth).toBeNull();
    expect((await rawItem(org.accountId, d.id))!.auth).toBeUndefined();
  });

  it('refuses an empty, malformed or forbidden update and changes nothing', async () => {
    const org = await organizationAccount();
    const d = await created(org, { url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'user', password: PASSWORD } });
    const before = await rawItem(org.accountId, d.id);
    for (const [body, status, code] of [
      [{}, 400, 'request.validation_failed'],
      [{ auth: { type: 'basic', username: 'only-user' } }, 400, 'request.validation_failed'],
      [{ eventTypes: [] }, 400, 'request.validation_failed'],
      [{ id: 'whd_x' }, 400, 'request.validation_failed'],
      [{ url: 'https://10.1.2.3/x', eventTypes: ['transaction-declined'] }, 422, 'webhook.url_forbidden'],
    ] as const) {
      const res = await patch(org, d.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.errorCode).toBe(code);
    }
    expect(await rawItem(org.accountId, d.id)).toEqual(before);
  });

  it('deletes a destination and answers it; after that it is 404 webhook.not_found and no longer listed', async () => {
    const org = await organizationAccount();
    const d = await created(org, { url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'user', password: PASSWORD } });
    const { secret: _secret, ...record } = d;
    const res = await remove(org, d.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 'object', data: record });
    for (const again of [await remove(org, d.id), await get(org, d.id), await patch(org, d.id, { url: UNUSED_RECEIVER })]) {
      expect(again.status).toBe(404);
      expect(again.json.errorCode).toBe('webhook.not_found');
    }
    expect((await list(org)).json.totalCount).toBe(0);
    expect(await rawItem(org.accountId, d.id)).toBeUndefined();
  });

  it("lists only the calling account's destinations, by creation time, paged", async () => {
    const org = await organizationAccount();
    const other = await organizationAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await created(org, { url: `http://127.0.0.1:9999/${i}` })).id);
    await created(other, { url: UNUSED_RECEIVER });

    const newest = await list(org, '?limit=2');
    expect(newest.json.totalCount).toBe(3);
    expect(newest.json.paginationMeta).toEqual({ limit: 2, offset: 0 });
    expect(newest.json.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const second = await list(org, '?sortDirection=asc&offset=1&limit=1');
    expect(second.json.data.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
    expect((await list(org, '?offset=5')).json).toMatchObject({ totalCount: 3, data: [] });
    expect((await list(org, '?limit=0')).json).toMatchObject({ totalCount: 3, data: [] });
    expect((await list(other)).json.totalCount).toBe(1);

    for (const query of ['?limit=101', '?offset=-1', '?sortDirection=up', '?sortBy=url']) {
      const res = await list(org, query);
      expect(res.status, query).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_query');
    }
  });

  it("answers another account's destination id, and ids that cannot exist, with 404 webhook.not_found and changes nothing", async () => {
    const owner = await organizationAccount();
    const stranger = await unlinkedAccount();
    const d = await created(owner, { url: UNUSED_RECEIVER, auth: { type: 'basic', username: 'user', password: PASSWORD } });
    const before = await rawItem(owner.accountId, d.id);
    for (const id of [d.id, `whd_${'0'.repeat(32)}`, 'x'.repeat(3000), 'wh_0123456789abcdef01234567']) {
      for (const res of [await get(stranger, id), await patch(stranger, id, { url: UNUSED_RECEIVER }), await remove(stranger, id)]) {
        expect(res.status, id.slice(0, 40)).toBe(404);
        expect(res.json.errorCode).toBe('webhook.not_found');
      }
    }
    expect(await rawItem(owner.accountId, d.id)).toEqual(before);
    expect((await list(stranger)).json.totalCount).toBe(0);
    expect((await get(owner, d.id)).status).toBe(200);
  });

  it('limits an account to 10 destinations, also when the last two are created at once; a delete frees a place', async () => {
    const org = await organizationAccount();
    for (let i = 0; i < 9; i++) await created(org, { url: UNUSED_RECEIVER });
    const race = await Promise.all([create(org, { url: UNUSED_RECEIVER }), create(org, { url: UNUSED_RECEIVER })]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(race.find((r) => r.status === 422)!.json.errorCode).toBe('webhook.destination_limit_reached');
    const all = await list(org, '?limit=100');
    expect(all.json.totalCount).toBe(10);

    const eleventh = await create(org, { url: UNUSED_RECEIVER });
    expect(eleventh.status).toBe(422);
    expect(eleventh.json.errorCode).toBe('webhook.destination_limit_reached');
    expect((await list(org)).json.totalCount).toBe(10);

    expect((await remove(org, all.json.data[0].id)).status).toBe(200);
    expect((await create(org, { url: UNUSED_RECEIVER })).status).toBe(201);
    expect((await list(org)).json.totalCount).toBe(10);
  });
});

describe('organization webhook delivery through the local pipeline', () => {
  it('delivers transaction-processed for payment.completed with basic auth, a valid signature and the organization-face envelope', async () => {
    const org = await organizationAccount();
    const r = await receiver();
    const d = await created(org, { url: `${r.url}/hooks`, auth: { type: 'basic', username: 'hook-user', password: PASSWORD } });
    const event = await emit(org.organizationId, 'payment.completed');
    const got = await eventually(() => r.received[0], 20_000, 'the delivery');

    expect(got.path).toBe('/hooks');
    expect(got.headers.authorization).toBe(basic('hook-user', PASSWORD));
    expect(got.headers['content-type']).toBe('application/json');
    // The organization face's own type (its body's `type`) and the event's id (its body's `id`).
    expect(got.headers['x-webhook-event']).toBe('transaction-processed');
    expect(got.headers['x-webhook-id']).toBe(event.id);
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: d.secret, toleranceSeconds: 300 })).toMatchObject({
      ok: true,
    });
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: 'f'.repeat(64) }).ok).toBe(false);

    const body = JSON.parse(got.rawBody.toString('utf8'));
    const p = event.payload;
    expect(body).toEqual({
      id: event.id,
      type: 'transaction-processed',
      createdAt: event.occurredAt,
      organizationId: org.organizationId,
      data: {
        transactionId: p.transactionId,
        externalTransactionId: p.externalTransactionId,
        status: 'completed',
        amount: 49.99,
        currency: 'USD',
        declineReason: null,
        customerId: p.customerId,
        orderId: p.orderId,
        subscriptionId: null,
      },
    });
    expect(v.safeParse(organizationWebhookEvent, body).success).toBe(true);
    expect(await delivered(d.id, event.id)).toMatchObject({ status: 'succeeded', httpStatus: 200, merchantId: org.organizationId });
  });

  it('delivers transaction-declined for payment.failed with the amount and decline reason of the event, only to destinations subscribed to it, and leaves the merchant body bare', async () => {
    const org = await organizationAccount();
    const declined = await receiver();
    const processed = await receiver();
    const merchantReceiver = await receiver();
    const d = await created(org, { url: declined.url, eventTypes: ['transaction-declined'] });
    await created(org, { url: processed.url, eventTypes: ['transaction-processed'] });
    await createMerchantDestination((await getMerchant(org.organizationId))!, { url: merchantReceiver.url, eventTypes: ['payment.failed'] });

    const extra = { amount: 12.5, currency: 'EUR', declineReason: 'insufficient_funds' };
    const event = await emit(org.organizationId, 'payment.failed', extra);
    const got = await eventually(() => declined.received[0], 20_000, 'the declined delivery');
    expect(got.headers.authorization).toBeUndefined();
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: d.secret }).ok).toBe(true);
    const body = JSON.parse(got.rawBody.toString('utf8'));
    expect(body).toMatchObject({ id: event.id, type: 'transaction-declined', organizationId: org.organizationId });
    expect(body.data).toEqual({
      transactionId: event.payload.transactionId,
      externalTransactionId: event.payload.externalTransactionId,
      status: 'declined',
      amount: 12.5,
      currency: 'EUR',
      declineReason: 'insufficient_funds',
      customerId: event.payload.customerId,
      orderId: null,
      subscriptionId: null,
    });

    // The merchant's destination of the same event gets the catalog payload only: nothing of `extra`.
    const merchantGot = await eventually(() => merchantReceiver.received[0], 20_000, 'the merchant delivery');
    expect(JSON.parse(merchantGot.rawBody.toString('utf8'))).toEqual({ ...event.payload, merchantId: org.organizationId });

    // The transaction-processed destination was not in the fan-out of this event.
    expect((await accountSubscribersOf(event)).map((s) => s.id)).toEqual([d.id]);
    expect(processed.received).toHaveLength(0);
  });

  it("sends an organization's transactions to every account linked to it, each signed with its own secret, and to no other account", async () => {
    const org = await organizationAccount();
    const linked = await unlinkedAccount();
    const stranger = await organizationAccount();
    const now = new Date().toISOString();
    await transactWrite([
      [
        'account-link',
        [putNewAccountLink({ organizationId: org.organizationId, accountId: linked.accountId, isOwner: false, createdAt: now, updatedAt: now })],
      ],
    ]);
    const [rOwner, rLinked, rStranger] = [await receiver(), await receiver(), await receiver()];
    const dOwner = await created(org, { url: rOwner.url });
    const dLinked = await created(linked, { url: rLinked.url, auth: { type: 'basic', username: 'linked', password: PASSWORD } });
    const dStranger = await created(stranger, { url: rStranger.url });

    const event = await emit(org.organizationId, 'payment.completed');
    expect((await accountSubscribersOf(event)).map((s) => s.id).sort()).toEqual([dOwner.id, dLinked.id].sort());
    for (const [r, d] of [
      [rOwner, dOwner],
      [rLinked, dLinked],
    ] as const) {
      const got = await eventually(() => r.received[0], 20_000, "a linked account's delivery");
      expect(JSON.parse(got.rawBody.toString('utf8'))).toMatchObject({ id: event.id, organizationId: org.organizationId });
      expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: d.secret }).ok).toBe(true);
    }
    expect(rLinked.received[0]!.headers.authorization).toBe(basic('linked', PASSWORD));
    expect(rOwner.received[0]!.headers.authorization).toBeUndefined();
    // The fan-out queued every message of this event at once: once both are done, a third would have been too.
    await delivered(dOwner.id, event.id);
    await delivered(dLinked.id, event.id);
    expect(rStranger.received).toHaveLength(0);
    expect((await listDeliveries(dStranger.id, 10)).items).toHaveLength(0);
  });

  it('opens the circuit after five 500s and skips the sixth event; an update closes it and the next event is delivered', async () => {
    const org = await organizationAccount();
    const r = await receiver((n) => ({ status: n <= 5 ? 500 : 200 }));
    const d = await created(org, { url: r.url });
    for (let i = 0; i < 5; i++) {
      const e = await emit(org.organizationId, 'payment.completed');
      expect(await delivered(d.id, e.id)).toMatchObject({ status: 'failed', httpStatus: 500 });
    }
    const open = await get(org, d.id);
    expect(open.json.data.circuit).toEqual({ state: 'open', consecutiveFailures: 5, openedAt: expect.any(String) });

    const sixth = await emit(org.organizationId, 'payment.failed');
    expect(await delivered(d.id, sixth.id)).toMatchObject({ status: 'skipped', error: 'circuit_open' });
    expect(r.received).toHaveLength(5);

    const updated = await patch(org, d.id, { eventTypes: BOTH });
    expect(updated.json.data.circuit).toEqual({ state: 'closed', consecutiveFailures: 0, openedAt: null });
    const seventh = await emit(org.organizationId, 'payment.completed');
    expect(await delivered(d.id, seventh.id)).toMatchObject({ status: 'succeeded' });
    expect(r.received).toHaveLength(6);
    expect(JSON.parse(r.received[5]!.rawBody.toString('utf8')).id).toBe(seventh.id);
  }, 60_000);

  it('sends a duplicated account queue message once', async () => {
    const org = await organizationAccount();
    const r = await receiver();
    const d = await created(org, { url: r.url, eventTypes: ['transaction-declined'] });
    const event = await emit(org.organizationId, 'payment.failed', { amount: 1, currency: 'USD', declineReason: 'card_declined' });
    await delivered(d.id, event.id);
    const sqs = new SQSClient({});
    const duplicate = JSON.stringify({ kind: 'account', eventId: event.id, destinationAccountId: org.accountId, destinationId: d.id });
    await Promise.all([1, 2, 3].map(() => sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: duplicate }))));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.received).toHaveLength(1);
    sqs.destroy();
  });
});
