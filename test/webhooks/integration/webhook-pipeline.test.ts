/**
 * The webhook pipeline's round trips: the fan-out of a whole stream batch (each merchant's destinations read
 * once, messages 10 per SendMessageBatch, the event carried in the message) and the sender's writes (one
 * attempt per event and destination, a batch's claims and outcomes written at once, no circuit write when the count
 * is already zero). The fan-out and sender
 * handlers run in this process on hand-made batches (the events are never written, so the stack's own pollers
 * do not see them); a private queue stands in for the webhook queue during a fan-out, so its messages can be
 * read exactly.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as fanOutHandler } from '../../../functions/webhooks/fan-out.ts';
import { handler as sendHandler } from '../../../functions/webhooks/send.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as eventKeys from '../../../shared/platform/events/event.entity.ts';
import * as webhookDestinationKeys from '../../../shared/webhooks/webhook-destination.entity.ts';
import * as merchantKeys from '../../../shared/people/merchant.entity.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { claimDeliveryAttempt, getDestination as readDestination, listDeliveries } from '../../../shared/webhooks/webhooks.repository.ts';
import { type Delivery, deliveriesOf } from '../../../shared/webhooks/delivery.entity.ts';
import { samplePayload, type EventType } from '../../../shared/platform/events/catalog.ts';
import { deliveryBody } from '../../../shared/platform/events/outbox.ts';
import { putOutboxEvent } from '../../../shared/platform/events/outbox.repository.ts';
import type { OutboxEvent } from '../../../shared/platform/events/event.entity.ts';
import { createDestination as createAccountDestination } from '../../../shared/webhooks/org-webhooks.service.ts';
import type { DeliveryMessage } from '../../../shared/webhooks/webhook-delivery.service.ts';
import { createDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { organizationAccount, rootMerchant, subMerchant } from '../../support/fixtures.ts';
import { loseFirstAnswerOf, stopLosingAnswers } from '../../support/lost-answers.ts';
import { startReceiver, type Reply } from '../../support/receiver.ts';

const context = (name: string): Context => lambdaContext({ name, timeoutMs: 30_000, region: process.env.AWS_REGION ?? 'us-east-1' });
const sqs = new SQSClient({});
const receivers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  sqs.destroy();
  db.middlewareStack.remove('webhookPipelineTestCounter');
});

async function receiver(answer?: (n: number) => Reply) {
  const r = await startReceiver(answer && ((_, n) => answer(n)));
  receivers.push(r);
  return r;
}

/** Every DynamoDB command this process sends, with the key (or `pk` + sort key prefix) it names. */
const sent: Array<{ command: string; pk: string | undefined; key: string }> = [];
db.middlewareStack.add(
  (next, ctx) => async (args) => {
    const input = (args as { input?: Record<string, unknown> }).input ?? {};
    const key = (input.Key ?? input.Item) as { pk?: { S?: string } | string } | undefined;
    const values = input.ExpressionAttributeValues as Record<string, { S?: string } | string> | undefined;
    const text = (v: { S?: string } | string | undefined) => (typeof v === 'string' ? v : v?.S);
    const pk = text(key?.pk ?? values?.[':pk']);
    sent.push({ command: ctx.commandName ?? '?', pk, key: `${pk} ${text(values?.[':prefix']) ?? ''}` });
    return next(args);
  },
  { step: 'initialize', name: 'webhookPipelineTestCounter' },
);
beforeEach(() => {
  sent.length = 0;
});

/** An outbox event as the stream carries it (never written to the table). */
function outboxEvent(merchant: { id: string; parentId: string | null }, type: EventType, transactionId = randomUUID()): OutboxEvent {
  const now = new Date().toISOString();
  const payload = { ...samplePayload(type, merchant.id, now), ...(type.startsWith('payment.') ? { transactionId } : {}) };
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    type,
    merchantId: merchant.id,
    parentMerchantId: merchant.parentId,
    payload,
    occurredAt: now,
    createdAt: now,
    ...(type === 'payment.completed' ? { extra: { amount: 49.99, currency: 'USD', declineReason: null } } : {}),
  };
}

let sequence = 0;
const streamRecord = (image: Record<string, unknown>): DynamoDBRecord => ({
  eventID: randomUUID(),
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: { NewImage: marshall(image, { removeUndefinedValues: true }) as never, SequenceNumber: String(++sequence).padStart(21, '0') },
});
const recordOf = (e: OutboxEvent) => streamRecord(putOutboxEvent(e).Put!.Item!);

const sqsRecord = (body: string): SQSRecord => ({
  messageId: randomUUID(),
  receiptHandle: randomUUID(),
  body,
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
  awsRegion: 'us-east-1',
  messageAttributes: {},
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
});
const send = (bodies: string[]) => sendHandler({ Records: bodies.map(sqsRecord) } as SQSEvent, context('webhook-sender')) as Promise<SQSBatchResponse>;

/** The queue message of `event` to the merchant destination `destinationId`, as the fan-out queues it (the event carried). */
const messageTo = (destinationId: string, event: OutboxEvent): string =>
  JSON.stringify({
    kind: 'merchant',
    eventId: event.id,
    destinationMerchantId: event.merchantId,
    destinationId,
    event: { type: event.type, merchantId: event.merchantId, occurredAt: event.occurredAt, body: deliveryBody(event) },
  } satisfies DeliveryMessage);

/** Runs the fan-out handler on `records` with a private queue as the webhook queue; answers its response and messages. */
async function fanOutToPrivateQueue(records: DynamoDBRecord[]) {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `pipeline-test-${randomUUID()}` }));
  const original = process.env.WEBHOOK_QUEUE_URL;
  process.env.WEBHOOK_QUEUE_URL = QueueUrl;
  try {
    const response = await fanOutHandler({ Records: records } as DynamoDBStreamEvent, context('webhook-fanout'));
    const bodies: string[] = [];
    for (;;) {
      // Short polls: the messages were sent before this; one that finds nothing means all were read.
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60 }));
      if (!Messages?.length) break;
      bodies.push(...Messages.map((m) => m.Body!));
    }
    return { response, bodies, messages: bodies.map((b) => JSON.parse(b) as DeliveryMessage) };
  } finally {
    process.env.WEBHOOK_QUEUE_URL = original;
    await sqs.send(new DeleteQueueCommand({ QueueUrl }));
  }
}

const merchantOf = async (id: string) => {
  const m = (await getMerchant(id))!;
  return { ...m, parentId: m.parentId ?? null };
};

describe('the sender', () => {
  it('sends a redelivered queue message once: twice in one batch and again in a later batch, one POST and one delivery record', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    const d = await createDestination(merchant, { url: `${r.url}/hooks`, eventTypes: ['payment.completed'] });
    const event = outboxEvent(merchant, 'payment.completed');
    const body = messageTo(d.id, event);

    expect(await send([body, body])).toEqual({ batchItemFailures: [] });
    expect(await send([body])).toEqual({ batchItemFailures: [] });

    expect(r.received).toHaveLength(1);
    expect(JSON.parse(r.received[0]!.rawBody.toString('utf8'))).toEqual({ ...event.payload, merchantId: merchant.id });
    const { items } = await listDeliveries(d.id, 10);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ eventId: event.id, eventType: 'payment.completed', merchantId: merchant.id, status: 'succeeded', httpStatus: 200 });
  });

  it('delivers from the message alone: one batch read of the destinations, the claim and the completion, and no read of the event', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    const d = await createDestination(merchant, { url: r.url, eventTypes: ['payment.completed'] });
    const event = outboxEvent(merchant, 'payment.completed');
    sent.length = 0;
    expect(await send([messageTo(d.id, event)])).toEqual({ batchItemFailures: [] });
    expect(sent.map((s) => s.command)).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'BatchWriteItemCommand']);
    expect(sent.some((s) => s.pk === eventKeys.eventKey(event.id).pk)).toBe(false);
    expect(r.received).toHaveLength(1);
  });

  it("sends once when a lone claim landed but its answer was lost (the SDK's retry finds the claim its own), and a second sender's claim still loses", async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    const d = await createDestination(merchant, { url: r.url, eventTypes: ['payment.completed'] });
    const event = outboxEvent(merchant, 'payment.completed');
    const lost = loseFirstAnswerOf(deliveriesOf(d.id).pk);
    try {
      expect(await send([messageTo(d.id, event)])).toEqual({ batchItemFailures: [] });
    } finally {
      stopLosingAnswers();
    }
    expect(lost.sent()).toBe(2);
    expect(r.received).toHaveLength(1);
    expect((await listDeliveries(d.id, 10)).items.map((x) => x.status)).toEqual(['succeeded']);

    // Two senders claim one new delivery in the same millisecond (the same record but for its claim id): one wins.
    const other = outboxEvent(merchant, 'payment.completed');
    const claim: Delivery = {
      destinationId: d.id,
      eventId: other.id,
      eventType: other.type,
      merchantId: merchant.id,
      status: 'sending',
      httpStatus: null,
      error: null,
      durationMs: null,
      responseSnippet: null,
      attemptedAt: new Date().toISOString(),
    };
    expect((await Promise.all([claimDeliveryAttempt(claim), claimDeliveryAttempt(claim)])).sort()).toEqual([false, true]);
  });

  it("claims a batch's attempts in one transaction and writes their outcomes in one batch, leaving out one already sent", async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    const d = await createDestination(merchant, { url: r.url, eventTypes: ['payment.completed'] });
    const messageOf = (event: OutboxEvent) => messageTo(d.id, event);
    const events = [1, 2, 3, 4].map(() => outboxEvent(merchant, 'payment.completed'));
    expect(await send([messageOf(events[0]!)])).toEqual({ batchItemFailures: [] });

    sent.length = 0;
    // The first again (a redelivery) beside three new ones: its claim is refused, the transaction sent again without it.
    expect(await send(events.map(messageOf))).toEqual({ batchItemFailures: [] });
    expect(sent.map((s) => s.command)).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);
    expect(r.received.map((x) => JSON.parse(x.rawBody.toString('utf8')).transactionId).sort()).toEqual(events.map((e) => e.payload.transactionId).sort());
    const { items } = await listDeliveries(d.id, 10);
    expect(items.map((x) => `${x.eventId} ${x.status} ${x.httpStatus}`).sort()).toEqual(events.map((e) => `${e.id} succeeded 200`).sort());
  });

  it('still delivers a message queued without the event, reading the event item', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    // Subscribed to another type, so the stack's own fan-out of the event written below queues nothing for it.
    const d = await createDestination(merchant, { url: r.url, eventTypes: ['payment.completed'] });
    const event = outboxEvent(merchant, 'customer.created');
    await db.send(new PutCommand(putOutboxEvent(event).Put as never));
    sent.length = 0;
    expect(await send([JSON.stringify({ eventId: event.id, destinationMerchantId: merchant.id, destinationId: d.id })])).toEqual({ batchItemFailures: [] });
    expect(sent.filter((s) => s.command === 'GetItemCommand' && s.pk === eventKeys.eventKey(event.id).pk)).toHaveLength(1);
    expect(r.received).toHaveLength(1);
    expect(JSON.parse(r.received[0]!.rawBody.toString('utf8'))).toEqual({ ...event.payload, merchantId: merchant.id });
  });

  it('resets the failure count on a success after failures, and makes no circuit write on a success when the count is zero', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const d = await createDestination(merchant, { url: r.url, eventTypes: ['payment.completed'] });
    const destinationKey = webhookDestinationKeys.webhookDestinationKey(merchant.id, d.id);
    const messageOf = (event: OutboxEvent) => messageTo(d.id, event);
    const circuitWrites = () => sent.filter((s) => s.command === 'UpdateItemCommand' && s.pk === destinationKey.pk).length;

    await send([messageOf(outboxEvent(merchant, 'payment.completed'))]);
    await send([messageOf(outboxEvent(merchant, 'payment.completed'))]);
    expect((await readDestination(merchant.id, d.id))?.consecutiveFailures).toBe(2);

    sent.length = 0;
    await send([messageOf(outboxEvent(merchant, 'payment.completed'))]);
    expect(circuitWrites()).toBe(1);
    expect(await readDestination(merchant.id, d.id)).toMatchObject({ consecutiveFailures: 0, circuitState: 'closed' });

    const before = (await db.send(new GetCommand({ TableName: tableName(), Key: destinationKey, ConsistentRead: true }))).Item;
    sent.length = 0;
    await send([messageOf(outboxEvent(merchant, 'payment.completed'))]);
    expect(circuitWrites()).toBe(0);
    expect(sent.map((s) => s.command)).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'BatchWriteItemCommand']);
    expect((await db.send(new GetCommand({ TableName: tableName(), Key: destinationKey, ConsistentRead: true }))).Item).toEqual(before);
    expect(r.received).toHaveLength(4);
  });

  it('skips a destination whose circuit is open and reads every destination of the batch in one call', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const r = await receiver();
    const open = await createDestination(merchant, { url: `${r.url}/open`, eventTypes: ['payment.completed'] });
    const closed = await createDestination(merchant, { url: `${r.url}/closed`, eventTypes: ['payment.completed'] });
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookDestinationKeys.webhookDestinationKey(merchant.id, open.id),
        UpdateExpression: 'SET circuitState = :open, circuitOpenedAt = :now',
        ExpressionAttributeValues: { ':open': 'open', ':now': new Date().toISOString() },
      }),
    );
    const event = outboxEvent(merchant, 'payment.completed');
    sent.length = 0;
    expect(await send([messageTo(open.id, event), messageTo(closed.id, event)])).toEqual({ batchItemFailures: [] });
    expect(sent.filter((s) => s.command === 'BatchGetItemCommand')).toHaveLength(1);
    expect(r.received.map((x) => x.path)).toEqual(['/closed']);
    expect((await listDeliveries(open.id, 10)).items).toEqual([expect.objectContaining({ eventId: event.id, status: 'skipped', error: 'circuit_open' })]);
  });
});

describe('the fan-out of a stream batch', () => {
  it("sends each event of several merchants to exactly its subscribers, reading each merchant's destinations once", async () => {
    const org = await organizationAccount('Fan-out org'); // merchant A is an organization with a linked account
    const a = await merchantOf(org.organizationId);
    const b = await merchantOf((await rootMerchant('B')).merchantId);
    const parent = await rootMerchant('Parent that opted in');
    const sub = await merchantOf((await subMerchant(parent.apiKey)).id as string);
    const other = await rootMerchant('Parent that did not');
    const otherSub = await merchantOf((await subMerchant(other.apiKey)).id as string);
    const hook = (name: string) => `http://127.0.0.1:9999/${name}`; // never called: the messages are only read
    const aPayments = await createDestination(a, { url: hook('a-payments'), eventTypes: ['payment.completed'] });
    const aCustomers = await createDestination(a, { url: hook('a-customers'), eventTypes: ['customer.created'] });
    const bAll = await createDestination(b, { url: hook('b-all'), eventTypes: ['payment.completed', 'customer.created'] });
    const parentOptedIn = await createDestination(await merchantOf(parent.merchantId), {
      url: hook('parent'),
      eventTypes: ['payment.completed'],
      receiveSubMerchantEvents: true,
    });
    await createDestination(await merchantOf(other.merchantId), { url: hook('other-parent'), eventTypes: ['payment.completed'] });
    const account = await createAccountDestination(org, { url: hook('account'), eventTypes: ['transaction-processed'] });

    const events = [
      outboxEvent(a, 'payment.completed'),
      outboxEvent(b, 'customer.created'),
      outboxEvent(sub, 'payment.completed'),
      outboxEvent(otherSub, 'payment.completed'),
      outboxEvent(a, 'customer.created'),
      outboxEvent(b, 'payment.completed'),
    ];
    const [aPaid, bCustomer, subPaid, otherSubPaid, aCustomer, bPaid] = events as [
      OutboxEvent,
      OutboxEvent,
      OutboxEvent,
      OutboxEvent,
      OutboxEvent,
      OutboxEvent,
    ];
    sent.length = 0;
    const { response, messages } = await fanOutToPrivateQueue(events.map(recordOf));

    expect(response).toEqual({ batchItemFailures: [] });
    const pairs = messages.map((m) => `${m.eventId} -> ${m.destinationId}`).sort();
    expect(pairs).toEqual(
      [
        `${aPaid.id} -> ${aPayments.id}`,
        `${aPaid.id} -> ${account.id}`,
        `${bCustomer.id} -> ${bAll.id}`,
        `${subPaid.id} -> ${parentOptedIn.id}`,
        `${aCustomer.id} -> ${aCustomers.id}`,
        `${bPaid.id} -> ${bAll.id}`,
      ].sort(),
    );
    expect(otherSubPaid.id).not.toBe(aPaid.id);

    // Each message carries the event: the body its destination's kind gets.
    const toAccount = messages.find((m) => m.destinationId === account.id)!;
    expect(toAccount).toMatchObject({ kind: 'account', destinationAccountId: org.accountId, event: { type: 'payment.completed', merchantId: a.id } });
    expect(JSON.parse(toAccount.event!.body)).toMatchObject({
      id: aPaid.id,
      type: 'transaction-processed',
      organizationId: a.id,
      data: { amount: 49.99, currency: 'USD' },
    });
    const toParent = messages.find((m) => m.destinationId === parentOptedIn.id)!;
    expect(JSON.parse(toParent.event!.body)).toEqual({ ...subPaid.payload, merchantId: sub.id });

    // One Query per merchant's destinations, per organization's links (payment events) and per linked account's
    // destinations, whatever the number of its events in the batch: A, B, sub, other sub, both parents; links
    // of A, B, sub, other sub; the account.
    const queries = sent.filter((s) => s.command === 'QueryCommand').map((s) => s.key);
    expect(new Set(queries).size).toBe(queries.length);
    expect(queries).toHaveLength(11);
    expect(queries.filter((k) => k.startsWith(`${merchantKeys.merchant(a.id).pk} `))).toHaveLength(2);
    expect(sent.filter((s) => s.command !== 'QueryCommand')).toEqual([]);
  });

  it('sends the messages of a batch 10 per SendMessageBatch', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const d = await createDestination(merchant, { url: 'http://127.0.0.1:9999/x', eventTypes: ['customer.created'] });
    const events = Array.from({ length: 23 }, () => outboxEvent(merchant, 'customer.created'));
    const batches: number[] = [];
    const spy = vi.spyOn(SQSClient.prototype, 'send');
    try {
      const { response, messages } = await fanOutToPrivateQueue(events.map(recordOf));
      expect(response).toEqual({ batchItemFailures: [] });
      expect(messages.map((m) => m.eventId).sort()).toEqual(events.map((e) => e.id).sort());
      expect(messages.every((m) => m.destinationId === d.id)).toBe(true);
      for (const [command] of spy.mock.calls) {
        const c = command as { constructor: { name: string }; input: { Entries?: unknown[] } };
        if (c.constructor.name === 'SendMessageBatchCommand') batches.push(c.input.Entries!.length);
      }
    } finally {
      spy.mockRestore();
    }
    expect(batches.sort((x, y) => y - x)).toEqual([10, 10, 3]);
    expect(sent.filter((s) => s.command === 'QueryCommand')).toHaveLength(1);
  });

  it('reports the first record it could not fan out, so the stream retries from there, and fans out the others', async () => {
    const p = await rootMerchant();
    const merchant = await merchantOf(p.merchantId);
    const d = await createDestination(merchant, { url: 'http://127.0.0.1:9999/x', eventTypes: ['customer.created'] });
    const first = outboxEvent(merchant, 'customer.created');
    const last = outboxEvent(merchant, 'customer.created');
    const broken = streamRecord({ ...eventKeys.eventKey('evt_broken'), entity: 'event', type: 'customer.created' }); // no id, no merchant
    const records = [recordOf(first), broken, recordOf(last)];
    const { response, messages } = await fanOutToPrivateQueue(records);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: broken.dynamodb!.SequenceNumber }] });
    expect(messages.map((m) => m.eventId).sort()).toEqual([first.id, last.id].sort());
    expect(messages.every((m) => m.destinationId === d.id)).toBe(true);
  });
});
