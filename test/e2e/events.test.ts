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
import { handler as listEventsHandler } from '../../functions/webhooks/list-events.ts';
import { lambdaContext } from '../../infra/local/lambda.ts';
import { db, tableName } from '../../shared/platform/db/client.ts';
import { keys } from '../../shared/platform/db/keys.ts';
import { getMerchant } from '../../shared/people/merchants.repository.ts';
import { samplePayload, type EventPayload, type EventType } from '../../shared/platform/events/catalog.ts';
import { deliveryBody, emitEvent, type OutboxEvent } from '../../shared/platform/events/outbox.ts';
import { verifyWebhook } from '../../shared/webhooks/verify.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { createDestination } from '../../shared/webhooks/webhooks.service.ts';
import { roundTripsOf, routeEvent, timeDynamoCalls } from '../support/dynamo-counter.ts';
import { adminCli, call, organizationAccount, payByCard, rootMerchant, subMerchant } from './fixtures.ts';
import { eventually, startReceiver, type Received, type Reply } from './receiver.ts';

const M = '/v1/public-api/merchants';
const events = (merchantId: string, query = '') => `${M}/${merchantId}/events${query}`;
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

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
    const since = `createdFrom=${encodeURIComponent(refunded.occurredAt)}&limit=2`;
    const { found, sizes } = await everyEvent(shop.apiKey, shop.merchantId, since);
    expect(sizes).toEqual([2, 2]);
    expect(found.map((e) => e.id)).toEqual([after.id, lost.id, won.id, refunded.id]);
    const failed = found.filter((e) => e.deliveries.some((d) => d.destinationId === dest.id && d.status === 'failed'));
    expect(failed.map((e) => e.id)).toEqual([lost.id, won.id, refunded.id]);
    for (const e of failed) {
      const source = missed.find((m) => m.id === e.id)!;
      expect(e).toMatchObject({ type: source.type, merchantId: shop.merchantId, createdAt: source.occurredAt });
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
    const range = `?createdFrom=${encodeURIComponent(refunded.occurredAt)}&createdTo=${encodeURIComponent(won.occurredAt)}`;
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

    // The fewest round trips: the key with the merchant; the events with both merchants' destinations; the page's
    // delivery records in one batch.
    const { result, calls } = await timeDynamoCalls(
      async () =>
        (await listEventsHandler(
          routeEvent(webhookRoutes.listMerchantEvents, { key: parent.apiKey, params: { merchantId: sub.id } }),
          lambdaContext({ name: 'merchant-events-list', timeoutMs: 10_000, region: process.env.AWS_REGION ?? 'us-east-1' }),
        )) as { statusCode: number; body: string },
    );
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data[0].deliveries.map((d: ApiDelivery) => d.destinationId)).toEqual([own.id, optedIn.id]);
    expect(roundTripsOf(calls).map((trip) => trip.sort())).toEqual([['BatchGetItem'], ['Query', 'Query', 'Query'], ['BatchGetItem']]);

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
        Key: keys.webhookDestination(shop.merchantId, paused.id),
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
});

/** `admin listen` as a child process against this run's stack, its stdout read line by line. */
function startListen(env: Record<string, string | undefined>, ...args: string[]) {
  const portOf = (url: string) => String(new URL(url).port);
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/admin/cli.ts', 'listen', ...args], {
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

  it('refuses a key on the command line, a missing MOR_API_KEY and a key the API refuses', async () => {
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
