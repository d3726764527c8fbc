/**
 * The events API (`GET …/merchants/{merchantId}/events[/{eventId}]`), the delivery headers that name an event
 * (`X-Webhook-Event`, `X-Webhook-Id`), and `admin listen`, through the local stack: events go through the outbox,
 * the stream, the fan-out and the sender as they do deployed.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { handler as listEventsHandler } from '../../../functions/webhooks/list-events.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as webhookDestinationKeys from '../../../shared/webhooks/webhook-destination.entity.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { samplePayload, type EventPayload, type EventType } from '../../../shared/platform/events/catalog.ts';
import { deliveryBody, emitEvent } from '../../../shared/platform/events/outbox.ts';
import type { OutboxEvent } from '../../../shared/platform/events/event.entity.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { createDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { roundTripsOf, routeEvent, timeDynamoCalls } from '../../support/dynamo-counter.ts';
import { adminCli, call, organizationAccount, orgCall, orgPath, payByCard, rootMerchant, subMerchant, subscriber } from '../../support/fixtures.ts';
import { eventually, startReceiver, type Received, type Reply } from '../../support/receiver.ts';

const M = '/v1/public-api/merchants';
const events = (merchantId: string, query = '') => `${M}/${merchantId}/events${query}`;
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function receiver(answer?: (r: Received, n: number) => Reply) {
  const r = await startReceiver(answer);
  closers.push(r.close);
  return r;
}

/**
 * A receiver that can be taken down (its port closed, so a delivery meets a refused connection) and brought back on
 * the same port.
 */
async function switchableReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const down = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  closers.push(down);
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    down,
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

/** A merchant webhook destination, made with the service as the dashboard makes it. */
async function destination(merchantId: string, url: string, eventTypes: EventType[], receiveSubMerchantEvents = false) {
  return createDestination((await getMerchant(merchantId))!, { url, eventTypes, receiveSubMerchantEvents });
}

/** An event written to the outbox now, as a feature writes it. */
async function emit<T extends EventType>(merchantId: string, type: T, payload?: EventPayload<T>): Promise<OutboxEvent> {
  const merchant = (await getMerchant(merchantId))!;
  const now = new Date().toISOString();
  return emitEvent(type, merchant, payload ?? (samplePayload(type, merchantId, now) as EventPayload<T>), now);
}

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** Moves `org`'s sandbox test clock `days` ahead of its now; answers the clock's new now. */
async function advanceClock(org: Org, days: number): Promise<string> {
  const clock = await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey });
  expect(clock.status, clock.text).toBe(200);
  const to = new Date(Date.parse(clock.json.data.now) + days * 86_400_000).toISOString();
  const advanced = await orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, { fullKey: org.fullKey, body: { to } });
  expect(advanced.status, advanced.text).toBe(200);
  return to;
}

/**
 * A monthly subscription started now on `org`'s clock, for a new customer (with an address) and their card: it
 * writes `subscription.created`, dated in the clock's time, beside its first payment. Answers its id.
 */
const subscribe = async (org: Org): Promise<string> => (await subscriber(org)).subscriptionId;

interface ApiDelivery {
  destinationId: string;
  status: string;
  httpStatus: number | null;
  error: string | null;
  attemptedAt: string | null;
}
interface ApiEvent {
  id: string;
  type: string;
  merchantId: string;
  createdAt: string;
  occurredAt: string;
  payload: Record<string, unknown>;
  deliveries: ApiDelivery[];
}

/** The event as the events API shows it once `destinationId`'s delivery of it reached `status`. */
const eventWhen = (key: string, merchantId: string, eventId: string, destinationId: string, status: string) =>
  eventually(
    async () => {
      const res = await call('GET', events(merchantId, `/${eventId}`), { key });
      const event = res.json as ApiEvent;
      return res.status === 200 && event.deliveries.some((d) => d.destinationId === destinationId && d.status === status) ? event : undefined;
    },
    25_000,
    `${eventId} ${status} at ${destinationId}`,
  );

/** Every event of the list (with `query`), following `nextCursor`, and the pages' sizes. */
async function everyEvent(key: string, merchantId: string, query: string) {
  const found: ApiEvent[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await call('GET', events(merchantId, `?${query}${cursor ? `&cursor=${cursor}` : ''}`), { key });
    expect(res.status).toBe(200);
    found.push(...res.json.data);
    sizes.push(res.json.data.length);
    cursor = res.json.nextCursor;
  } while (cursor);
  return { found, sizes };
}

describe('recovering missed webhooks through the events API', () => {
  it('shows each event missed while the receiver was down as failed, with the exact body, after it is back', async () => {
    const shop = await rootMerchant('Recovering shop');
    const r = await switchableReceiver();
    const dest = await destination(shop.merchantId, r.url, ['payment.completed', 'payment.refunded', 'dispute.won', 'dispute.lost']);

    const before = await emit(shop.merchantId, 'payment.completed');
    await eventWhen(shop.apiKey, shop.merchantId, before.id, dest.id, 'delivered');

    await r.down();
    // The same bodies twice: a refund of the payment carries the payment's fields, and a won and a lost dispute theirs.
    const refunded = await emit(shop.merchantId, 'payment.refunded', before.payload as EventPayload<'payment.refunded'>);
    const dispute = samplePayload('dispute.won', shop.merchantId, new Date().toISOString()) as EventPayload<'dispute.won'>;
    const won = await emit(shop.merchantId, 'dispute.won', dispute);
    const lost = await emit(shop.merchantId, 'dispute.lost', dispute);
    const missed = [refunded, won, lost];
    for (const e of missed) await eventWhen(shop.apiKey, shop.merchantId, e.id, dest.id, 'failed');

    await r.up();
    const after = await emit(shop.merchantId, 'payment.completed');
    await eventWhen(shop.apiKey, shop.merchantId, after.id, dest.id, 'delivered');

    // The receiver got the first and the last; the headers name each delivery's event, the bodies are bare.
    expect(r.received).toHaveLength(2);
    expect(r.received.map((x) => [x.headers['x-webhook-event'], x.headers['x-webhook-id'], x.rawBody.toString('utf8')])).toEqual([
      ['payment.completed', before.id, deliveryBody(before)],
      ['payment.completed', after.id, deliveryBody(after)],
    ]);

    // Recovery: page through everything since the receiver went down, two at a time, newest first.
    const since = `createdFrom=${encodeURIComponent(refunded.createdAt)}&limit=2`;
    const { found, sizes } = await everyEvent(shop.apiKey, shop.merchantId, since);
    expect(sizes).toEqual([2, 2]);
    expect(found.map((e) => e.id)).toEqual([after.id, lost.id, won.id, refunded.id]);
    const failed = found.filter((e) => e.deliveries.some((d) => d.destinationId === dest.id && d.status === 'failed'));
    expect(failed.map((e) => e.id)).toEqual([lost.id, won.id, refunded.id]);
    for (const e of failed) {
      const source = missed.find((m) => m.id === e.id)!;
      expect(e).toMatchObject({ type: source.type, merchantId: shop.merchantId, createdAt: source.createdAt, occurredAt: source.occurredAt });
      // The exact body the delivery carried, byte for byte once serialised as the service serialises it.
      expect(JSON.stringify(e.payload)).toBe(deliveryBody(source));
      expect(e.deliveries).toEqual([
        { destinationId: dest.id, status: 'failed', httpStatus: null, error: expect.any(String), attemptedAt: expect.any(String) },
      ]);
    }
    // Identical bodies, told apart by type: the refund's body is the first payment's.
    expect(found.find((e) => e.id === refunded.id)!.payload).toEqual(JSON.parse(deliveryBody(before)));
    const delivered = found.find((e) => e.id === after.id)!;
    expect(delivered.deliveries).toEqual([{ destinationId: dest.id, status: 'delivered', httpStatus: 200, error: null, attemptedAt: expect.any(String) }]);
    expect(JSON.stringify(delivered.payload)).toBe(r.received[1]!.rawBody.toString('utf8'));

    // Narrowed by type (several at once) and by a closed time range.
    const disputes = await call('GET', events(shop.merchantId, '?type=dispute.won,dispute.lost'), { key: shop.apiKey });
    expect(disputes.json.data.map((e: ApiEvent) => e.id)).toEqual([lost.id, won.id]);
    expect(disputes.json.nextCursor).toBeNull();
    const range = `?createdFrom=${encodeURIComponent(refunded.createdAt)}&createdTo=${encodeURIComponent(won.createdAt)}`;
    const between = await call('GET', events(shop.merchantId, range), { key: shop.apiKey });
    expect(between.json.data.map((e: ApiEvent) => e.id)).toEqual([won.id, refunded.id]);
    const all = await call('GET', events(shop.merchantId), { key: shop.apiKey });
    expect(all.json).toMatchObject({ nextCursor: null });
    expect(all.json.data.map((e: ApiEvent) => e.id)).toEqual([after.id, lost.id, won.id, refunded.id, before.id]);
  });
});

describe('events API', () => {
  it("shows a sub-merchant's event with its own destinations, and the parent's opted-in ones only to the parent's key", async () => {
    const parent = await rootMerchant('Parent shop');
    const sub = await subMerchant(parent.apiKey);
    const subKey = (await call('POST', `${M}/${sub.id}/api-keys`, { key: parent.apiKey, body: { name: 'sub' } })).json.apiKey as string;
    const [a, b, c] = [await receiver(), await receiver(), await receiver()];
    const optedIn = await destination(parent.merchantId, a.url, ['payment.completed'], true);
    await destination(parent.merchantId, b.url, ['payment.completed']);
    const own = await destination(sub.id, c.url, ['payment.completed', 'payment.failed']);

    const event = await emit(sub.id, 'payment.completed');
    await eventWhen(parent.apiKey, sub.id, event.id, optedIn.id, 'delivered');
    const asParent = await eventWhen(parent.apiKey, sub.id, event.id, own.id, 'delivered');
    expect(asParent.deliveries.map((d) => d.destinationId)).toEqual([own.id, optedIn.id]);
    expect(a.received[0]!.headers['x-webhook-id']).toBe(c.received[0]!.headers['x-webhook-id']);
    expect(a.received[0]!.headers['x-webhook-id']).toBe(event.id);

    // The fewest round trips: the key with the merchant; the events (a Query of each of the listing's 4 shards) with
    // both merchants' destinations; the page's delivery records in one batch.
    const { result, calls } = await timeDynamoCalls(
      async () =>
        (await listEventsHandler(
          routeEvent(webhookRoutes.listMerchantEvents, { key: parent.apiKey, params: { merchantId: sub.id } }),
          lambdaContext({ name: 'merchant-events-list', timeoutMs: 10_000, region: process.env.AWS_REGION ?? 'us-east-1' }),
        )) as { statusCode: number; body: string },
    );
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data[0].deliveries.map((d: ApiDelivery) => d.destinationId)).toEqual([own.id, optedIn.id]);
    expect(roundTripsOf(calls).map((trip) => trip.sort())).toEqual([
      ['BatchGetItem'],
      ['Query', 'Query', 'Query', 'Query', 'Query', 'Query'],
      ['BatchGetItem'],
    ]);

    const asSub = await call('GET', events(sub.id, `/${event.id}`), { key: subKey });
    expect(asSub.status).toBe(200);
    expect(asSub.json.deliveries.map((d: ApiDelivery) => d.destinationId)).toEqual([own.id]);
    expect((await call('GET', events(sub.id), { key: subKey })).json.data.map((e: ApiEvent) => e.id)).toEqual([event.id]);

    // The parent's own events are not its sub-merchants'; the sub-merchant's key reaches no parent.
    expect((await call('GET', events(parent.merchantId), { key: parent.apiKey })).json.data).toEqual([]);
    const elsewhere = await call('GET', events(parent.merchantId, `/${event.id}`), { key: parent.apiKey });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json.code).toBe('event.not_found');
    expect((await call('GET', events(parent.merchantId), { key: subKey })).status).toBe(403);
  });

  it('shows a delivery in flight as pending and a destination whose circuit is open as skipped', async () => {
    const shop = await rootMerchant();
    const slow = await receiver(() => ({ status: 204, delayMs: 3_000 }));
    const slowDest = await destination(shop.merchantId, slow.url, ['customer.created']);
    const paused = await destination(shop.merchantId, 'http://127.0.0.1:9999/never', ['customer.created']);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookDestinationKeys.webhookDestinationKey(shop.merchantId, paused.id),
        UpdateExpression: 'SET circuitState = :open, circuitOpenedAt = :now',
        ExpressionAttributeValues: { ':open': 'open', ':now': new Date().toISOString() },
      }),
    );
    const event = await emit(shop.merchantId, 'customer.created');
    const inFlight = await eventually(
      async () => {
        const e = (await call('GET', events(shop.merchantId, `/${event.id}`), { key: shop.apiKey })).json as ApiEvent;
        return e.deliveries.find((d) => d.destinationId === slowDest.id && d.attemptedAt !== null) ? e : undefined;
      },
      20_000,
      'the attempt',
    );
    expect(inFlight.deliveries.find((d) => d.destinationId === slowDest.id)).toMatchObject({ status: 'pending', httpStatus: null });
    const done = await eventWhen(shop.apiKey, shop.merchantId, event.id, slowDest.id, 'delivered');
    expect(done.deliveries.find((d) => d.destinationId === slowDest.id)).toMatchObject({ httpStatus: 204 });
    expect(done.deliveries.find((d) => d.destinationId === paused.id)).toMatchObject({ status: 'skipped', httpStatus: null, error: 'circuit_open' });
  });

  it('answers unknown, malformed and foreign event ids with the same 404, and refuses another merchant with 403', async () => {
    const shop = await rootMerchant();
    const other = await rootMerchant();
    const theirs = await emit(other.merchantId, 'payout.sent');
    for (const id of [theirs.id, 'evt_0123456789abcdef0123456789abcdef', 'not-an-id', 'x'.repeat(300)]) {
      const res = await call('GET', events(shop.merchantId, `/${id}`), { key: shop.apiKey });
      expect(res.status, id).toBe(404);
      expect(res.json.code).toBe('event.not_found');
    }
    expect((await call('GET', events(other.merchantId), { key: shop.apiKey })).status).toBe(403);
    expect((await call('GET', events(other.merchantId, `/${theirs.id}`), { key: shop.apiKey })).status).toBe(403);
    expect((await call('GET', events(other.merchantId, `/${theirs.id}`), { key: other.apiKey })).json.payload).toEqual(JSON.parse(deliveryBody(theirs)));
  });

  it('refuses a bad query with a 400 naming the parameter, never a 500', async () => {
    const shop = await rootMerchant();
    const forged = Buffer.from('2026-01-01T00:00:00.000Z#evt_zz', 'utf8').toString('base64url');
    const bad: Array<[string, string]> = [
      ['cursor=abc', 'cursor'],
      [`cursor=${forged}`, 'cursor'],
      [`cursor=${'A'.repeat(500)}`, 'cursor'],
      ['cursor=%00', 'cursor'],
      ['type=invoice.paid', 'type'],
      ['type=', 'type'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['createdFrom=yesterday', 'createdFrom'],
      ['createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z', 'createdFrom'],
      ['startingAfter=evt_0123456789abcdef0123456789abcdef', 'startingAfter'],
      // Not an id the outbox mints (a UUID v7), and not an id at all.
      ['after=evt_0123456789abcdef0123456789abcdef', 'after'],
      ['after=pay_123', 'after'],
    ];
    for (const [query, field] of bad) {
      const res = await call('GET', events(shop.merchantId, `?${query}`), { key: shop.apiKey });
      expect(res.status, query).toBe(400);
      expect(res.json.code, query).toBe('request.invalid_query');
      expect(res.json.message, query).toContain(field);
    }
    // A well-formed cursor from another list, or past the range, is just an empty page.
    const later = Buffer.from('2000-01-01T00:00:00.000Z#evt_0123456789abcdef0123456789abcdef', 'utf8').toString('base64url');
    const empty = await call('GET', events(shop.merchantId, `?cursor=${later}`), { key: shop.apiKey });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ data: [], nextCursor: null });
  });

  it("lists events in the order they were written, whatever a test clock dated them: createdAt is real time, occurredAt the clock's, and after= and the cursor keep their places", {
    timeout: 60_000,
  }, async () => {
    const org = await organizationAccount('Clocked shop');
    const key = org.merchantApiKey;
    const list = async (query: string) => {
      const res = await call('GET', events(org.organizationId, `?type=payment.completed,subscription.created&${query}`), { key });
      expect(res.status, res.text).toBe(200);
      return res.json as { data: ApiEvent[]; nextCursor: string | null };
    };
    const start = new Date().toISOString();
    const first = await payByCard(org, 11);
    expect(first.status, first.text).toBe(201);
    const clockNow = await advanceClock(org, 35);
    const subscriptionId = await subscribe(org);
    const last = await payByCard(org, 12);
    expect(last.status, last.text).toBe(201);
    const end = new Date().toISOString();

    const { data } = await list('limit=100');
    const created = data.find((e) => e.type === 'subscription.created')!;
    expect(created.payload.subscriptionId).toBe(subscriptionId);
    const payments = data.filter((e) => e.type === 'payment.completed');
    expect(payments).toHaveLength(3); // the two payments and the subscription's first charge
    // Newest first in the ids' order (UUID v7: the order they were written): the clock-dated event is listed between
    // the two payments made around it.
    expect(data[0]!.payload.transactionId).toBe(last.json.data.id);
    expect(data.at(-1)!.payload.transactionId).toBe(first.json.data.id);
    const ids = data.map((e) => e.id);
    expect(ids).toEqual([...ids].sort().reverse());
    // Dated in the clock's time (35 days ahead), written now.
    expect(created.occurredAt >= clockNow).toBe(true);
    expect(created.createdAt >= start && created.createdAt <= end).toBe(true);
    expect(data.map((e) => e.createdAt)).toEqual(
      data
        .map((e) => e.createdAt)
        .sort()
        .reverse(),
    );
    for (const e of payments) {
      expect(e.createdAt >= start && e.createdAt <= end).toBe(true);
      // A payment is dated in real time: written the moment it was recorded.
      expect(Math.abs(Date.parse(e.createdAt) - Date.parse(e.occurredAt))).toBeLessThan(5_000);
    }

    /** The ids of every page of `query`, one event a page, following the cursor. */
    const pagedIds = async (query: string) => {
      const found: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        found.push(...page.data.map((e) => e.id));
        cursor = page.nextCursor;
      } while (cursor);
      return found;
    };
    // The cursor pages through the same order, one at a time.
    expect(await pagedIds(`createdFrom=${encodeURIComponent(start)}`)).toEqual(ids);

    // A real-time range takes the clock-dated event written in it.
    expect((await list(`createdFrom=${encodeURIComponent(start)}&createdTo=${encodeURIComponent(end)}`)).data.map((e) => e.id)).toEqual(ids);
    // after=<id>: only what was written after that event, newest first; after the newest, nothing yet.
    expect((await list(`after=${created.id}`)).data.map((e) => e.id)).toEqual(ids.slice(0, ids.indexOf(created.id)));
    expect(await pagedIds(`after=${ids.at(-1)}`)).toEqual(ids.slice(0, -1));
    expect(await list(`after=${ids[0]}`)).toEqual({ data: [], nextCursor: null });
    // One event shows both times too.
    const one = await call('GET', events(org.organizationId, `/${created.id}`), { key });
    expect(one.json).toMatchObject({ id: created.id, createdAt: created.createdAt, occurredAt: created.occurredAt });
  });
});

/** `admin listen` as a child process against this run's stack, its stdout read line by line. */
function startListen(env: Record<string, string | undefined>, ...args: string[]) {
  const portOf = (url: string) => String(new URL(url).port);
  const child = spawn(process.execPath, ['infra/admin/cli.ts', 'listen', ...args], {
    cwd: repoRoot,
    env: { ...process.env, PORT: portOf(inject('baseUrl')), DYNAMODB_PORT: portOf(inject('dynamoEndpoint')), SQS_PORT: portOf(inject('sqsEndpoint')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  onTestFinished(() => {
    child.kill('SIGTERM');
  });
  const secret = () =>
    eventually(
      () => lines.map((l) => /^Signing secret of this session \(shown once\): ([0-9a-f]{64})$/.exec(l)?.[1]).find(Boolean),
      20_000,
      `the secret (${stderr})`,
    );
  return { child, lines, secret, stderr: () => stderr };
}

describe('admin listen', () => {
  it("forwards a payment's event to a local receiver, signed with the session's secret, and prints its line", async () => {
    const org = await organizationAccount('Listening shop');
    let secret = '';
    const local = await receiver((r) => ({ status: verifyWebhook({ rawBody: r.rawBody, headers: r.headers, secret, toleranceSeconds: 300 }).ok ? 204 : 401 }));
    const listen = startListen(
      { MOR_API_KEY: org.merchantApiKey },
      '--merchant',
      org.organizationId,
      '--forward-to',
      `${local.url}/hooks`,
      '--events',
      'payment.completed',
      '--interval',
      '0.3',
    );
    secret = await listen.secret();

    const paid = await payByCard(org, 12.5);
    expect(paid.status).toBe(201);
    const got = await eventually(() => local.received[0], 20_000, 'the forwarded event');
    expect(got.path).toBe('/hooks');
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers, secret }).ok).toBe(true);
    expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers, secret: 'f'.repeat(64) }).ok).toBe(false);
    expect(got.headers['x-webhook-event']).toBe('payment.completed');
    const id = got.headers['x-webhook-id'] as string;
    const shown = await call('GET', events(org.organizationId, `/${id}`), { key: org.merchantApiKey });
    expect(shown.json).toMatchObject({ type: 'payment.completed', payload: { transactionId: paid.json.data.id, amount: 12.5 } });
    expect(got.rawBody.toString('utf8')).toBe(JSON.stringify(shown.json.payload));
    const line = await eventually(() => listen.lines.find((l) => l.includes(id)), 10_000, 'the printed line');
    expect(line).toMatch(new RegExp(`^\\S+Z  payment\\.completed  ${id}  -> 204$`));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(local.received.map((x) => x.headers['x-webhook-event'])).toEqual(['payment.completed']);
  });

  it('keeps forwarding after a 35-day test clock advance: a payment made after events dated in the clock arrives within its interval', {
    timeout: 60_000,
  }, async () => {
    const org = await organizationAccount('Clock listening shop');
    const local = await receiver();
    const listen = startListen(
      { MOR_API_KEY: org.merchantApiKey },
      '--merchant',
      org.organizationId,
      '--forward-to',
      local.url,
      '--events',
      'payment.completed,subscription.created',
      '--interval',
      '0.3',
    );
    await listen.secret();
    const forwarded = () => local.received.map((x) => ({ type: x.headers['x-webhook-event'], body: JSON.parse(x.rawBody.toString('utf8')) }));

    // The clock moves 35 days ahead, and a subscription started on it writes subscription.created dated then.
    const clockNow = await advanceClock(org, 35);
    const subscriptionId = await subscribe(org);
    await eventually(
      () => forwarded().find((x) => x.type === 'subscription.created' && x.body.subscriptionId === subscriptionId),
      20_000,
      'the clock-dated subscription.created',
    );

    // A payment made now, in real time, after the clock-dated event: forwarded at the next poll.
    const paid = await payByCard(org, 7.5);
    expect(paid.status, paid.text).toBe(201);
    const madeAt = Date.now();
    const payment = await eventually(
      () =>
        local.received.find(
          (x) => x.headers['x-webhook-event'] === 'payment.completed' && JSON.parse(x.rawBody.toString('utf8')).transactionId === paid.json.data.id,
        ),
      10_000,
      'the payment made after the advance',
    );
    // Within its interval (0.3 s) and the forward, with room for a loaded machine.
    expect(payment.at - madeAt).toBeLessThan(5_000);
    expect(
      forwarded()
        .filter((x) => x.type === 'payment.completed')
        .map((x) => x.body.subscriptionId),
    ).toEqual([subscriptionId, null]);
    // The event forwarded before it was dated in the clock's time, 35 days ahead.
    const shown = (await call('GET', events(org.organizationId, '?type=subscription.created'), { key: org.merchantApiKey })).json.data[0] as ApiEvent;
    expect(shown.occurredAt >= clockNow).toBe(true);
  });

  it('replays the history with --since to the local URL only, oldest first, never to registered destinations', async () => {
    const shop = await rootMerchant('Replaying shop');
    const registered = await receiver();
    await destination(shop.merchantId, registered.url, ['payment.completed', 'customer.created']);
    const first = await emit(shop.merchantId, 'payment.completed');
    const second = await emit(shop.merchantId, 'customer.created');
    await eventually(() => (registered.received.length === 2 ? true : undefined), 20_000, 'the two deliveries');

    const local = await receiver();
    const listen = startListen({ MOR_API_KEY: shop.apiKey }, '--merchant', shop.merchantId, '--forward-to', local.url, '--since', '1h', '--interval', '0.3');
    const secret = await listen.secret();
    await eventually(() => (local.received.length >= 2 ? true : undefined), 20_000, 'the replay');
    expect(local.received.map((x) => [x.headers['x-webhook-event'], x.headers['x-webhook-id'], x.rawBody.toString('utf8')])).toEqual([
      ['payment.completed', first.id, deliveryBody(first)],
      ['customer.created', second.id, deliveryBody(second)],
    ]);
    for (const x of local.received) expect(verifyWebhook({ rawBody: x.rawBody, headers: x.headers, secret }).ok).toBe(true);
    // Later polls forward nothing twice, and the registered destination got nothing more.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(local.received).toHaveLength(2);
    expect(registered.received).toHaveLength(2);
    expect(listen.lines.filter((l) => / -> 200$/.test(l))).toHaveLength(2);
  });

  // Five runs of the CLI, each a Node process start: well within a minute, but not always within the default 20 s on a busy machine.
  it('refuses a key on the command line, a missing MOR_API_KEY and a key the API refuses', { timeout: 60_000 }, async () => {
    const shop = await rootMerchant();
    const flags = ['listen', '--merchant', shop.merchantId, '--forward-to', 'http://127.0.0.1:9/hooks'];
    await expect(adminCli({ MOR_API_KEY: undefined }, ...flags, '--api-key', shop.apiKey)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('MOR_API_KEY'),
    });
    await expect(adminCli({ MOR_API_KEY: undefined }, ...flags)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('MOR_API_KEY is not set') });
    await expect(adminCli({ MOR_API_KEY: `mor_test_${'0'.repeat(64)}` }, ...flags)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('401') });
    await expect(adminCli({ MOR_API_KEY: shop.apiKey }, ...flags, '--events', 'invoice.paid')).rejects.toMatchObject({ code: 1 });
    const help = await adminCli({}, '--help');
    expect(help.stdout).toContain('listen --merchant <merchantId> --forward-to <url>');
  });
});
