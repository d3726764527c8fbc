/**
 * A subscription's pause from its page, as the organization API makes it (from now until resumed), and its end. Back
 * to the subscription's page saying what happened; a refusal is the page face's error page (with the way back).
 */
import type { Merchant } from '../../domain/merchants.ts';
import type { Reply } from '../../platform/http/types.ts';
import { createPause, resumeSubscription } from '../../subscriptions/index.ts';
import { doneOn, orDoneAlready } from './done-already.ts';

export function pauseFromPage(merchant: Merchant, subscriptionId: string, action: 'pause' | 'resume'): Promise<Reply> {
  return orDoneAlready(
    merchant,
    subscriptionId,
    async () => {
      if (action === 'pause') await createPause(merchant, { subscriptionId });
      else await resumeSubscription(merchant, subscriptionId);
      return doneOn(merchant, subscriptionId, action === 'pause' ? 'paused' : 'resumed');
    },
    (s) => (action === 'pause' ? (s.pause ? 'paused' : null) : !s.pause && s.status !== 'paused' ? 'resumed' : null),
  );
}
