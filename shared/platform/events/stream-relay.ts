/**
 * The stream relay: the table's stream has at most two readers (DynamoDB Streams throttles a shard read by more
 * than two at once), the webhook fan-out and this. Every other stream consumer takes its records from a queue of its
 * own, to which the relay forwards each record that passes the consumer's filter (`STREAM_RELAY_ROUTES`: per
 * consumer, its queue's URL and its filter). A record is one message, its body the record as Lambda delivers it; the
 * consumer reads it back with `relayedStreamConsumer` (./batch.ts). Queues do not keep the stream's order: a
 * consumer fed by the relay handles each record on its own (each of today's renders a version, or acts on the change
 * its two images show, or takes a lease).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as v from 'valibot';
import { requiredEnv } from '../config.ts';
import { sendMessages } from '../aws/sqs-send.ts';
import { passesStreamFilter, type StreamFilter } from './stream-filter.ts';

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

/**
 * Forwards each of `records` to the queue of every route whose filter it passes. Answers the indexes of the records
 * that could not be forwarded to every such queue (the stream retries from the first of them; a consumer may then
 * get a record twice, as from the stream itself).
 */
export async function relay(records: readonly DynamoDBRecord[], routes: readonly RelayRoute[]): Promise<number[]> {
  const failed = new Set<number>();
  await Promise.all(
    routes.map(async (route) => {
      const taken = records.flatMap((record, i) => (passesStreamFilter(record, route) ? [i] : []));
      const unsent = await sendMessages(
        route.queueUrl,
        taken.map((i) => JSON.stringify(records[i])),
        'relay stream records',
      );
      for (const j of unsent) failed.add(taken[j]!);
    }),
  );
  return [...failed].sort((a, b) => a - b);
}
