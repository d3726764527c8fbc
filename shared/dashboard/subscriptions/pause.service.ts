/**
 * A subscription's pause from its page, as the organization API makes it (from now until resumed), and its end. Back
 * to the subscription's page saying what happened; a refusal is the page face's error page (with the way back).
 */
import type { Merchant } from '../../domain/merchants.ts';
import type { Reply } from '../../platform/http/types.ts';
import { createPause, resumeSubscription } from '../../subscriptions/index.ts';
import { merchantPath } from '../kit/paths.ts';
import { seeOther, withDone } from '../kit/page.ts';

export async function pauseFromPage(merchant: Merchant, subscriptionId: string, action: 'pause' | 'resume'): Promise<Reply> {
  if (action === 'pause') await createPause(merchant, { subscriptionId });
  else await resumeSubscription(merchant, subscriptionId);
  return seeOther(withDone(merchantPath(merchant.id, `/subscriptions/${subscriptionId}`), action === 'pause' ? 'paused' : 'resumed'));
}
