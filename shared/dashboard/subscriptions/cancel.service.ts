/**
 * A subscription's cancellation from its page, as the organization API makes it: now, or at the next renewal. Back
 * to the subscription's page saying what happened; a refusal is the page face's error page (with the way back), so
 * this form's function carries the cancellation and no page renderer.
 */
import type { Merchant } from '../../domain/merchants.ts';
import type { Reply } from '../../platform/http/types.ts';
import { createCancellation } from '../../subscriptions/index.ts';
import { doneOn, orDoneAlready } from './done-already.ts';

export function cancelFromPage(merchant: Merchant, subscriptionId: string, action: 'cancel_now' | 'cancel_at_period_end'): Promise<Reply> {
  return orDoneAlready(
    merchant,
    subscriptionId,
    async () => {
      const c = await createCancellation(merchant, { subscriptionId, churnTimePolicy: action === 'cancel_now' ? 'now' : 'at-next-renewal' });
      return doneOn(merchant, subscriptionId, c.status === 'completed' ? 'canceled' : 'cancel_scheduled');
    },
    (s) => (s.status === 'canceled' || s.status === 'completed' ? 'canceled' : action === 'cancel_at_period_end' && s.endAt ? 'cancel_scheduled' : null),
  );
}
