/**
 * Stream consumer, fed by the relay through its queue (changes of customers): a past-due subscription is retried at
 * once when its customer sets a new primary payment instrument (shared/subscriptions/instrument-retry.service.ts).
 * The records that failed come back.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { relayedStreamConsumer } from '../../shared/platform/events/batch.ts';
import { logger } from '../../shared/platform/observability.ts';
import { primaryInstrumentChange, retryPastDue } from '../../shared/subscriptions/instrument-retry.service.ts';

const image = (i: Record<string, unknown> | undefined) => (i ? unmarshall(i as Record<string, AttributeValue>) : undefined);

export const handler = relayedStreamConsumer(async (records) => {
  const failed: number[] = [];
  for (const [i, r] of records.entries()) {
    const change = primaryInstrumentChange(image(r.dynamodb?.OldImage), image(r.dynamodb?.NewImage));
    if (!change) continue;
    try {
      await retryPastDue(change);
    } catch (error) {
      logger.error('a past-due subscription could not be retried on the new primary instrument', { eventID: r.eventID, error: error as Error });
      failed.push(i);
    }
  }
  return failed;
});
