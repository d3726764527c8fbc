/** A subscription's pause from its page, as the organization API makes it (from now until resumed), and its end. */
import { UnprocessableError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { createPause, deletePause } from '../../subscriptions/pauses.service.ts';
import { getSubscriptionSummary } from '../../subscriptions/subscriptions.service.ts';
import { subscriptionAction } from './actions.tsx';

export const pauseFromPage = (merchant: Merchant, role: Role, event: HttpEvent, subscriptionId: string, action: 'pause' | 'resume') =>
  subscriptionAction(merchant, role, event, subscriptionId, async () => {
    if (action === 'pause') {
      await createPause(merchant, { subscriptionId });
      return 'paused';
    }
    const s = await getSubscriptionSummary(merchant, subscriptionId);
    if (!s.pause) throw new UnprocessableError('subscription.not_paused', 'The subscription is not paused, so there is nothing to resume.');
    await deletePause(merchant, s.pause.id);
    return 'resumed';
  }) satisfies Promise<Reply>;
