/**
 * The stream relay (shared/platform/events/stream-relay.ts) against the run's SQS server: each record goes to the
 * queue of every route whose filter it passes, as one message whose body is the record; a record that could not be
 * forwarded is answered as failed, and only that one.
 */
import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureQueue } from '../../../infra/local/sqs.ts';
import { relay, type RelayRoute } from '../../../shared/platform/events/stream-relay.ts';

const sqs = new SQSClient({});
const run = randomUUID().slice(0, 8);
let invoices: string;
let customers: string;

beforeAll(async () => {
  invoices = (await ensureQueue(sqs, { name: `mor-local-relay-invoices-${run}`, visibilityTimeoutSeconds: 30 })).url;
  customers = (await ensureQueue(sqs, { name: `mor-local-relay-customers-${run}`, visibilityTimeoutSeconds: 30 })).url;
});
afterAll(() => sqs.destroy());

const record = (id: string, entity: string, eventName: 'INSERT' | 'MODIFY'): DynamoDBRecord => ({
  eventID: id,
  eventName,
  dynamodb: { Keys: { pk: { S: id }, sk: { S: entity } }, NewImage: { pk: { S: id }, entity: { S: entity } }, SequenceNumber: id },
});

/** Every message on `queueUrl`, received until it is empty. */
async function drain(queueUrl: string): Promise<DynamoDBRecord[]> {
  const bodies: DynamoDBRecord[] = [];
  for (;;) {
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!Messages?.length) return bodies;
    bodies.push(...Messages.map((m) => JSON.parse(m.Body!) as DynamoDBRecord));
  }
}

describe('stream relay', () => {
  it('forwards each record to the queue of every route it passes, and nothing else anywhere', async () => {
    const routes: RelayRoute[] = [
      { queueUrl: invoices, entities: ['invoice'], events: ['INSERT', 'MODIFY'] },
      { queueUrl: customers, entities: ['customer'], events: ['MODIFY'] },
    ];
    // 12 invoice records: more than one SendMessageBatch holds.
    const records = [
      ...Array.from({ length: 12 }, (_, i) => record(`inv-${run}-${i}`, 'invoice', i % 2 ? 'MODIFY' : 'INSERT')),
      record(`cus-${run}-new`, 'customer', 'INSERT'),
      record(`cus-${run}-changed`, 'customer', 'MODIFY'),
      record(`evt-${run}`, 'event', 'INSERT'),
    ];
    expect(await relay(records, routes)).toEqual([]);
    const forwardedInvoices = await drain(invoices);
    expect(forwardedInvoices.map((r) => r.eventID).sort()).toEqual(
      records
        .slice(0, 12)
        .map((r) => r.eventID)
        .sort(),
    );
    expect(forwardedInvoices.find((r) => r.eventID === `inv-${run}-3`)).toEqual(records[3]);
    expect((await drain(customers)).map((r) => r.eventID)).toEqual([`cus-${run}-changed`]);
  });

  it('answers the records it could not forward (a queue that is not there), and forwards the others', async () => {
    const routes: RelayRoute[] = [
      { queueUrl: `${invoices.slice(0, invoices.lastIndexOf('/'))}/mor-local-relay-missing-${run}`, entities: ['invoice'], events: ['INSERT'] },
      { queueUrl: customers, entities: ['customer'], events: ['MODIFY'] },
    ];
    const records = [record(`cus-${run}-a`, 'customer', 'MODIFY'), record(`inv-${run}-x`, 'invoice', 'INSERT'), record(`cus-${run}-b`, 'customer', 'MODIFY')];
    expect(await relay(records, routes)).toEqual([1]);
    expect((await drain(customers)).map((r) => r.eventID).sort()).toEqual([`cus-${run}-a`, `cus-${run}-b`]);
  });
});
