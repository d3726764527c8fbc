/** A subscription's cancellation from its page, as the organization API makes it: now, or at the next renewal. */
import type { Merchant, Role } from '../../domain/merchants.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { createCancellation } from '../../subscriptions/cancellations.service.ts';
import { subscriptionAction } from './actions.tsx';

export const cancelFromPage = (merchant: Merchant, role: Role, event: HttpEvent, subscriptionId: string, action: 'cancel_now' | 'cancel_at_period_end') =>
  subscriptionAction(merchant, role, event, subscriptionId, async () => {
    const c = await createCancellation(merchant, { subscriptionId, churnTimePolicy: action === 'cancel_now' ? 'now' : 'at-next-renewal' });
    return c.status === 'completed' ? 'canceled' : 'cancel_scheduled';
  }) satisfies Promise<Reply>;
