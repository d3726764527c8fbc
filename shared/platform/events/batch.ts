/**
 * Consumers of event source mappings with `ReportBatchItemFailures`: every record is handled, and the ones
 * that threw are reported so that only they are retried. `queueBatchConsumer` / `streamBatchConsumer` /
 * `relayedStreamConsumer` wire the Powertools logger, tracer and metrics around a batch handler, as `route()` does
 * for HTTP functions.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, observed } from '../observability.ts';

/**
 * SQS, with one step for the whole batch before its records (`prepare`, e.g. one read or one claim for all of
 * them) and, optionally, one after them all (`finish`, e.g. one write of what they did). When either throws, the
 * invocation fails and every message comes back (handlers must be idempotent). Between them the records are
 * handled concurrently, and each failed message id is reported.
 */
export const queueBatchConsumer = <C>(
  prepare: (records: SQSRecord[]) => Promise<C>,
  handle: (r: SQSRecord, prepared: C) => Promise<void>,
  finish?: (prepared: C) => Promise<void>,
) =>
  observed<SQSEvent, SQSBatchResponse>().handler(async (event) => {
    const prepared = await prepare(event.Records);
    const response = await processQueueBatch(event.Records, (r) => handle(r, prepared));
    await finish?.(prepared);
    return response;
  });

/**
 * Stream, handled as one batch: `handle` answers the indexes of the records that failed, and the earliest of
 * them is reported, so the stream retries from there (records after it are handled again: handlers must be
 * idempotent).
 */
export const streamBatchConsumer = (handle: (records: DynamoDBRecord[]) => Promise<number[]>) =>
  observed<DynamoDBStreamEvent, DynamoDBBatchResponse>().handler(async (event) => retryFrom(event.Records, await handle(event.Records)));

/**
 * Stream records a queue carries (forwarded by the stream relay, ./stream-relay.ts: each message's body one record),
 * handled as one batch: `handle` answers the indexes of the records that failed (and of any it did not reach), and
 * exactly those messages are reported, so they alone come back. A queue keeps no order, so nothing after a failure
 * is sent again with it: a message that succeeded beside one that keeps failing is not counted toward the dead-letter
 * queue's receive limit. A body that is not a record fails its message alone.
 */
export const relayedStreamConsumer = (handle: (records: DynamoDBRecord[]) => Promise<number[]>) =>
  observed<SQSEvent, SQSBatchResponse>().handler(async (event) => {
    const parsed = event.Records.map((message) => {
      try {
        const record = JSON.parse(message.body) as DynamoDBRecord;
        return record && typeof record === 'object' && record.dynamodb ? { message, record } : { message };
      } catch {
        return { message };
      }
    });
    const unreadable = parsed.filter((p) => !p.record).map((p) => p.message);
    for (const m of unreadable) logger.error('queue record is not a stream record', { messageId: m.messageId });
    const readable = parsed.flatMap((p) => (p.record ? [{ message: p.message, record: p.record }] : []));
    const failed = new Set(readable.length ? await handle(readable.map((p) => p.record)) : []);
    const retried = readable.filter((_, i) => failed.has(i));
    for (const p of retried) logger.error('stream record failed', { eventID: p.record.eventID });
    return { batchItemFailures: [...unreadable, ...retried.map((p) => p.message)].map((m) => ({ itemIdentifier: m.messageId })) };
  });

/** The partial batch response that makes the stream retry from the earliest of the `failed` records. */
export function retryFrom(records: DynamoDBRecord[], failed: readonly number[]): DynamoDBBatchResponse {
  if (failed.length === 0) return { batchItemFailures: [] };
  const record = records[Math.min(...failed)]!;
  // Why it failed is logged where it failed (each consumer's handling); this says where the stream goes on from.
  logger.error('stream record failed', { eventID: record.eventID });
  return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
}

/** SQS: records are handled concurrently; each failed message id is reported. */
export async function processQueueBatch(records: SQSRecord[], handle: (r: SQSRecord) => Promise<void>): Promise<SQSBatchResponse> {
  const results = await Promise.allSettled(records.map(handle));
  const batchItemFailures = records.flatMap((r, i) => {
    const result = results[i]!;
    if (result.status === 'fulfilled') return [];
    logger.error('queue record failed', { messageId: r.messageId, error: result.reason as Error });
    return [{ itemIdentifier: r.messageId }];
  });
  return { batchItemFailures };
}
