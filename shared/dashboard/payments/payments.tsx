/** @jsxImportSource hono/jsx */
/** The payments list (filters, search, pages) and a payment's page (its facts, timeline and refund form). */
import { combinedStatuses, type Transaction } from '../../payments/index.ts';
import { PastTheEnd, pageHref } from '../customers/paging.tsx';
import { PaymentsTable } from '../home/home.tsx';
import { formatMoney, Money, Status, Time } from '../kit/format.tsx';
import { Csrf, Empty, Field, FilterForm, Notice, Page, Pager, SelectField, Table, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';

export interface PaymentFilters {
  status: string;
  from: string;
  to: string;
  q: string;
  page: number;
}

const statusLabel = (status: string) => {
  const words = status.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const statusChoices = combinedStatuses.map((s) => ({ value: s, label: statusLabel(s) }));

export interface PaymentsProps {
  ctx: PageContext;
  filters: PaymentFilters;
  payments: readonly Transaction[];
  totalCount: number;
  pageSize: number;
  error?: string;
}

export function PaymentsPage(p: PaymentsProps) {
  const merchantId = p.ctx.merchant!.id;
  const f = p.filters;
  const filtered = Boolean(f.q || f.status || f.from || f.to);
  const pages = Math.max(Math.ceil(p.totalCount / p.pageSize), 1);
  return (
    <Page ctx={p.ctx} title="Payments" area="payments">
      <Notice error={p.error} />
      <FilterForm path={areaPath(merchantId, 'payments')} clear={filtered ? areaPath(merchantId, 'payments') : undefined}>
        <Field id="q" label="Search" type="search" value={f.q} maxlength={200} hint="Payment id, description, customer name or e-mail" />
        <SelectField id="status" label="Status" any="Any status" choices={statusChoices} value={f.status} />
        <Field id="from" label="From" type="date" value={f.from} hint="The day's start, UTC" />
        <Field id="to" label="To" type="date" value={f.to} hint="The day's end, UTC" />
      </FilterForm>
      {p.error ? null : p.payments.length === 0 && f.page > 1 ? (
        <PastTheEnd page={f.page} what="payments" first={pageHref(areaPath(merchantId, 'payments'), { q: f.q, status: f.status, from: f.from, to: f.to }, 1)} />
      ) : p.payments.length === 0 ? (
        <Empty>
          {filtered ? (
            <>
              No payments match these filters. <a href={areaPath(merchantId, 'payments')}>Clear the filters</a> to see every payment.
            </>
          ) : (
            <>
              No payments yet. Share a checkout link from the <a href={areaPath(merchantId, 'catalog')}>catalog</a> or create an{' '}
              <a href={areaPath(merchantId, 'developers')}>API key</a> to take the first one.
            </>
          )}
        </Empty>
      ) : (
        <>
          <p class="muted" id="count">
            {p.totalCount === 1 ? '1 payment' : `${p.totalCount} payments`}
            {filtered ? ' match' : ''}, newest first.
          </p>
          <PaymentsTable merchantId={merchantId} payments={p.payments} caption="Payments, newest first" />
          <Pager
            label="Pages of payments"
            page={f.page}
            pages={pages}
            href={(n) => pageHref(areaPath(merchantId, 'payments'), { q: f.q, status: f.status, from: f.from, to: f.to }, n)}
          />
        </>
      )}
    </Page>
  );
}

/** One moment of a payment's history. */
export interface TimelineEntry {
  at: string;
  title: string;
  amountMinor: number;
  status: string;
  detail: string | null;
}

/** The refund the review step asks about. */
export interface RefundReview {
  amountMinor: number;
  /** The amount in major units, as the form sends it again. */
  amount: string;
  reason: string;
  /** The refund's idempotency key: the form sent twice refunds once. */
  key: string;
}

const doneNotices: Readonly<Record<string, string>> = {
  refunded: 'The refund is done.',
  refund_pending: 'The refund was asked for and is being processed.',
  refund_failed: 'The processor refused the refund: nothing was refunded. See the timeline for why.',
};

/** How a payment is named in a question: its description (or id) and its amount. */
const paymentName = (t: Transaction) => `${t.description ?? `payment ${t.id}`} (${formatMoney(t.amountMinor, t.currency)})`;

/** Who paid: a customer's name (or e-mail), and their id when they are still a customer of the merchant. */
export interface PaymentBuyer {
  id: string | null;
  name: string;
}

export interface PaymentProps {
  ctx: PageContext;
  payment: Transaction;
  buyer: PaymentBuyer | null;
  timeline: readonly TimelineEntry[];
  canRefund: boolean;
  /** It has a dispute: no refund form, and the page says why (shown to those who may refund). */
  disputed?: boolean;
  leftMinor: number;
  amount: string;
  reason: string;
  review?: RefundReview;
  done?: string;
  error?: string;
  /** A captured payment's parts: the tax in it (the platform owes it, as seller of record), the fee, the merchant's share. */
  breakdown?: { taxMinor: number; feeMinor: number; netMinor: number } | undefined;
}

export function PaymentPage(p: PaymentProps) {
  const merchantId = p.ctx.merchant!.id;
  const t = p.payment;
  const path = merchantPath(merchantId, `/payments/${t.id}`);
  return (
    <Page ctx={p.ctx} title={`Payment of ${formatMoney(t.amountMinor, t.currency)}`} area="payments">
      <p>
        <a href={areaPath(merchantId, 'payments')}>All payments</a>
      </p>
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      {p.review ? (
        <section class="panel" aria-labelledby="confirm-refund">
          <h2 id="confirm-refund">{`Refund ${formatMoney(p.review.amountMinor, t.currency)} of ${paymentName(t)}?`}</h2>
          <p>The money goes back to the customer's card. A refund cannot be undone.</p>
          {p.review.reason ? <p>Reason: {p.review.reason}</p> : null}
          <form method="post" action={path} class="actions">
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="refund" />
            <input type="hidden" name="amount" value={p.review.amount} />
            <input type="hidden" name="reason" value={p.review.reason} />
            <input type="hidden" name="key" value={p.review.key} />
            <button type="submit" class="danger">
              Refund
            </button>
            <a class="button secondary" href={path}>
              Cancel
            </a>
          </form>
        </section>
      ) : null}
      <section class="panel" aria-labelledby="facts">
        <h2 id="facts">Details</h2>
        <dl class="facts">
          <dt>Amount</dt>
          <dd>
            <Money minor={t.amountMinor} currency={t.currency} />
          </dd>
          {p.breakdown ? (
            <>
              <dt>Tax in it</dt>
              <dd>
                <Money minor={p.breakdown.taxMinor} currency={t.currency} /> <span class="muted">owed by the platform, the seller of record</span>
              </dd>
              <dt>Platform fee</dt>
              <dd>
                <Money minor={p.breakdown.feeMinor} currency={t.currency} /> <span class="muted">5 % of the amount, tax included</span>
              </dd>
              <dt>Your share</dt>
              <dd>
                <Money minor={p.breakdown.netMinor} currency={t.currency} /> <span class="muted">before any refund</span>
              </dd>
            </>
          ) : null}
          <dt>Status</dt>
          <dd>
            <Status status={t.status} />
          </dd>
          {t.refundedMinor ? (
            <>
              <dt>Refunded</dt>
              <dd>
                <Money minor={t.refundedMinor} currency={t.currency} />
              </dd>
            </>
          ) : null}
          <dt>Description</dt>
          <dd>{t.description ?? <span class="muted">—</span>}</dd>
          <dt>Customer</dt>
          <dd>
            {p.buyer?.id ? <a href={merchantPath(merchantId, `/customers/${p.buyer.id}`)}>{p.buyer.name}</a> : (p.buyer?.name ?? <span class="muted">—</span>)}
          </dd>
          <dt>Card</dt>
          <dd>{t.card ? `${t.card.brand} ending in ${t.card.last4}, expires ${String(t.card.expMonth).padStart(2, '0')}/${t.card.expYear}` : '—'}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={t.createdAt} />
          </dd>
          <dt>Payment id</dt>
          <dd class="mono">{t.id}</dd>
          {t.externalTransactionId ? (
            <>
              <dt>Processor id</dt>
              <dd class="mono">{t.externalTransactionId}</dd>
            </>
          ) : null}
          {t.subscriptionId ? (
            <>
              <dt>Subscription</dt>
              <dd class="mono">{t.subscriptionId}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <Table caption="What happened to this payment, oldest first" columns={['Time', 'Event', { name: 'Amount', num: true }, 'Status', 'Details']}>
          {p.timeline.map((e) => (
            <tr>
              <td>
                <Time iso={e.at} />
              </td>
              <td>{e.title}</td>
              <td class="num">
                <Money minor={e.amountMinor} currency={t.currency} />
              </td>
              <td>
                <Status status={e.status} />
              </td>
              <td>{e.detail || <span class="muted">—</span>}</td>
            </tr>
          ))}
        </Table>
      </section>
      {p.disputed ? (
        <section class="panel" aria-labelledby="refund">
          <h2 id="refund">Refund</h2>
          <p>This payment is disputed: its money is held for the dispute, so it cannot be refunded. The dispute decides what the buyer gets back.</p>
        </section>
      ) : null}
      {p.canRefund && !p.review ? (
        <section class="panel" aria-labelledby="refund">
          <h2 id="refund">Refund</h2>
          <p>
            <Money minor={p.leftMinor} currency={t.currency} /> is left to refund. Refund all of it or part of it; you confirm on the next step.
          </p>
          <form method="post" action={path}>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="review" />
            <Field
              id="amount"
              label="Amount"
              value={p.amount}
              inputmode="decimal"
              maxlength={40}
              hint={`In ${t.currency}. Leave it empty to refund all that is left.`}
            />
            <Field id="reason" label="Reason" value={p.reason} maxlength={255} hint="Optional. Kept with the refund." />
            <button type="submit">Review refund</button>
          </form>
        </section>
      ) : null}
    </Page>
  );
}
