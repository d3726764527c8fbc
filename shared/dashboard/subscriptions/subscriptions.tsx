/** @jsxImportSource hono/jsx */
/**
 * A merchant's subscriptions: the list by status, and a subscription's page (what it costs, its next charge, its
 * periods and invoices, and for owners and admins: cancel now, cancel at the end of the period, pause, resume).
 */
import { Money, Status, Time } from '../kit/format.tsx';
import { ActionForm, Empty, FilterForm, Notice, Page, SelectField, Table, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';
import { ListPager, PastTheEnd, pageHref } from '../customers/paging.tsx';
import { InvoicesTable, invoicePdfPath, type InvoiceRow } from '../invoices/invoices.tsx';

export interface SubscriptionRow {
  id: string;
  name: string;
  status: string;
  customer: { id: string; name: string | null; email: string | null };
  currency: string;
  priceMinor: number;
  creditMinor: number;
  cycle: { unit: string; length: number };
  createdAt: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  trialEndAt: string | null;
  nextCharge: string | null;
  nextChargeMinor: number | null;
  endAt: string | null;
  pause: { id: string; effectiveAt: string; endAt: string | null } | null;
  /** Past due: when its payment was first declined, and when dunning cancels it unless a retry is paid. */
  dunning: { declinedAt: string; cancelAt: string } | null;
}

/** A subscription on its own page: also its open cancellation, who asked for it and why. */
export interface SubscriptionDetail extends SubscriptionRow {
  /** The tax in `nextChargeMinor`, which here is the next charge as it will be charged (a row's is before tax). */
  nextChargeTaxMinor: number;
  openCancellation: { cancelledBy: string; reason: string | null; description: string | null } | null;
}

export interface ChargeRow {
  transactionId: string;
  /** When the transaction was recorded: real time. */
  createdAt: string;
  /** When it was charged in the subscription's time: the sandbox test clock's when the clock was moved. */
  chargedAt: string;
  description: string | null;
  amountMinor: number;
  currency: string;
  status: string;
  invoiceId: string | null;
}

/** The statuses the list can be narrowed to, as people read them. */
export const subscriptionStatusChoices = [
  { value: 'active', label: 'Active' },
  { value: 'trial', label: 'Trial' },
  { value: 'past-due', label: 'Past due' },
  { value: 'paused', label: 'Paused' },
  { value: 'pending', label: 'Pending' },
  { value: 'canceled', label: 'Canceled' },
  { value: 'completed', label: 'Completed' },
  { value: 'incomplete', label: 'Incomplete' },
] as const;

const ended = (status: string) => status === 'canceled' || status === 'completed' || status === 'incomplete';
/** A subscription that runs can be paused (the service's own rule). */
const pausable = (status: string) => status === 'active' || status === 'trial' || status === 'past-due';

/** "every month", "every 3 months". */
export const cycleText = (c: { unit: string; length: number }) => (c.length === 1 ? `every ${c.unit}` : `every ${c.length} ${c.unit}s`);

const customerText = (c: SubscriptionRow['customer']) => c.name ?? c.email ?? c.id;

/** A table of subscriptions, each linking to its page. */
export function SubscriptionsTable({ merchantId, subscriptions, caption }: { merchantId: string; subscriptions: readonly SubscriptionRow[]; caption: string }) {
  return (
    <Table caption={caption} columns={['Subscription', 'Customer', 'Status', { name: 'Price', num: true }, 'Next charge']}>
      {subscriptions.map((s) => (
        <tr>
          <td>
            <a href={merchantPath(merchantId, `/subscriptions/${s.id}`)}>{s.name}</a>
          </td>
          <td>
            <a href={merchantPath(merchantId, `/customers/${s.customer.id}`)}>{customerText(s.customer)}</a>
          </td>
          <td>
            <Status status={s.status} />
          </td>
          <td class="num">
            <Money minor={s.priceMinor} currency={s.currency} /> <span class="muted">{cycleText(s.cycle)}</span>
          </td>
          <td>
            <Time iso={s.nextCharge} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export interface SubscriptionsProps {
  ctx: PageContext;
  subscriptions: readonly SubscriptionRow[];
  totalCount: number;
  page: number;
  status?: string | undefined;
}

export function SubscriptionsPage(p: SubscriptionsProps) {
  const merchantId = p.ctx.merchant!.id;
  const path = areaPath(merchantId, 'subscriptions');
  return (
    <Page ctx={p.ctx} title="Subscriptions" area="subscriptions">
      <FilterForm path={path} label="Filter subscriptions">
        <SelectField id="status" label="Status" any="Any status" choices={subscriptionStatusChoices} value={p.status} />
      </FilterForm>
      {p.subscriptions.length === 0 && p.page > 1 ? (
        <PastTheEnd page={p.page} what="subscriptions" first={pageHref(path, { status: p.status }, 1)} />
      ) : p.subscriptions.length === 0 ? (
        p.status ? (
          <Empty>
            No subscription is {subscriptionStatusChoices.find((c) => c.value === p.status)?.label.toLowerCase()}. <a href={path}>Show all subscriptions</a>.
          </Empty>
        ) : (
          <Empty>
            No subscriptions yet. Add a recurring plan in the <a href={areaPath(merchantId, 'catalog')}>catalog</a> and share its checkout link; each subscriber
            appears here.
          </Empty>
        )
      ) : (
        <>
          <p class="muted">
            {p.totalCount} {p.totalCount === 1 ? 'subscription' : 'subscriptions'}
          </p>
          <SubscriptionsTable merchantId={merchantId} subscriptions={p.subscriptions} caption="Subscriptions, newest first" />
          <ListPager path={path} params={{ status: p.status }} page={p.page} totalCount={p.totalCount} label="Subscriptions" />
        </>
      )}
    </Page>
  );
}

const doneNotices: Readonly<Record<string, string>> = {
  canceled: 'The subscription is canceled. It is not charged again.',
  cancel_scheduled: 'The subscription will end when its current period ends. It is not renewed.',
  paused: 'The subscription is paused. It is not charged while paused; the unused time of its period is kept as credit.',
  resumed: 'The subscription runs again: a new period started now.',
};

export interface SubscriptionProps {
  ctx: PageContext;
  subscription: SubscriptionDetail;
  charges: readonly ChargeRow[];
  /** The organization's sandbox test clock's now when it was moved ahead of real time (the page's dates are its), else null. */
  clockNow?: string | null | undefined;
  invoices: readonly InvoiceRow[];
  canManage: boolean;
  done?: string | undefined;
  error?: string | undefined;
}

export function SubscriptionPage(p: SubscriptionProps) {
  const merchantId = p.ctx.merchant!.id;
  const s = p.subscription;
  const path = merchantPath(merchantId, `/subscriptions/${s.id}`);
  const isEnded = ended(s.status);
  const scheduledEnd = !isEnded && s.endAt ? s.endAt : null;
  const pausedNow = s.status === 'paused';
  return (
    <Page ctx={p.ctx} title={s.name} area="subscriptions">
      <p>
        <a href={areaPath(merchantId, 'subscriptions')}>All subscriptions</a>
      </p>
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      {p.clockNow ? (
        <p class="muted" id="test-clock">
          Dates are in the sandbox test clock's time, as the subscription runs on it: it is <Time iso={p.clockNow} /> on the clock.
        </p>
      ) : null}
      <section class="panel" aria-labelledby="summary">
        <h2 id="summary">Summary</h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Status status={s.status} />
          </dd>
          <dt>Customer</dt>
          <dd>
            <a href={merchantPath(merchantId, `/customers/${s.customer.id}`)}>{customerText(s.customer)}</a>
            {s.customer.name && s.customer.email ? <span class="muted"> · {s.customer.email}</span> : null}
          </dd>
          <dt>Price</dt>
          <dd>
            <Money minor={s.priceMinor} currency={s.currency} /> {cycleText(s.cycle)}
          </dd>
          {s.currentPeriodStart && s.currentPeriodEnd ? (
            <>
              <dt>Current period</dt>
              <dd>
                <Time iso={s.currentPeriodStart} /> to <Time iso={s.currentPeriodEnd} />
              </dd>
            </>
          ) : null}
          {s.trialEndAt && s.status === 'trial' ? (
            <>
              <dt>Trial ends</dt>
              <dd>
                <Time iso={s.trialEndAt} />
              </dd>
            </>
          ) : null}
          <dt>Next charge</dt>
          <dd id="next-charge">
            {s.nextCharge && s.nextChargeMinor !== null ? (
              <>
                <Money minor={s.nextChargeMinor} currency={s.currency} /> on <Time iso={s.nextCharge} />
                {s.nextChargeTaxMinor ? (
                  <>
                    {' '}
                    (including <Money minor={s.nextChargeTaxMinor} currency={s.currency} /> tax)
                  </>
                ) : null}
              </>
            ) : isEnded ? (
              'None: the subscription has ended.'
            ) : scheduledEnd ? (
              'None: the subscription ends first.'
            ) : pausedNow ? (
              'None while paused.'
            ) : (
              'None.'
            )}
          </dd>
          {s.dunning ? (
            <>
              <dt>Payment failed</dt>
              <dd id="dunning">
                on <Time iso={s.dunning.declinedAt} />: retried at the next charge, and cancelled on <Time iso={s.dunning.cancelAt} /> unless a retry is paid.
              </dd>
            </>
          ) : null}
          {scheduledEnd ? (
            <>
              <dt>Ends</dt>
              <dd id="ends">
                Ends on <Time iso={scheduledEnd} />
                {s.openCancellation
                  ? ` · cancelled by ${s.openCancellation.cancelledBy}${s.openCancellation.reason ? ` (${s.openCancellation.reason.replace(/-/g, ' ')})` : ''}`
                  : ''}
              </dd>
              {s.openCancellation?.description ? (
                <>
                  <dt>Their words</dt>
                  <dd>{s.openCancellation.description}</dd>
                </>
              ) : null}
            </>
          ) : null}
          {isEnded && s.endAt ? (
            <>
              <dt>Ended</dt>
              <dd>
                <Time iso={s.endAt} />
              </dd>
            </>
          ) : null}
          {s.pause ? (
            <>
              <dt>Pause</dt>
              <dd>
                {pausedNow ? 'Paused since ' : 'Pauses on '}
                <Time iso={s.pause.effectiveAt} />
                {s.pause.endAt ? (
                  <>
                    , resumes on <Time iso={s.pause.endAt} />
                  </>
                ) : (
                  ', until it is resumed'
                )}
              </dd>
            </>
          ) : null}
          {s.creditMinor > 0 ? (
            <>
              <dt>Credit</dt>
              <dd>
                <Money minor={s.creditMinor} currency={s.currency} /> <span class="muted">taken off the next charges</span>
              </dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>
            <Time iso={s.createdAt} />
          </dd>
        </dl>
        {isEnded ? null : p.canManage ? (
          <div class="actions">
            {s.pause ? (
              <ActionForm
                ctx={p.ctx}
                path={`${path}/pause`}
                action="resume"
                confirm="Resume this subscription? A new period starts now and is charged, less its credit."
              >
                Resume
              </ActionForm>
            ) : pausable(s.status) ? (
              <ActionForm
                ctx={p.ctx}
                path={`${path}/pause`}
                action="pause"
                tone="secondary"
                confirm="Pause this subscription? It is not charged until it is resumed."
              >
                Pause
              </ActionForm>
            ) : null}
            {scheduledEnd ? null : (
              <ActionForm
                ctx={p.ctx}
                path={`${path}/cancel`}
                action="cancel_at_period_end"
                tone="secondary"
                confirm="Cancel this subscription at the end of its current period? It runs until then and is not renewed."
              >
                Cancel at period end
              </ActionForm>
            )}
            <ActionForm
              ctx={p.ctx}
              path={`${path}/cancel`}
              action="cancel_now"
              tone="danger"
              confirm="Cancel this subscription now? It ends at once and the unused time is not refunded."
            >
              Cancel now
            </ActionForm>
          </div>
        ) : (
          <p class="muted">An owner or admin can cancel, pause or resume this subscription.</p>
        )}
      </section>
      <section aria-labelledby="periods">
        <h2 id="periods">Periods</h2>
        {p.charges.length === 0 ? (
          <Empty>No period has been charged yet. Each charge of a period appears here with its invoice.</Empty>
        ) : (
          <Table caption="The subscription's charged periods, newest first" columns={['Period', 'Charged', { name: 'Amount', num: true }, 'Status', 'Invoice']}>
            {p.charges.map((c) => (
              <tr>
                <td>{c.description ?? <span class="muted">—</span>}</td>
                <td>
                  <a href={merchantPath(merchantId, `/payments/${c.transactionId}`)}>
                    <Time iso={c.chargedAt} />
                  </a>
                </td>
                <td class="num">
                  <Money minor={c.amountMinor} currency={c.currency} />
                </td>
                <td>
                  <Status status={c.status} />
                </td>
                <td>
                  {c.invoiceId && p.invoices.some((i) => i.id === c.invoiceId) ? (
                    <a href={invoicePdfPath(merchantId, c.invoiceId)} download>
                      Download PDF<span class="sr-only"> of {p.invoices.find((i) => i.id === c.invoiceId)?.number ?? 'the invoice'}</span>
                    </a>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section aria-labelledby="invoices">
        <h2 id="invoices">Invoices</h2>
        {p.invoices.length === 0 ? (
          <Empty>No invoices yet: each charged period makes one.</Empty>
        ) : (
          <InvoicesTable merchantId={merchantId} invoices={p.invoices} caption="The subscription's invoices" />
        )}
      </section>
    </Page>
  );
}
