/**
 * Stream consumer: each new outbox event becomes one queue message per subscribed destination, merchants' and
 * (for payment events) those of the organization-API accounts linked to the organization. The batch is fanned
 * out at once (each merchant's destinations read once); the stream retries from the first record that failed.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { streamBatchConsumer } from '../../shared/platform/events/batch.ts';
import { eventsOfStreamBatch } from '../../shared/platform/events/outbox.ts';
import { fanOutBatch } from '../../shared/webhooks/webhook-fan-out.service.ts';

export const handler = streamBatchConsumer(async (records) => {
  const { events, failed } = eventsOfStreamBatch(records, (image) => unmarshall(image as Record<string, AttributeValue>));
  const failedEvents = await fanOutBatch(events.map((e) => e.event));
  return [...failed, ...failedEvents.map((i) => events[i]!.record)];
});
