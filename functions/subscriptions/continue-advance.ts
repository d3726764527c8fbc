/**
 * Stream consumer, fed by the relay through its queue (writes of test clocks): an advance whose request ran out of
 * time goes on here, in the background, from the write that handed it off (shared/subscriptions/test-clock.service.ts
 * `continueAdvance`); it hands itself off again while steps are still due. Every other write of a clock is passed
 * over. The records that failed come back.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { relayedStreamConsumer } from '../../shared/platform/events/batch.ts';
import { logger } from '../../shared/platform/observability.ts';
import { continueAdvance, handedOffClock } from '../../shared/subscriptions/test-clock.service.ts';

export const handler = relayedStreamConsumer(async (records) => {
  const failed: number[] = [];
  for (const [i, r] of records.entries()) {
    const image = r.dynamodb?.NewImage;
    const clock = handedOffClock(image ? unmarshall(image as Record<string, AttributeValue>) : undefined);
    if (!clock) continue;
    try {
      await continueAdvance(clock);
    } catch (error) {
      logger.error('a test clock advance could not go on in the background', { organizationId: clock.organizationId, error: error as Error });
      failed.push(i);
    }
  }
  return failed;
});
