/**
 * A merchant's subscriptions pages: the list (a page of its subscriptions' index, the status filter applied by
 * DynamoDB), a subscription's page (the subscription, its charges and the organization's test clock read at once,
 * then the charges' invoices), and its actions in modules of their own (`cancel.service.ts`, `pause.service.ts`), so
 * each form's function carries one of them. Under a sandbox test clock the page's dates are the clock's.
 */
import { BadRequestError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { merchantInvoiceSummariesOf } from '../../invoicing/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { getSubscriptionSummary, subscriptionCharges, subscriptionSummaries, clockOf } from '../../subscriptions/index.ts';
import { PAGE_SIZE, pageNumber } from '../customers/paging.tsx';
import { pageContext, pageReply } from '../kit/page.ts';
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

/**
 * A subscription's page (404 `subscription.not_found`), with what an action did (`done`). When the organization's
 * test clock was moved, every date is in the clock's time, a charge's too (`chargedAt`, from the charge's money step).
 */
export async function subscriptionPage(merchant: Merchant, role: Role, event: HttpEvent, subscriptionId: string, done?: string): Promise<Reply> {
  const [subscription, { charges, invoiceIds }, clock] = await Promise.all([
    getSubscriptionSummary(merchant, subscriptionId),
    subscriptionCharges(merchant, subscriptionId, CHARGES),
    clockOf(merchant.id),
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
      clockNow: clock.offsetMs !== 0 ? clock.now() : null,
      invoices,
      canManage: (managers as readonly Role[]).includes(role),
      done,
    }),
  );
}
