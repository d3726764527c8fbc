/**
 * Consumers of event source mappings with `ReportBatchItemFailures`: every record is handled, and the ones
 * that threw are reported so that only they are retried. `queueConsumer` / `streamConsumer` wire the
 * Powertools logger, tracer and metrics around a record handler, as `route()` does for HTTP functions.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, metrics, tracer } from '../observability.ts';

const observed = <E, R>(handler: (event: E) => Promise<R>) =>
  middy<E, R>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(logMetrics(metrics))
    .handler(handler);

export const queueConsumer = (handle: (r: SQSRecord) => Promise<void>) =>
  observed<SQSEvent, SQSBatchResponse>((event) => processQueueBatch(event.Records, handle));

export const streamConsumer = (handle: (r: DynamoDBRecord) => Promise<void>) =>
  observed<DynamoDBStreamEvent, DynamoDBBatchResponse>((event) => processStreamBatch(event.Records, handle));

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

/**
 * Stream records are handled concurrently; the earliest failed record (in stream order) is reported by its
 * sequence number, so Lambda retries from there. Records after it may be handled twice, so stream handlers
 * must be idempotent (the webhook fan-out is: the sender's attempt record drops duplicates).
 */
export async function processStreamBatch(records: DynamoDBRecord[], handle: (r: DynamoDBRecord) => Promise<void>): Promise<DynamoDBBatchResponse> {
  const results = await Promise.allSettled(records.map(handle));
  const first = results.findIndex((r) => r.status === 'rejected');
  if (first === -1) return { batchItemFailures: [] };
  const record = records[first]!;
  logger.error('stream record failed', { eventID: record.eventID, error: (results[first] as PromiseRejectedResult).reason as Error });
  return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
}
