/**
 * The renewal sweeper (an EventBridge rule every minute, `infra/consumers.ts`): claims every subscription the due
 * index says is due and queues it for the renewal worker (shared/subscriptions/sweep.service.ts).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger, observed } from '../../shared/platform/observability.ts';
import { sweepDue, type SweepResult } from '../../shared/subscriptions/sweep.service.ts';

export const handler = observed<ScheduledEvent, SweepResult>().handler(async () => {
  const result = await sweepDue(new Date());
  if (result.due) logger.info('due subscriptions queued', { ...result });
  return result;
});
