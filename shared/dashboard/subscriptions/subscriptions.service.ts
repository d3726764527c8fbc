/**
 * A merchant's subscriptions pages: the list (a page of its subscriptions' index, the status filter applied by
 * DynamoDB), a subscription's page (the subscription and its charges read at once, then the charges' invoices), and
 * its actions through the subscriptions module's own services, as the organization API does them: a cancellation
 * now or at the next renewal, a pause from now until resumed, and the end of that pause.
 */
import { BadRequestError, DomainError, UnprocessableError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { merchantInvoiceSummariesOf } from '../../invoicing/invoices.service.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../routes/types.ts';
import { createCancellation } from '../../subscriptions/cancellations.service.ts';
import { createPause, deletePause } from '../../subscriptions/pauses.service.ts';
import { getSubscriptionSummary, subscriptionCharges, subscriptionSummaries } from '../../subscriptions/subscriptions.service.ts';
import { PAGE_SIZE, pageNumber } from '../customers/paging.tsx';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { SubscriptionPage, SubscriptionsPage, subscriptionStatusChoices } from './subscriptions.tsx';

type StatusChoice = (typeof subscriptionStatusChoices)[number]['value'];

/** Charges a subscription's page shows (two years of monthly periods and their retries). */
const CHARGES = 36;

/** The status filter: empty is none; anything but a status is a 400. */
function statusOf(text: string | undefined): StatusChoice | undefined {
  if (!text) return undefined;
  const choice = subscriptionStatusChoices.find((c) => c.value === text);
  if (!choice) {
    throw new BadRequestError('request.status', `status: must be one of ${subscriptionStatusChoices.map((c) => c.value).join(', ')}.`, { field: 'status' });
  }
  return choice.value;
}

export async function subscriptionsPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  q: { status?: string | undefined; page?: string | undefined },
): Promise<Reply> {
  const page = pageNumber(q.page);
  const status = statusOf(q.status);
  const list = await subscriptionSummaries(merchant, { ...(status ? { statuses: [status] } : {}), offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, SubscriptionsPage({ ctx, subscriptions: list.data, totalCount: list.totalCount, page, status }));
}

/** A subscription's page (404 `subscription.not_found`), with what an action did (`done`) or why it was refused (`error`, with its status). */
export async function subscriptionPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  subscriptionId: string,
  done?: string,
  refusal?: DomainError,
): Promise<Reply> {
  const [subscription, { charges, invoiceIds }] = await Promise.all([
    getSubscriptionSummary(merchant, subscriptionId),
    subscriptionCharges(merchant, subscriptionId, CHARGES),
  ]);
  const invoices = invoiceIds.length ? await merchantInvoiceSummariesOf(merchant, invoiceIds) : [];
  invoices.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    SubscriptionPage({
      ctx,
      subscription,
      charges,
      invoices,
      canManage: (managers as readonly Role[]).includes(role),
      done,
      error: refusal?.message,
    }),
    refusal?.status ?? 200,
  );
}

export type SubscriptionAction = 'cancel_now' | 'cancel_at_period_end' | 'pause' | 'resume';

/** Does `action` to the subscription; answers what the page then says happened. */
async function act(merchant: Merchant, subscriptionId: string, action: SubscriptionAction): Promise<string> {
  switch (action) {
    case 'cancel_now': {
      const c = await createCancellation(merchant, { subscriptionId, churnTimePolicy: 'now' });
      return c.status === 'completed' ? 'canceled' : 'cancel_scheduled';
    }
    case 'cancel_at_period_end': {
      const c = await createCancellation(merchant, { subscriptionId, churnTimePolicy: 'at-next-renewal' });
      return c.status === 'completed' ? 'canceled' : 'cancel_scheduled';
    }
    case 'pause':
      await createPause(merchant, { subscriptionId });
      return 'paused';
    case 'resume': {
      const s = await getSubscriptionSummary(merchant, subscriptionId);
      if (!s.pause) throw new UnprocessableError('subscription.not_paused', 'The subscription is not paused, so there is nothing to resume.');
      await deletePause(merchant, s.pause.id);
      return 'resumed';
    }
  }
}

/**
 * A subscription's action (owners and admins: the route's roles hold it): back to its page saying what happened, or
 * the page again with the service's refusal and its status. An unknown subscription is the route's 404.
 */
export async function subscriptionAction(merchant: Merchant, role: Role, event: HttpEvent, subscriptionId: string, action: SubscriptionAction): Promise<Reply> {
  try {
    const done = await act(merchant, subscriptionId, action);
    return seeOther(withDone(merchantPath(merchant.id, `/subscriptions/${subscriptionId}`), done));
  } catch (e) {
    if (e instanceof DomainError && e.status < 500 && e.status !== 404) return subscriptionPage(merchant, role, event, subscriptionId, undefined, e);
    throw e;
  }
}
