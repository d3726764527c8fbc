/**
 * The payments area: the list (a page of the creation index, filtered by status, creation date and search text),
 * a payment's page (the transaction, its refunds and its dispute, read at once, merged into one timeline), and the
 * refund form in two steps. The refund goes through the payments module's refund service with source `dashboard`,
 * as the dashboard's JSON refund route does (no webhook), under an idempotency key the review step makes, so a
 * form sent twice refunds once.
 */
import { randomUUID } from 'node:crypto';
import { findCustomer } from '../../customers/index.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { exponentOf, majorUnitsText, toMajorUnits, toMinorUnits } from '../../domain/money.ts';
import { transactionNotFound } from '../../domain/unknown-ids.ts';
import {
  disputeOfTransaction,
  createRefund,
  transactionDisputed,
  refundsOfTransaction,
  findTransaction,
  transactionRecordsPage,
  type Transaction,
  combinedStatuses,
  isPaidStatus,
  isRefundableStatus,
  refundableMinor,
  takenByDispute,
  type CombinedStatus,
  REFUND_OPERATION,
  taxInPayment,
} from '../../payments/index.ts';
import { paymentNet } from '../../money/index.ts';
import { getIdempotencyRecord } from '../../platform/db/idempotency.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { amountFieldHint, formatMoney } from '../kit/format.tsx';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { PaymentPage, PaymentsPage, type PaymentBuyer, type PaymentFilters, type RefundReview, type TimelineEntry } from './payments.tsx';

/** Payments per page of the list. */
export const PAGE_SIZE = 25;
/** The highest page number the list takes (an offset page reads every payment before it). */
const MAX_PAGE = 400;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (text: string) =>
  DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

const isManager = (role: Role) => (managers as readonly Role[]).includes(role);

export interface PaymentsQuery {
  status?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
  page?: string | undefined;
}

/** The filters as typed, checked: what to list, or why the filters cannot be used. */
function filtersOf(query: PaymentsQuery): { filters: PaymentFilters; error?: string } {
  const filters: PaymentFilters = {
    status: query.status?.trim() ?? '',
    from: query.from?.trim() ?? '',
    to: query.to?.trim() ?? '',
    q: query.q?.trim() ?? '',
    page: 1,
  };
  const page = query.page?.trim() ?? '';
  if (page !== '') {
    if (!/^\d{1,6}$/.test(page) || Number(page) < 1 || Number(page) > MAX_PAGE)
      return { filters, error: `The page must be a whole number from 1 to ${MAX_PAGE}.` };
    filters.page = Number(page);
  }
  if (filters.status && !(combinedStatuses as readonly string[]).includes(filters.status)) {
    return { filters, error: `There is no payment status “${filters.status}”. Choose one from the list.` };
  }
  for (const [name, value] of [
    ['From', filters.from],
    ['To', filters.to],
  ] as const) {
    if (value && !validDate(value)) return { filters, error: `${name} must be a date like 2025-01-31.` };
  }
  if (filters.from && filters.to && filters.from > filters.to) return { filters, error: 'From must be on or before To.' };
  return { filters };
}

/** The payments list: one page of the merchant's payments, newest first, with the filters of `query`. */
export async function paymentsPage(merchant: Merchant, role: Role, event: HttpEvent, query: PaymentsQuery): Promise<Reply> {
  const ctx = pageContext(event, merchant, role);
  const { filters, error } = filtersOf(query);
  if (error) return pageReply(ctx, PaymentsPage({ ctx, filters, payments: [], totalCount: 0, pageSize: PAGE_SIZE, error }), 400);
  const page = await transactionRecordsPage(merchant.id, {
    offset: (filters.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    ...(filters.status ? { statuses: [filters.status as CombinedStatus] } : {}),
    ...(filters.q ? { search: filters.q } : {}),
    ...(filters.from ? { createdFrom: `${filters.from}T00:00:00.000Z` } : {}),
    ...(filters.to ? { createdTo: `${filters.to}T23:59:59.999Z` } : {}),
  });
  return pageReply(ctx, PaymentsPage({ ctx, filters, payments: page.items, totalCount: page.totalCount, pageSize: PAGE_SIZE }));
}

type PaymentDispute = Awaited<ReturnType<typeof disputeOfTransaction>>;

/** What is left to refund of `t`, in minor units: what neither its refunds nor a lost (or forfeited) dispute took. */
const leftToRefund = (t: Transaction, dispute: PaymentDispute) => refundableMinor(t, dispute ? takenByDispute(dispute) : 0);
const refundable = (t: Transaction, dispute: PaymentDispute) =>
  isRefundableStatus(t.status) && t.externalTransactionId !== null && leftToRefund(t, dispute) > 0;

const sourceNames = { api: 'through the API', dashboard: 'from the dashboard', processor: 'by the processor' } as const;

/** The payment's history in time order — the charge, each refund, the dispute (opened, and decided) — and its dispute. */
async function historyOf(t: Transaction): Promise<{ timeline: TimelineEntry[]; dispute: PaymentDispute }> {
  const [refunds, dispute] = await Promise.all([refundsOfTransaction(t.id), disputeOfTransaction(t.organizationId, t.id)]);
  const entries: TimelineEntry[] = [
    {
      at: t.createdAt,
      title: 'Charge',
      amountMinor: t.amountMinor,
      status: t.status === 'sending' || t.status === 'declined' ? t.status : 'succeeded',
      detail: t.declineReason ? t.declineReason.message : t.card ? `${t.card.brand} ending in ${t.card.last4}` : null,
    },
  ];
  for (const r of refunds) {
    entries.push({
      at: r.createdAt,
      title: 'Refund',
      amountMinor: r.amountMinor,
      status: r.status,
      detail: [`Asked ${sourceNames[r.source]}`, r.reason, r.failure?.message].filter(Boolean).join(' · '),
    });
  }
  if (dispute) {
    entries.push({
      at: dispute.postedAt,
      title: 'Dispute opened',
      amountMinor: dispute.amountMinor,
      status: dispute.status,
      detail: `Reason ${dispute.reasonCode}`,
    });
    if (dispute.resolvedAt) {
      entries.push({ at: dispute.resolvedAt, title: `Dispute ${dispute.status}`, amountMinor: dispute.amountMinor, status: dispute.status, detail: null });
    }
  }
  return { timeline: entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)), dispute };
}

interface PaymentPageState {
  done?: string | undefined;
  error?: string | undefined;
  status?: number;
  amount?: string | undefined;
  reason?: string | undefined;
  review?: RefundReview;
}

/**
 * Who paid: the payment's customer as they are now (their name, or their e-mail), linking to their page; the name
 * or e-mail the payment was made with when the customer is gone; null when the payment names no buyer at all.
 */
async function buyerOf(t: Transaction): Promise<PaymentBuyer | null> {
  const customer = t.customerId ? await findCustomer(t.organizationId, t.customerId) : null;
  if (customer) {
    const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
    return { id: customer.id, name: name || customer.email };
  }
  const name = t.customerName ?? t.customerEmail;
  return name ? { id: null, name } : null;
}

/** The parts of a captured payment, as its journal booked them: the tax, the platform's fee, the merchant's share. */
function breakdownOf(t: Transaction) {
  const taxMinor = taxInPayment(t);
  const netMinor = paymentNet(t.amountMinor, taxMinor);
  return { taxMinor, feeMinor: t.amountMinor - taxMinor - netMinor, netMinor };
}

async function renderPayment(merchant: Merchant, role: Role, event: HttpEvent, t: Transaction, state: PaymentPageState = {}): Promise<Reply> {
  const [{ timeline, dispute }, buyer] = await Promise.all([historyOf(t), buyerOf(t)]);
  const ctx = pageContext(event, merchant, role);
  const left = leftToRefund(t, dispute);
  // Disputed while its dispute is open (its money held); a decided dispute leaves what it did not take refundable.
  const disputed = dispute !== null && dispute.resolvedAt === null;
  return pageReply(
    ctx,
    PaymentPage({
      ctx,
      payment: t,
      buyer,
      timeline,
      canRefund: isManager(role) && refundable(t, dispute) && !disputed,
      disputed: isManager(role) && refundable(t, dispute) && disputed,
      leftMinor: left,
      breakdown: isPaidStatus(t.status) ? breakdownOf(t) : undefined,
      amount: state.amount ?? majorUnitsText(left, t.currency),
      reason: state.reason ?? '',
      ...(state.review ? { review: state.review } : {}),
      ...(state.done ? { done: state.done } : {}),
      ...(state.error ? { error: state.error } : {}),
    }),
    state.status ?? 200,
  );
}

/** A payment's page. 404 (the route's unknown id) when the merchant has no payment of that id. */
export async function paymentPage(merchant: Merchant, role: Role, event: HttpEvent, transactionId: string, done?: string): Promise<Reply> {
  const t = await findTransaction(merchant.id, transactionId);
  if (!t) throw transactionNotFound();
  return renderPayment(merchant, role, event, t, { done });
}

/** The refund's amount in minor units from the "Amount" field (empty: all that is left), or what is wrong with it. */
export function refundAmountOf(text: string | undefined, currency: string, leftMinor: number): { minor: number } | { error: string } {
  const typed = (text ?? '').trim();
  if (leftMinor <= 0) return { error: 'Nothing is left to refund of this payment.' };
  if (typed === '') return { minor: leftMinor };
  const digits = exponentOf(currency);
  if (!/^\d{1,12}(\.\d+)?$/.test(typed)) return { error: amountFieldHint(currency) };
  const minor = toMinorUnits(Number(typed), currency);
  if (minor === null) {
    return {
      error: digits === 0 ? `${currency} amounts have no decimals: enter a whole number, like 500.` : `${currency} amounts have at most ${digits} decimals.`,
    };
  }
  if (minor <= 0) return { error: 'Enter an amount more than 0.' };
  if (minor > leftMinor) return { error: `That is more than is left to refund: at most ${formatMoney(leftMinor, currency)}.` };
  return { minor };
}

/** What a refund's key from the form may be: one the review step made. */
const REFUND_KEY = /^dash_[0-9a-f-]{36}$/;

export interface RefundForm {
  action: 'review' | 'refund';
  amount?: string | undefined;
  reason?: string | undefined;
  key?: string | undefined;
}

/**
 * The refund form (the route lets owners and admins only): `review` checks the amount and shows the page asking
 * "Refund <amount> of <payment>?" with a "Refund" button; `refund` checks it again and refunds, then goes back to the
 * payment (303). What is wrong is shown on the page with a 4xx, and nothing is refunded.
 */
export async function refundFromPage(merchant: Merchant, role: Role, event: HttpEvent, transactionId: string, form: RefundForm): Promise<Reply> {
  const t = await findTransaction(merchant.id, transactionId);
  if (!t) throw transactionNotFound();
  const reason = form.reason?.trim() ?? '';
  const again = (error: string, status: number) => renderPayment(merchant, role, event, t, { error, status, amount: form.amount, reason });
  const key = form.key && REFUND_KEY.test(form.key) ? form.key : undefined;
  // A confirmation carries the key its review made: without one, the form is not this page's.
  if (form.action === 'refund' && !key) return again('This refund form is out of date: review the refund again, then confirm it.', 400);
  // The same confirmed form sent again (a reload, the back button, a second click) is answered as its refund was,
  // whatever is left to refund now: the refund service replays its key's answer.
  if (key && form.action === 'refund' && (await getIdempotencyRecord(merchant.id, REFUND_OPERATION, key))) {
    const amount = refundAmountOf(form.amount, t.currency, Number.MAX_SAFE_INTEGER);
    if ('error' in amount) return again(amount.error, 400);
    return refunded(merchant, role, event, t, amount.minor, reason, key, form.amount);
  }
  if (!isRefundableStatus(t.status) || !t.externalTransactionId) {
    return again(`Only completed or partially refunded payments can be refunded; this one is ${t.status.replace(/-/g, ' ')}.`, 422);
  }
  const dispute = await disputeOfTransaction(t.organizationId, t.id);
  const left = leftToRefund(t, dispute);
  const amount = refundAmountOf(form.amount, t.currency, left);
  if ('error' in amount) return again(amount.error, left <= 0 ? 422 : 400);
  if (form.action === 'review' && dispute?.resolvedAt === null) return again(transactionDisputed().message, 422);
  if (form.action === 'review') {
    return renderPayment(merchant, role, event, t, {
      amount: majorUnitsText(amount.minor, t.currency),
      reason,
      review: { amountMinor: amount.minor, amount: majorUnitsText(amount.minor, t.currency), reason, key: `dash_${randomUUID()}` },
    });
  }
  return refunded(merchant, role, event, t, amount.minor, reason, key!, form.amount);
}

/** The refund of `amountMinor` of `t` under `key` (made now, or its answer again), and the page it leads to. */
async function refunded(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  t: Transaction,
  amountMinor: number,
  reason: string,
  key: string,
  typed: string | undefined,
) {
  try {
    const { refund } = await createRefund(merchant, t.id, { amount: toMajorUnits(amountMinor, t.currency), reason: reason || null }, 'dashboard', key);
    const done = refund.status === 'refunded' ? 'refunded' : refund.status === 'failed' ? 'refund_failed' : 'refund_pending';
    return seeOther(withDone(merchantPath(merchant.id, `/payments/${t.id}`), done));
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) {
      const now = e.status === 404 ? null : await findTransaction(merchant.id, t.id);
      if (!now) throw e;
      return renderPayment(merchant, role, event, now, { error: e.message, status: e.status, amount: typed, reason });
    }
    throw e;
  }
}
