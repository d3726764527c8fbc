/**
 * Feeds the table's stream to its stream consumers the way the deployed Lambda event source mappings do
 * (infra/stacks/consumers-stack.ts): ONE reader takes every shard in lineage order (a child shard only after its
 * parent is finished) and hands each consumer the records that pass its filter (INSERTs, or its `events`, whose NEW
 * image has `entity` in `entities`). Each consumer then goes on at its own pace, as each mapping does: its records in
 * stream order, in batches of at most `batchSize`; a batch response with `batchItemFailures` is retried from the
 * lowest failed sequence number (a checkpoint); a thrown error bisects the batch and retries each half. After
 * `maxRetries` retries the records are handed to `onFailure` (the deployed mapping's on-failure queue) and that
 * consumer goes on. (Deployed, each mapping reads the shards itself; here one read serves them all, so a record is
 * fetched and converted once however many consumers the stack has.)
 */
import { randomUUID } from 'node:crypto';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
  type AttributeValue as SdkAttributeValue,
  type DynamoDBStreamsClient,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { streamRetryAttempts } from '../consumers.ts';
import { passesStreamFilter, type StreamFilter } from '../../shared/platform/events/stream-filter.ts';
import { stopper } from './stopper.ts';

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

export interface StreamConsumerSpec {
  readonly name: string;
  readonly batchSize: number;
  /** The records it takes: those that pass any of these (its deployed mapping's Lambda filters). */
  readonly filters: readonly StreamFilter[];
}

/** One consumer of the stream: its function, and what happens to a batch that keeps failing. */
export interface StreamSubscription {
  readonly consumer: StreamConsumerSpec;
  /** Invokes the consumer function with one batch; resolves with its result, rejects when it throws. */
  readonly invoke: (event: DynamoDBStreamEvent) => Promise<unknown>;
  /** Retries of a failing batch before its records go to `onFailure` (default 10, as deployed). */
  readonly maxRetries?: number;
  readonly retryBaseDelayMs?: number;
  /** The consumer function's ARN, for failure records. */
  readonly functionArn?: string;
  /** Where records go once their retries are exhausted (the deployed on-failure destination). */
  readonly onFailure?: (failure: StreamBatchFailure) => Promise<void>;
  readonly log?: (message: string, error?: unknown) => void;
}

export interface StreamPollerOptions {
  readonly client: DynamoDBStreamsClient;
  readonly streamArn: string;
  readonly consumers: readonly StreamSubscription[];
  /** Where reading starts in the shards that exist when the poller starts; shards born later are read whole. */
  readonly startingPosition: StartingPosition;
  readonly region: string;
  /**
   * Time from the start of one read of the shards to the start of the next (default 250 ms: Lambda reads each
   * shard about 4 times a second). A read that returned a full page (a backlog) is followed at once.
   */
  readonly pollIntervalMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
}

/** What Lambda sends to a stream mapping's on-failure destination. */
export interface StreamBatchFailure {
  readonly requestContext: { requestId: string; functionArn?: string; condition: 'RetryAttemptsExhausted'; approximateInvokeCount: number };
  readonly responseContext: { statusCode: number; executedVersion: string; functionError?: string };
  readonly version: '1.0';
  readonly timestamp: string;
  readonly DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

export interface Poller {
  /** Stops polling; resolves after the batch being processed (if any) has finished. */
  stop(): Promise<void>;
}

function toLambdaAttribute(v: SdkAttributeValue): AttributeValue {
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString('base64') };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: v.NULL };
  if (v.SS !== undefined) return { SS: [...v.SS] };
  if (v.NS !== undefined) return { NS: [...v.NS] };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (v.L !== undefined) return { L: v.L.map(toLambdaAttribute) };
  if (v.M !== undefined) return { M: toLambdaImage(v.M)! };
  // The Streams client deserializes an empty map `{"M":{}}` to `{}`: nothing else comes out empty.
  if (Object.keys(v).length === 0) return { M: {} };
  return v as unknown as AttributeValue; // a type newer than this code: passed on as it came
}

function toLambdaImage(image: Record<string, SdkAttributeValue> | undefined): Record<string, AttributeValue> | undefined {
  if (!image) return undefined;
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toLambdaAttribute(v)]));
}

/** A DynamoDB Streams API record as Lambda delivers it (epoch-second timestamps, base64 binaries). */
export function toLambdaStreamRecord(r: SdkRecord, streamArn: string, region: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  return {
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region, // DynamoDB Local says `ddblocal`; Lambda says the table's region
    dynamodb: {
      ...(created !== undefined ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
      Keys: toLambdaImage(d.Keys),
      ...(d.NewImage ? { NewImage: toLambdaImage(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: toLambdaImage(d.OldImage) } : {}),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
    ...(r.userIdentity ? { userIdentity: { type: r.userIdentity.Type, principalId: r.userIdentity.PrincipalId } } : {}),
    eventSourceARN: streamArn,
  };
}

/**
 * Which records of `batch` must be retried after the function answered `result`: none on success, all when
 * the answer is not a valid partial batch response, else from the lowest failed sequence number on.
 */
export function streamRetryFrom(batch: readonly DynamoDBRecord[], result: unknown): DynamoDBRecord[] {
  const failures = (result as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
  if (failures === undefined || failures === null) return [];
  if (!Array.isArray(failures)) return [...batch];
  if (failures.length === 0) return [];
  let lowest = batch.length;
  for (const f of failures) {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const index = typeof id === 'string' && id ? batch.findIndex((r) => r.dynamodb?.SequenceNumber === id) : -1;
    if (index < 0) return [...batch]; // an unknown identifier fails the whole batch
    lowest = Math.min(lowest, index);
  }
  return batch.slice(lowest);
}

interface ShardState {
  readonly id: string;
  readonly parentId?: string;
  iterator?: string;
  /** The sequence number of the last record handled (delivered, filtered out or dropped). */
  lastSequence?: string;
  /** How to get the first iterator. */
  start: ShardIteratorType;
  done: boolean;
}

const errorName = (e: unknown): string => (e instanceof Error ? e.name : '');

/**
 * Records a consumer may have waiting before the reader pauses for it (a consumer retrying a failing batch holds
 * its later records; the reader goes on until this many are waiting, then waits for it).
 */
const MAX_WAITING = 10_000;

/** A consumer's records waiting to be delivered, in stream order, and the loop that delivers them. */
interface Delivery {
  readonly waiting: Array<{ shardId: string; records: DynamoDBRecord[] }>;
  count: number;
  /** Resolves when the consumer has delivered what was waiting (set while it is busy). */
  idle?: Promise<void>;
}

export async function startStreamPoller(opts: StreamPollerOptions): Promise<Poller> {
  const pollIntervalMs = opts.pollIntervalMs ?? 250;
  const log = opts.log ?? ((message: string, error?: unknown) => console.error(`[stream] ${message}`, error ?? ''));
  const shards = new Map<string, ShardState>();
  const abort = new AbortController();
  const stopping = stopper();
  const { sleep } = stopping;

  async function listShards(): Promise<Shard[]> {
    const all: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await opts.client.send(new DescribeStreamCommand({ StreamArn: opts.streamArn, ExclusiveStartShardId }), {
        abortSignal: abort.signal,
      });
      all.push(...(StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    return all;
  }

  /** Adds shards not seen yet: at start per `startingPosition`, later from their beginning. */
  async function discover(initial: boolean): Promise<void> {
    for (const shard of await listShards()) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      const skip = initial && opts.startingPosition === 'LATEST' && closed;
      shards.set(shard.ShardId, {
        id: shard.ShardId,
        parentId: shard.ParentShardId,
        start: initial && opts.startingPosition === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON',
        done: skip,
      });
    }
  }

  async function iteratorFor(shard: ShardState): Promise<string | undefined> {
    const type: ShardIteratorType = shard.lastSequence ? 'AFTER_SEQUENCE_NUMBER' : shard.start;
    const { ShardIterator } = await opts.client.send(
      new GetShardIteratorCommand({
        StreamArn: opts.streamArn,
        ShardId: shard.id,
        ShardIteratorType: type,
        ...(shard.lastSequence ? { SequenceNumber: shard.lastSequence } : {}),
      }),
      { abortSignal: abort.signal },
    );
    return ShardIterator;
  }

  /** What one consumer does with its records: batches in order, each retried (and bisected) until handled or given up. */
  function consumerOf(subscription: StreamSubscription) {
    const { consumer } = subscription;
    const maxRetries = subscription.maxRetries ?? streamRetryAttempts;
    const retryBaseDelayMs = subscription.retryBaseDelayMs ?? 250;
    const clog = subscription.log ?? ((message: string, error?: unknown) => console.error(`[stream ${consumer.name}] ${message}`, error ?? ''));

    async function giveUp(shardId: string, records: readonly DynamoDBRecord[], attempts: number, error: unknown): Promise<void> {
      const first = records[0]?.dynamodb;
      const last = records.at(-1)?.dynamodb;
      const arrival = (d: typeof first) => new Date((d?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
      const failure: StreamBatchFailure = {
        requestContext: {
          requestId: randomUUID(),
          functionArn: subscription.functionArn,
          condition: 'RetryAttemptsExhausted',
          approximateInvokeCount: attempts,
        },
        responseContext: { statusCode: 200, executedVersion: '$LATEST', ...(error !== undefined ? { functionError: 'Unhandled' } : {}) },
        version: '1.0',
        timestamp: new Date().toISOString(),
        DDBStreamBatchInfo: {
          shardId,
          startSequenceNumber: first?.SequenceNumber ?? '',
          endSequenceNumber: last?.SequenceNumber ?? '',
          approximateArrivalOfFirstRecord: arrival(first),
          approximateArrivalOfLastRecord: arrival(last),
          batchSize: records.length,
          streamArn: opts.streamArn,
        },
      };
      clog(`giving up on ${records.length} record(s) from sequence number ${failure.DDBStreamBatchInfo.startSequenceNumber} after ${attempts} attempts`, error);
      try {
        await subscription.onFailure?.(failure);
      } catch (e) {
        clog('could not hand the failed batch to the failure destination', e);
      }
    }

    /** Delivers one batch with retries (bisecting on errors); returns once it is handled or given up. */
    async function deliver(shardId: string, batch: DynamoDBRecord[], retries = 0): Promise<void> {
      let pending = batch;
      let done = retries;
      while (pending.length > 0 && !stopping.stopped) {
        let result: unknown;
        let error: unknown;
        try {
          result = await subscription.invoke({ Records: pending });
        } catch (e) {
          error = e ?? new Error('function failed');
        }
        const retry = error === undefined ? streamRetryFrom(pending, result) : pending;
        if (retry.length === 0) return;
        if (done >= maxRetries) return giveUp(shardId, retry, done + 1, error);
        done += 1;
        if (error !== undefined && done === 1) clog(`batch of ${pending.length} failed, retrying`, error);
        await sleep(Math.min(5_000, retryBaseDelayMs * 2 ** (done - 1)));
        if (error !== undefined && retry.length > 1) {
          const half = Math.ceil(retry.length / 2);
          await deliver(shardId, retry.slice(0, half), done);
          await deliver(shardId, retry.slice(half), done);
          return;
        }
        pending = retry;
      }
    }

    const delivery: Delivery = { waiting: [], count: 0 };
    /** Starts delivering unless it already is (and again, should records have come as it finished). */
    const kick = (): void => {
      if (delivery.idle) return;
      delivery.idle = drain().finally(() => {
        delivery.idle = undefined;
        if (delivery.waiting.length > 0 && !stopping.stopped) kick();
      });
    };
    /** Delivers what is waiting, oldest first, until nothing is (or the poller stops). */
    async function drain(): Promise<void> {
      while (delivery.waiting.length > 0 && !stopping.stopped) {
        const { shardId, records } = delivery.waiting[0]!;
        for (let i = 0; i < records.length && !stopping.stopped; i += consumer.batchSize) await deliver(shardId, records.slice(i, i + consumer.batchSize));
        delivery.waiting.shift();
        delivery.count -= records.length;
      }
    }
    return {
      delivery,
      /** Queues the records of one read of `shardId` that pass the consumer's filter. */
      take(shardId: string, records: readonly DynamoDBRecord[]) {
        const wanted = records.filter((r) => consumer.filters.some((f) => passesStreamFilter(r, f)));
        if (wanted.length === 0) return;
        delivery.waiting.push({ shardId, records: wanted });
        delivery.count += wanted.length;
        kick();
      },
    };
  }
  const consumers = opts.consumers.map(consumerOf);

  /** Records per `GetRecords`; a read that returns this many leaves more behind. */
  const pageSize = 1000;

  /** Reads once from a shard; true when it returned a full page (so there are more right away). */
  async function pollShard(shard: ShardState): Promise<boolean> {
    if (!shard.iterator) {
      try {
        shard.iterator = await iteratorFor(shard);
      } catch (e) {
        if (errorName(e) !== 'TrimmedDataAccessException') throw e;
        shard.lastSequence = undefined;
        shard.start = 'TRIM_HORIZON';
        shard.iterator = await iteratorFor(shard);
      }
      if (!shard.iterator) {
        shard.done = true;
        return false;
      }
    }
    let response: GetRecordsCommandOutput;
    try {
      response = await opts.client.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: pageSize }), { abortSignal: abort.signal });
    } catch (e) {
      if (errorName(e) === 'ExpiredIteratorException' || errorName(e) === 'TrimmedDataAccessException') {
        shard.iterator = undefined; // re-acquired after the last handled record on the next round
        return true;
      }
      throw e;
    }
    const records = (response.Records ?? []).map((r) => toLambdaStreamRecord(r, opts.streamArn, opts.region));
    for (const c of consumers) c.take(shard.id, records);
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last) shard.lastSequence = last;
    shard.iterator = response.NextShardIterator;
    if (!shard.iterator) shard.done = true; // a closed shard read to its end: its children may start
    return records.length >= pageSize;
  }

  async function loop(): Promise<void> {
    let lastDiscovery = Date.now();
    while (!stopping.stopped) {
      // A consumer far behind (a failing batch being retried) holds the reader back until it catches up.
      for (const { delivery } of consumers) if (delivery.count > MAX_WAITING) await delivery.idle;
      let busy = false;
      const started = Date.now();
      try {
        if (Date.now() - lastDiscovery > 1_000) {
          await discover(false);
          lastDiscovery = Date.now();
        }
        for (const shard of shards.values()) {
          if (stopping.stopped) break;
          if (shard.done) continue;
          const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
          if (parent && !parent.done) continue;
          const wasDone = shard.done;
          busy = (await pollShard(shard)) || busy;
          if (!wasDone && shard.done) lastDiscovery = 0; // look for the children now
        }
      } catch (e) {
        if (stopping.stopped) break;
        log('reading the stream failed, retrying', e);
        await sleep(1_000);
        continue;
      }
      if (!busy) await sleep(Math.max(0, started + pollIntervalMs - Date.now()));
    }
  }

  await discover(true);
  // Take the iterators now, so "LATEST" means "after start() resolved", not "after the first poll".
  for (const shard of shards.values()) {
    const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
    if (!shard.done && !(parent && !parent.done)) shard.iterator = await iteratorFor(shard);
  }
  const running = loop();

  return {
    async stop() {
      if (stopping.stopped) return running;
      stopping.stop();
      // Cancel a request in flight only when no batch is being delivered (delivery finishes on its own).
      setTimeout(() => abort.abort(), 0).unref();
      await running;
      // The batches being delivered finish; what waits behind them is left (not checkpointed anywhere).
      await Promise.all(consumers.map((c) => c.delivery.idle));
    },
  };
}
