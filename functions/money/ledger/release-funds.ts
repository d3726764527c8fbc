/**
 * The scheduled release of held funds (an EventBridge rule, `infra/consumers.ts`): every payment's net whose hold
 * period has ended by now moves from pending to available, once (a rerun or a concurrent run releases nothing twice).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger, observed } from '../../../shared/platform/observability.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';

export const handler = observed<ScheduledEvent, { released: number }>().handler(async () => {
  const asOf = new Date();
  const released = await releaseDueFunds(asOf);
  logger.info('held funds released', { released, asOf: asOf.toISOString() });
  return { released };
});
