/**
 * The stream relay: the table's stream has at most two readers (DynamoDB Streams throttles a shard read by more
 * than two at once), the webhook fan-out and this. Every other stream consumer takes its records from a queue of its
 * own, to which the relay forwards each record that passes the consumer's filter (`STREAM_RELAY_ROUTES`: per
 * consumer, its queue's URL and its filter). A record is one message, its body the record as Lambda delivers it; the
 * consumer reads it back with `relayedStreamConsumer` (./batch.ts). Queues do not keep the stream's order: a
 * consumer fed by the relay handles each record on its own (each of today's renders a version, or acts on the change
 * its two images show, or takes a lease).
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { DynamoDBRecord } from 'aws-lambda';
import * as v from 'valibot';
import { requiredEnv } from '../config.ts';
import { logger, withoutSdkLogging } from '../observability.ts';
import { passesStreamFilter, type StreamFilter } from './stream-filter.ts';

const sqs = withoutSdkLogging(new SQSClient({ credentials: fromEnv() }));

/** Where the relay sends what: a consumer's queue, and the records it takes. */
export interface RelayRoute extends StreamFilter {
  readonly queueUrl: string;
}

const routesSchema = v.array(
  v.object({
    queueUrl: v.string(),
    entities: v.array(v.string()),
    events: v.optional(v.array(v.picklist(['INSERT', 'MODIFY']))),
  }),
);

/** The routes of `STREAM_RELAY_ROUTES` (a JSON array of `RelayRoute`). */
export const relayRoutes = (): RelayRoute[] => v.parse(routesSchema, JSON.parse(requiredEnv('STREAM_RELAY_ROUTES')));

/** The most a `SendMessageBatch` carries: 10 messages, 1 MiB in all (what SQS takes), less room for the request. */
const BATCH_MESSAGES = 10;
const BATCH_BYTES = 900 * 1024;

/**
 * Forwards each of `records` to the queue of every route whose filter it passes. Answers the indexes of the records
 * that could not be forwarded to every such queue (the stream retries from the first of them; a consumer may then
 * get a record twice, as from the stream itself).
 */
export async function relay(records: readonly DynamoDBRecord[], routes: readonly RelayRoute[]): Promise<number[]> {
  const failed = new Set<number>();
  const sends: Array<Promise<void>> = [];
  for (const route of routes) {
    const batches: Array<Array<{ record: number; body: string }>> = [];
    let bytes = 0;
    records.forEach((record, i) => {
      if (!passesStreamFilter(record, route)) return;
      const body = JSON.stringify(record);
      const size = Buffer.byteLength(body);
      const last = batches.at(-1);
      if (!last || last.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES) {
        batches.push([{ record: i, body }]);
        bytes = size;
      } else {
        last.push({ record: i, body });
        bytes += size;
      }
    });
    for (const batch of batches) {
      sends.push(
        sqs
          .send(new SendMessageBatchCommand({ QueueUrl: route.queueUrl, Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: m.body })) }))
          .then(({ Failed }) => {
            for (const f of Failed ?? []) failed.add(batch[Number(f.Id)]!.record);
            if (Failed?.length) logger.error('could not relay stream records', { queueUrl: route.queueUrl, failed: Failed.length, code: Failed[0]!.Code });
          })
          .catch((error: unknown) => {
            for (const m of batch) failed.add(m.record);
            logger.error('could not relay stream records', { queueUrl: route.queueUrl, error: error as Error });
          }),
      );
    }
  }
  await Promise.all(sends);
  return [...failed].sort((a, b) => a - b);
}
