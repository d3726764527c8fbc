/**
 * The local event source mappings: the stream poller and the queue poller, wired by the same code the local
 * stack uses (`startConsumers`), run here against the run's DynamoDB Local and SQS server with fixture
 * consumers from test/fixtures/consumers.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient, PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/dynamo.ts';
import { sqsFailedIds } from '../../../infra/local/queue-poller.ts';
import { ensureQueue, type EnsuredQueue } from '../../../infra/local/sqs.ts';
import { startConsumers, type LocalConsumerDef, type RunningConsumers } from '../../../infra/local/stack.ts';
import { streamRetryFrom } from '../../../infra/local/stream-poller.ts';
import { recordings } from '../../fixtures/consumers/recorder.ts';
import { requireLocalEndpoint } from '../../support/local-endpoint.ts';

const endpoints = requireLocalEndpoint();
const region = process.env.AWS_REGION!;
const tableName = process.env.TABLE_NAME!;
const run = randomUUID().slice(0, 8);

const dynamo = new DynamoDBClient({});
const streams = new DynamoDBStreamsClient({ endpoint: endpoints.dynamo });
const sqs = new SQSClient({});

const matching = `fixture-match-${run}`;
/** The entity of a second stream consumer, fed by the same read of the stream. */
const matchingOther = `fixture-match-other-${run}`;
const consumers: LocalConsumerDef[] = [
  { source: 'tableStream', name: 'fixture-stream', handler: 'test/fixtures/consumers/stream-recorder.ts', batchSize: 10, table: 'read', entities: [matching] },
  {
    source: 'tableStream',
    name: 'fixture-stream-other',
    handler: 'test/fixtures/consumers/stream-recorder.ts',
    batchSize: 10,
    table: 'read',
    entities: [matchingOther],
  },
  { source: 'queue', name: 'fixture-queue', handler: 'test/fixtures/consumers/queue-recorder.ts', batchSize: 10, queue: `fixture-${run}` },
];

/** What the pollers logged (instead of the test output), and when. */
const logged: string[] = [];
const loggedAt: number[] = [];
let queue: EnsuredQueue;
let streamFailures: EnsuredQueue;
let running: RunningConsumers;

beforeAll(async () => {
  const { streamArn } = await ensureTable(dynamo, tableName);
  queue = await ensureQueue(sqs, {
    name: `mor-local-fixture-${run}`,
    visibilityTimeoutSeconds: 1,
    deadLetter: { name: `mor-local-fixture-${run}-dlq`, maxReceiveCount: 2 },
  });
  streamFailures = await ensureQueue(sqs, { name: `mor-local-fixture-${run}-stream-failures`, visibilityTimeoutSeconds: 30 });
  running = await startConsumers(consumers, {
    region,
    streams,
    sqs,
    streamArn,
    startingPosition: 'LATEST', // the table is shared with the other test files
    queue: () => queue,
    streamFailureQueueUrl: streamFailures.url,
    pollIntervalMs: 100,
    maxRetries: 2,
    retryBaseDelayMs: 50,
    log: (message) => {
      logged.push(message);
      loggedAt.push(Date.now());
    },
  });
});

afterAll(async () => {
  await running?.stop();
  dynamo.destroy();
  streams.destroy();
  sqs.destroy();
});

async function eventually<T>(probe: () => T | undefined, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The records the first stream consumer got (`of`: another consumer's). */
const streamRecords = (of = 'mor-local-fixture-stream'): DynamoDBRecord[] =>
  recordings()
    .stream.filter((i) => i.functionName === of)
    .flatMap((i) => [...i.records]);
const idOf = (r: DynamoDBRecord) => r.dynamodb?.NewImage?.pk?.S;

async function put(pk: string, entity: string, extra: Record<string, AttributeValue> = {}) {
  await dynamo.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk }, sk: { S: 'fixture' }, entity: { S: entity }, ...extra } }));
}

describe('stream poller', () => {
  it('feeds the consumer only records whose NEW image has an entity it filters on, as a Lambda stream event', async () => {
    // Arrange
    const wanted = `FIXTURE#${run}#wanted`;
    const other = `FIXTURE#${run}#other`;
    // Act
    await put(other, `fixture-other-${run}`);
    await put(wanted, matching);
    // Assert
    const record = await eventually(() => streamRecords().find((r) => idOf(r) === wanted));
    expect(record).toMatchObject({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      awsRegion: region,
      eventSourceARN: expect.stringMatching(/^arn:aws:dynamodb:.*:table\/mor-local\/stream\//),
      dynamodb: {
        Keys: { pk: { S: wanted }, sk: { S: 'fixture' } },
        NewImage: { pk: { S: wanted }, entity: { S: matching } },
        StreamViewType: 'NEW_AND_OLD_IMAGES',
        SequenceNumber: expect.any(String),
        ApproximateCreationDateTime: expect.any(Number),
      },
    });
    expect(recordings().stream.at(-1)?.functionName).toBe('mor-local-fixture-stream');
    // The other item was written first, so had it passed the filter it would already be here.
    expect(streamRecords().some((r) => idOf(r) === other)).toBe(false);
    expect(streamRecords().every((r) => r.dynamodb?.NewImage?.entity?.S === matching)).toBe(true);
  });

  it('delivers every attribute type the way Lambda does (binary as base64, an empty map kept)', async () => {
    const pk = `FIXTURE#${run}#types`;
    await put(pk, matching, {
      bin: { B: new Uint8Array([0, 1, 254]) },
      bins: { BS: [new Uint8Array([1]), new Uint8Array([2])] },
      empty: { M: {} },
      list: { L: [{ N: '1' }, { NULL: true }, { M: { inner: { SS: ['a', 'b'] } } }] },
      flag: { BOOL: false },
      nums: { NS: ['1', '2.5'] },
    });
    const image = (await eventually(() => streamRecords().find((r) => idOf(r) === pk))).dynamodb!.NewImage!;
    expect(image.bin).toEqual({ B: Buffer.from([0, 1, 254]).toString('base64') });
    expect(image.bins).toEqual({ BS: ['AQ==', 'Ag=='] });
    expect(image.empty).toEqual({ M: {} });
    expect(image.list).toEqual({ L: [{ N: '1' }, { NULL: true }, { M: { inner: { SS: ['a', 'b'] } } }] });
    expect(image.flag).toEqual({ BOOL: false });
    expect(image.nums?.NS).toEqual(expect.arrayContaining(['1', '2.5']));
  });

  it('delivers INSERTs only, like the deployed filter: no MODIFY and no REMOVE of a matching item', async () => {
    const pk = `FIXTURE#${run}#lifecycle`;
    await put(pk, matching);
    await put(pk, matching, { updated: { BOOL: true } });
    await dynamo.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: 'fixture' } } }));
    // A later write proves the poller has moved past the MODIFY and the REMOVE.
    const marker = `FIXTURE#${run}#after-remove`;
    await put(marker, matching);
    await eventually(() => streamRecords().find((r) => idOf(r) === marker));
    const seen = streamRecords().filter((r) => r.dynamodb?.Keys?.pk?.S === pk);
    expect(seen.map((r) => r.eventName)).toEqual(['INSERT']);
    expect(seen[0]?.dynamodb?.NewImage?.updated).toBeUndefined();
  });

  it('retries a record reported in batchItemFailures, from that record on, and not the ones before it', async () => {
    const before = `FIXTURE#${run}#before`;
    const failing = `FIXTURE#${run}#fail-once`;
    // One request, so both records (very likely) come in one batch.
    await dynamo.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [tableName]: [
            { PutRequest: { Item: { pk: { S: before }, sk: { S: 'fixture' }, entity: { S: matching } } } },
            { PutRequest: { Item: { pk: { S: failing }, sk: { S: 'fixture' }, entity: { S: matching }, failOnce: { BOOL: true } } } },
          ],
        },
      }),
    );
    await eventually(() => (streamRecords().filter((r) => idOf(r) === failing).length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300)); // no third delivery once it succeeded
    expect(streamRecords().filter((r) => idOf(r) === failing)).toHaveLength(2);
    expect(streamRecords().filter((r) => idOf(r) === before)).toHaveLength(1);
  });

  it('bisects a batch the function throws on and, once the retries are spent, sends the failing record to the failure queue', async () => {
    const fine = `FIXTURE#${run}#fine-neighbour`;
    const poison = `FIXTURE#${run}#poison`;
    await dynamo.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [tableName]: [
            { PutRequest: { Item: { pk: { S: fine }, sk: { S: 'fixture' }, entity: { S: matching } } } },
            { PutRequest: { Item: { pk: { S: poison }, sk: { S: 'fixture' }, entity: { S: matching }, failAlways: { BOOL: true } } } },
          ],
        },
      }),
    );
    let failure: { requestContext: Record<string, unknown>; DDBStreamBatchInfo: Record<string, unknown> } | undefined;
    const deadline = Date.now() + 8_000;
    while (!failure && Date.now() < deadline) {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: streamFailures.url, WaitTimeSeconds: 1 }));
      if (Messages?.[0]) failure = JSON.parse(Messages[0].Body!);
    }
    const poisonSeq = streamRecords().find((r) => idOf(r) === poison)?.dynamodb?.SequenceNumber;
    expect(failure).toMatchObject({
      requestContext: {
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 3,
        functionArn: expect.stringMatching(/:function:mor-local-fixture-stream$/),
      },
      DDBStreamBatchInfo: { batchSize: 1, startSequenceNumber: poisonSeq, endSequenceNumber: poisonSeq, streamArn: expect.stringContaining('/stream/') },
    });
    expect(logged.some((m) => m.includes(`[fixture-stream] giving up on 1 record(s) from sequence number ${poisonSeq} after 3 attempts`))).toBe(true);
    // The neighbour was delivered on its own and succeeded; the stream goes on after the poison record.
    expect(recordings().stream.some((i) => i.functionName === 'mor-local-fixture-stream' && i.records.length === 1 && idOf(i.records[0]!) === fine)).toBe(true);
    const after = `FIXTURE#${run}#after-poison`;
    await put(after, matching);
    await eventually(() => streamRecords().find((r) => idOf(r) === after));
  });

  it('feeds every stream consumer from the same read, each only its own records, and a slow one does not hold another back', async () => {
    const slow = `FIXTURE#${run}#slow-for-first`;
    const theirs = `FIXTURE#${run}#for-the-other`;
    // The first consumer takes 2 s over a batch; the other's record is written once that batch has started.
    await put(slow, matching, { slowMs: { N: '2000' } });
    const started = await eventually(() => recordings().stream.find((i) => i.functionName === 'mor-local-fixture-stream' && idOf(i.records[0]!) === slow));
    await put(theirs, matchingOther);
    const delivered = await eventually(() =>
      recordings().stream.find((i) => i.functionName === 'mor-local-fixture-stream-other' && i.records.some((r) => idOf(r) === theirs)),
    );
    // Delivered while the first consumer was still busy with the batch before it.
    expect(delivered.at).toBeLessThan(started.at + 2000);
    // Each consumer got only the records of its own entity.
    expect(streamRecords('mor-local-fixture-stream-other').every((r) => r.dynamodb?.NewImage?.entity?.S === matchingOther)).toBe(true);
    expect(streamRecords().every((r) => r.dynamodb?.NewImage?.entity?.S === matching)).toBe(true);
  });
});

describe('partial batch responses', () => {
  const records = ['1', '2', '3'].map((seq) => ({ dynamodb: { SequenceNumber: seq } }) as DynamoDBRecord);
  const sqsRecords = ['a', 'b'].map((messageId) => ({ messageId }) as SQSRecord);

  it('retries a stream batch from its lowest failed sequence number, all of it on an invalid answer', () => {
    expect(streamRetryFrom(records, undefined)).toEqual([]);
    expect(streamRetryFrom(records, { batchItemFailures: [] })).toEqual([]);
    expect(streamRetryFrom(records, { batchItemFailures: [{ itemIdentifier: '3' }, { itemIdentifier: '2' }] })).toEqual(records.slice(1));
    expect(streamRetryFrom(records, { batchItemFailures: [{ itemIdentifier: 'unknown' }] })).toEqual(records);
    expect(streamRetryFrom(records, { batchItemFailures: [{ itemIdentifier: '' }] })).toEqual(records);
    expect(streamRetryFrom(records, { batchItemFailures: 'nonsense' })).toEqual(records);
  });

  it('keeps on the queue the messages reported failed, all of them on an invalid answer', () => {
    expect(sqsFailedIds(sqsRecords, null)).toEqual(new Set());
    expect(sqsFailedIds(sqsRecords, { batchItemFailures: [{ itemIdentifier: 'b' }] })).toEqual(new Set(['b']));
    expect(sqsFailedIds(sqsRecords, { batchItemFailures: [{ itemIdentifier: 'zzz' }] })).toEqual(new Set(['a', 'b']));
    expect(sqsFailedIds(sqsRecords, { batchItemFailures: [{}] })).toEqual(new Set(['a', 'b']));
  });
});

const queueRecords = (): SQSRecord[] => recordings().queue.flatMap((i) => [...i.records]);

async function depth(url: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return (
    Number(Attributes?.ApproximateNumberOfMessages) +
    Number(Attributes?.ApproximateNumberOfMessagesNotVisible) +
    Number(Attributes?.ApproximateNumberOfMessagesDelayed)
  );
}

describe('queue poller', () => {
  it('deletes a message the consumer handled and redelivers one it reported as a batch item failure', async () => {
    // Arrange
    const ok = await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: JSON.stringify({ test: 'ok' }),
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'ok' } },
      }),
    );
    const flaky = await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: JSON.stringify({ fail: 'once' }) }));

    // Act: the failed message comes back after the 1 s visibility timeout
    const second = await eventually(() => queueRecords().find((r) => r.messageId === flaky.MessageId && r.attributes.ApproximateReceiveCount === '2'), 10_000);

    // Assert
    expect(second.eventSource).toBe('aws:sqs');
    expect(second.eventSourceARN).toBe(queue.arn);
    const first = queueRecords().filter((r) => r.messageId === ok.MessageId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      body: '{"test":"ok"}',
      md5OfBody: ok.MD5OfMessageBody,
      awsRegion: region,
      receiptHandle: expect.any(String),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: expect.any(String), ApproximateFirstReceiveTimestamp: expect.any(String) },
      messageAttributes: { kind: { stringValue: 'ok', dataType: 'String', stringListValues: [], binaryListValues: [] } },
    });
    expect(recordings().queue.at(-1)?.functionName).toBe('mor-local-fixture-queue');
    // Both are gone now: the handled one was deleted at once, the flaky one after its successful retry.
    const deadline = Date.now() + 3_000;
    while ((await depth(queue.url)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await depth(queue.url)).toBe(0);
    expect(queueRecords().filter((r) => r.messageId === ok.MessageId)).toHaveLength(1);
  });

  it('moves a message that keeps failing to the dead-letter queue after maxReceiveCount receives', async () => {
    const doomed = await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: JSON.stringify({ fail: 'always' }) }));
    const deadline = Date.now() + 10_000;
    let moved: string | undefined;
    while (!moved && Date.now() < deadline) {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.deadLetterUrl!, WaitTimeSeconds: 1 }));
      moved = Messages?.find((m) => m.MessageId === doomed.MessageId)?.MessageId;
    }
    expect(moved).toBe(doomed.MessageId);
    expect(
      queueRecords()
        .filter((r) => r.messageId === doomed.MessageId)
        .map((r) => r.attributes.ApproximateReceiveCount),
    ).toEqual(['1', '2']);
  });
});
