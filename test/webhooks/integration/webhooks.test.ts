import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import * as webhookDestinationKeys from '../../../shared/webhooks/webhook-destination.entity.ts';
import { putNewMembership } from '../../../shared/people/memberships.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { listDeliveries } from '../../../shared/webhooks/webhooks.repository.ts';
import type { Delivery } from '../../../shared/webhooks/delivery.entity.ts';
import { samplePayload, type EventType } from '../../../shared/platform/events/catalog.ts';
import { emitEvent } from '../../../shared/platform/events/outbox.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { call, person, rootMerchant, subMerchant, PASSWORD } from '../../support/fixtures.ts';
import { eventually, startReceiver, type Reply } from '../../support/receiver.ts';
import { keptMailsTo, mailsArrived } from '../../support/mails.ts';

const D = '/v1/dashboard';
/** A loopback receiver URL nothing answers on (for tests that never deliver). */
const UNUSED_RECEIVER = 'http://127.0.0.1:9999/x';
const destinations = (merchantId: string) => `${D}/merchants/${merchantId}/webhook-destinations`;
const receivers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(answer?: (n: number) => Reply) {
  const r = await startReceiver(answer && ((_, n) => answer(n)));
  receivers.push(r);
  return r;
}

/** A partner merchant with its owner signed in. */
async function partnerWithOwner() {
  const partner = await rootMerchant();
  const session = await call('POST', `${D}/sessions`, { body: { email: partner.ownerEmail, password: PASSWORD } });
  return { ...partner, session: session.json.token as string };
}

async function createDestination(merchantId: string, session: string, body: Record<string, unknown>) {
  const res = await call('POST', destinations(merchantId), { key: session, body });
  if (res.status !== 201) throw new Error(`destination creation failed: ${res.status} ${res.text}`);
  return res.json as { id: string; secret: string };
}

async function emit(merchantId: string, type: EventType = 'payment.completed') {
  const merchant = (await getMerchant(merchantId))!;
  const now = new Date().toISOString();
  return emitEvent(type, merchant, samplePayload(type, merchantId, now) as never, now);
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

describe('webhook delivery through the local pipeline', () => {
  it('signs each delivery so the receiver helper verifies it, sends custom headers, and overwrites a custom Content-Type', async () => {
    const p = await partnerWithOwner();
    const r = await receiver();
    const dest = await createDestination(p.merchantId, p.session, {
      url: `${r.url}/hooks`,
      eventTypes: ['payment.completed'],
      headers: { 'X-Receiver-Token': 'abc123', 'content-type': 'text/plain', 'X-Webhook-Signature': 'forged', 'x-webhook-id': 'evt_forged' },
    });
    expect(dest.secret).toMatch(/^[0-9a-f]{64}$/);
    const event = await emit(p.merchantId);
    const got = await eventually(() => r.received[0], 20_000, 'the delivery');

    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-webhook-event']).toBe('payment.completed');
    expect(got.headers['x-webhook-id']).toBe(event.id);
    expect(got.headers['x-receiver-token']).toBe('abc123');
    expect(got.headers['x-webhook-signature']).not.toBe('forged');
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: dest.secret, toleranceSeconds: 300 })).toMatchObject({
      ok: true,
    });
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: 'f'.repeat(64) }).ok).toBe(false);

    const body = JSON.parse(got.rawBody.toString('utf8'));
    expect(body).toEqual({ ...event.payload, merchantId: p.merchantId });
    expect(body).not.toHaveProperty('type');
    expect(body).not.toHaveProperty('data');
    const record = await delivered(dest.id, event.id);
    expect(record).toMatchObject({ status: 'succeeded', httpStatus: 200 });
  });

  it('delivers only the subscribed types', async () => {
    const p = await partnerWithOwner();
    const r = await receiver();
    await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['customer.created'] });
    await emit(p.merchantId, 'payment.completed');
    const wanted = await emit(p.merchantId, 'customer.created');
    const got = await eventually(() => r.received[0], 20_000, 'the delivery');
    expect(JSON.parse(got.rawBody.toString()).customerId).toBe(wanted.payload.customerId);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.received).toHaveLength(1);
  });

  it("sends sub-merchant events to the parent destination that opted in, with the sub-merchant id and that destination's secret", async () => {
    const p = await partnerWithOwner();
    const sub = await subMerchant(p.apiKey);
    const optedIn = await receiver();
    const notOptedIn = await receiver();
    const parentDest = await createDestination(p.merchantId, p.session, {
      url: optedIn.url,
      eventTypes: ['payment.completed'],
      receiveSubMerchantEvents: true,
    });
    await createDestination(p.merchantId, p.session, { url: notOptedIn.url, eventTypes: ['payment.completed'] });
    await emit(sub.id);
    const got = await eventually(() => optedIn.received[0], 20_000, 'the sub-merchant event');
    expect(JSON.parse(got.rawBody.toString()).merchantId).toBe(sub.id);
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: parentDest.secret }).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(notOptedIn.received).toHaveLength(0);
  });

  it('counts a 301 as a failure and does not follow it', async () => {
    const p = await partnerWithOwner();
    const target = await receiver();
    const r = await receiver(() => ({ status: 301, headers: { location: `${target.url}/moved` } }));
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed'] });
    const event = await emit(p.merchantId);
    expect(await delivered(dest.id, event.id)).toMatchObject({ status: 'failed', httpStatus: 301 });
    expect(target.received).toHaveLength(0);
  });

  it('counts a receiver that takes 11 s as a failure', async () => {
    const p = await partnerWithOwner();
    const r = await receiver(() => ({ status: 200, delayMs: 11_000 }));
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed'] });
    const event = await emit(p.merchantId);
    const record = await delivered(dest.id, event.id);
    expect(record).toMatchObject({ status: 'failed', httpStatus: null, error: 'timeout' });
    expect(record.durationMs).toBeGreaterThanOrEqual(10_000);
    expect(record.durationMs).toBeLessThan(11_000);
  }, 40_000);

  it('opens the circuit after five 500s: the 6th event is skipped and not replayed after reset; the 7th is delivered', async () => {
    const p = await partnerWithOwner();
    const r = await receiver((n) => ({ status: n <= 5 ? 500 : 200 }));
    const dest = await createDestination(p.merchantId, p.session, { url: `${r.url}/hooks/mor?token=s3cr3t-receiver-token`, eventTypes: ['payment.completed'] });
    for (let i = 0; i < 5; i++) {
      const e = await emit(p.merchantId);
      expect(await delivered(dest.id, e.id)).toMatchObject({ status: 'failed', httpStatus: 500 });
    }
    const read = await call('GET', `${destinations(p.merchantId)}/${dest.id}`, { key: p.session });
    expect(read.json.circuit).toMatchObject({ state: 'open', consecutiveFailures: 5 });

    const sixth = await emit(p.merchantId);
    expect(await delivered(dest.id, sixth.id)).toMatchObject({ status: 'skipped' });
    expect(r.received).toHaveLength(5);

    // Told by a mail written as the circuit opened, sent a moment after.
    const mails = await mailsArrived(p.ownerEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(dest.id);
    // The mail names the receiver's host, never its path or query (which may carry a token).
    const host = new URL(r.url).host;
    expect(mails[0]!.subject).toContain(host);
    expect(mails[0]!.text).toContain(host);
    for (const part of [mails[0]!.subject, mails[0]!.text]) {
      expect(part).not.toContain('s3cr3t');
      expect(part).not.toContain('/hooks/mor');
    }

    const reset = await call('POST', `${destinations(p.merchantId)}/${dest.id}/reset-circuit`, { key: p.session });
    expect(reset.status).toBe(200);
    expect(reset.json.circuit).toMatchObject({ state: 'closed', consecutiveFailures: 0 });

    const seventh = await emit(p.merchantId);
    expect(await delivered(dest.id, seventh.id)).toMatchObject({ status: 'succeeded' });
    expect(r.received).toHaveLength(6);
    const bodies = r.received.map((x) => JSON.parse(x.rawBody.toString()).transactionId);
    expect(bodies.at(-1)).toBe(seventh.payload.transactionId);
    expect(await keptMailsTo(p.ownerEmail)).toHaveLength(1);
  }, 60_000);

  it('does not open the circuit for four 500s, a 404, then a 500', async () => {
    const p = await partnerWithOwner();
    const statuses = [500, 500, 500, 500, 404, 500];
    const r = await receiver((n) => ({ status: statuses[n - 1] ?? 200 }));
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed'] });
    for (const status of statuses) {
      const e = await emit(p.merchantId);
      expect(await delivered(dest.id, e.id)).toMatchObject({ status: 'failed', httpStatus: status });
    }
    const read = await call('GET', `${destinations(p.merchantId)}/${dest.id}`, { key: p.session });
    expect(read.json.circuit).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  }, 60_000);

  it('sends a duplicated queue message once', async () => {
    const p = await partnerWithOwner();
    const r = await receiver();
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed'] });
    const event = await emit(p.merchantId);
    const sqs = new SQSClient({});
    const duplicate = JSON.stringify({ eventId: event.id, destinationMerchantId: p.merchantId, destinationId: dest.id });
    await Promise.all([1, 2, 3].map(() => sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: duplicate }))));
    await delivered(dest.id, event.id);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(r.received).toHaveLength(1);
    sqs.destroy();
  });
});

describe('webhook destinations', () => {
  it('pings synchronously with a signed webhook.test body, writing no delivery record and leaving the circuit alone', async () => {
    const p = await partnerWithOwner();
    const r = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed'] });
    for (let i = 0; i < 2; i++) await delivered(dest.id, (await emit(p.merchantId)).id);

    const ping = await call('POST', `${destinations(p.merchantId)}/${dest.id}/test`, { key: p.session });
    expect(ping.status).toBe(200);
    expect(ping.json).toMatchObject({ delivered: true, httpStatus: 200 });
    const got = r.received.at(-1)!;
    const body = JSON.parse(got.rawBody.toString());
    expect(body.type).toBe('webhook.test');
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
    expect(got.headers['x-webhook-event']).toBe('webhook.test');
    expect(got.headers['x-webhook-id']).toMatch(/^ping_[0-9a-f]{32}$/);
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret: dest.secret }).ok).toBe(true);

    const history = await call('GET', `${destinations(p.merchantId)}/${dest.id}/deliveries`, { key: p.session });
    expect(history.json.data).toHaveLength(2);
    expect(history.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 2, totalPages: 1 });
    const read = await call('GET', `${destinations(p.merchantId)}/${dest.id}`, { key: p.session });
    expect(read.json.circuit.consecutiveFailures).toBe(2);
  });

  it('pages the delivery history as {data, pagination}, filtered by status, event type and response code', async () => {
    const p = await partnerWithOwner();
    const r = await receiver((n) => ({ status: n === 2 ? 500 : 200 }));
    const dest = await createDestination(p.merchantId, p.session, { url: r.url, eventTypes: ['payment.completed', 'customer.created'] });
    const first = await emit(p.merchantId);
    await delivered(dest.id, first.id);
    const failed = await emit(p.merchantId);
    await delivered(dest.id, failed.id);
    const customer = await emit(p.merchantId, 'customer.created');
    await delivered(dest.id, customer.id);
    const history = (query: string) => call('GET', `${destinations(p.merchantId)}/${dest.id}/deliveries?${query}`, { key: p.session });
    const ids = (res: { json: { data: Array<{ eventId: string }> } }) => res.json.data.map((d) => d.eventId);

    const all = await history('');
    expect(ids(all)).toEqual([customer.id, failed.id, first.id]);
    const second = await history('limit=2&page=2');
    expect(ids(second)).toEqual([first.id]);
    expect(second.json.pagination).toEqual({ page: 2, limit: 2, totalCount: 3, totalPages: 2 });
    expect(ids(await history('status=failed'))).toEqual([failed.id]);
    expect(ids(await history('eventType=customer.created'))).toEqual([customer.id]);
    const ok = await history('httpStatus=200&eventType=payment.completed');
    expect(ids(ok)).toEqual([first.id]);
    expect(ok.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 1, totalPages: 1 });
    expect((await history('httpStatus=404')).json).toEqual({ data: [], pagination: { page: 1, limit: 20, totalCount: 0, totalPages: 0 } });
  });

  it('never shows the secret after creation and lists header names only', async () => {
    const p = await partnerWithOwner();
    const dest = await createDestination(p.merchantId, p.session, { url: UNUSED_RECEIVER, eventTypes: ['payout.sent'], headers: { 'X-Token': 'hunter2' } });
    const list = await call('GET', destinations(p.merchantId), { key: p.session });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(dest.secret);
    expect(list.text).not.toContain('hunter2');
    expect(list.json.data[0]).toMatchObject({ id: dest.id, headerNames: ['X-Token'], circuit: { state: 'closed' } });
    expect(list.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 1, totalPages: 1 });
    // The secret is derived from the deployment's signing key when needed, so the table never holds it.
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: webhookDestinationKeys.webhookDestinationKey(p.merchantId, dest.id) }));
    expect(Item).toBeDefined();
    expect(JSON.stringify(Item)).not.toContain(dest.secret);
  });

  it('refuses headers it could never send — a value past Latin-1, one name twice in another case — with 400, creating nothing', async () => {
    const p = await partnerWithOwner();
    for (const headers of [{ 'X-Shop': 'Café ☃' }, { 'X-City': '東京' }, { 'X-Token': 'one', 'x-token': 'two' }]) {
      const res = await call('POST', destinations(p.merchantId), { key: p.session, body: { url: UNUSED_RECEIVER, eventTypes: ['payout.sent'], headers } });
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(400);
      expect(res.json.code).toBe('request.validation_failed');
    }
    // Latin-1 is sent as it is.
    await createDestination(p.merchantId, p.session, { url: UNUSED_RECEIVER, eventTypes: ['payout.sent'], headers: { 'X-Shop': 'Zoë' } });
    expect((await call('GET', destinations(p.merchantId), { key: p.session })).json.data).toHaveLength(1);
  });

  it('refuses forbidden URLs with webhook.url_forbidden and creates nothing', async () => {
    const p = await partnerWithOwner();
    const port = (url: string) => new URL(url).port;
    const forbidden = [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest',
      'http://example.com/hook',
      'https://[::ffff:127.0.0.1]/x',
      // well-known ports other than 443
      'https://93.184.216.34:22/x',
      'https://93.184.216.34:80/x',
      'http://127.0.0.1:25/x',
      'http://localhost:1023/x',
      // the local stack's own DynamoDB Local, SQS server, S3 server and gateway, even with loopback receivers allowed
      `http://127.0.0.1:${port(inject('dynamoEndpoint'))}/`,
      `http://localhost:${port(inject('sqsEndpoint'))}/`,
      `http://127.0.0.1:${port(inject('functionEnv').AWS_ENDPOINT_URL_S3!)}/`,
      `http://127.0.0.1:${port(inject('baseUrl'))}/api/v1/dashboard/users`,
    ];
    for (const url of forbidden) {
      const res = await call('POST', destinations(p.merchantId), { key: p.session, body: { url, eventTypes: ['payment.completed'] } });
      expect(res.status, url).toBe(422);
      expect(res.json.code).toBe('webhook.url_forbidden');
    }
    expect((await call('GET', destinations(p.merchantId), { key: p.session })).json).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, totalCount: 0, totalPages: 0 },
    });
  });

  it('stores the URL in its normalised form and delivers to it', async () => {
    const p = await partnerWithOwner();
    const r = await receiver();
    const given = `${r.url.replace('http://127.0.0.1', 'HTTP://LOCALHOST')}/a/../mor?token=abc`;
    const created = await call('POST', destinations(p.merchantId), { key: p.session, body: { url: given, eventTypes: ['payment.completed'] } });
    expect(created.status).toBe(201);
    const normalised = `http://localhost:${new URL(r.url).port}/mor?token=abc`;
    expect(created.json.url).toBe(normalised);
    expect((await call('GET', `${destinations(p.merchantId)}/${created.json.id}`, { key: p.session })).json.url).toBe(normalised);
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: webhookDestinationKeys.webhookDestinationKey(p.merchantId, created.json.id) }),
    );
    expect(Item!.url).toBe(normalised);

    const event = await emit(p.merchantId);
    expect(await delivered(created.json.id, event.id)).toMatchObject({ status: 'succeeded' });
    expect(r.received[0]!.path).toBe('/mor?token=abc');
  });

  it('lets owners and admins create, any member read, and refuses everyone else with 403', async () => {
    const p = await partnerWithOwner();
    const [member, admin, stranger] = await Promise.all([person(), person(), person()]);
    const now = new Date().toISOString();
    await transactWrite([
      [
        'memberships',
        [
          putNewMembership({ merchantId: p.merchantId, userId: member.userId, role: 'member', createdAt: now }),
          putNewMembership({ merchantId: p.merchantId, userId: admin.userId, role: 'admin', createdAt: now }),
        ],
      ],
    ]);
    const body = { url: UNUSED_RECEIVER, eventTypes: ['payment.completed'] };
    expect((await call('POST', destinations(p.merchantId), { key: admin.token, body })).status).toBe(201);
    const refused = await call('POST', destinations(p.merchantId), { key: member.token, body });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('forbidden');
    expect((await call('GET', destinations(p.merchantId), { key: member.token })).json.data).toHaveLength(1);
    expect((await call('GET', destinations(p.merchantId), { key: stranger.token })).status).toBe(403);
    expect((await call('POST', destinations(p.merchantId), { key: stranger.token, body })).status).toBe(403);
    expect((await call('GET', destinations(p.merchantId))).status).toBe(401);
  });

  it('answers ids that cannot exist with 404 webhook.not_found, never 500', async () => {
    const p = await partnerWithOwner();
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/reset-circuit'],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await call(method, `${destinations(p.merchantId)}/${'w'.repeat(3000)}${suffix}`, { key: p.session });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.json.code).toBe('webhook.not_found');
    }
    for (const query of ['limit=500', 'page=0', 'status=delivered', 'eventType=payment.done', 'httpStatus=99', 'cursor=evt_0']) {
      const bad = await call('GET', `${destinations(p.merchantId)}/wh_${'0'.repeat(24)}/deliveries?${query}`, { key: p.session });
      expect(bad.status, query).toBe(400);
      expect(bad.json.code).toBe('request.invalid_query');
    }
  });

  it('allows receiveSubMerchantEvents on a parent merchant only', async () => {
    const p = await partnerWithOwner();
    const sub = await subMerchant(p.apiKey);
    await call('POST', `/v1/public-api/merchants/${sub.id}/members`, { key: p.apiKey, body: { email: p.ownerEmail } });
    const res = await call('POST', destinations(sub.id), {
      key: p.session,
      body: { url: UNUSED_RECEIVER, eventTypes: ['payment.completed'], receiveSubMerchantEvents: true },
    });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('webhook.sub_merchant_events_not_allowed');
  });
});
