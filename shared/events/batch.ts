/**
 * Partial batch responses for event source mappings with `ReportBatchItemFailures`: every record is handled,
 * and the ones that threw are reported so that only they are retried.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { logger } from '../observability.ts';

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
 * Streams keep order per shard: records are handled in order, and the first failure is reported by its
 * sequence number, so Lambda retries from there (the records before it are not sent again).
 */
export async function processStreamBatch(records: DynamoDBRecord[], handle: (r: DynamoDBRecord) => Promise<void>): Promise<DynamoDBBatchResponse> {
  for (const record of records) {
    try {
      await handle(record);
    } catch (error) {
      logger.error('stream record failed', { eventID: record.eventID, error: error as Error });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}
