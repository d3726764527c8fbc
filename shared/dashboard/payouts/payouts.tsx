/** @jsxImportSource hono/jsx */
/** A merchant's payouts page: balances per currency, payout methods (and adding one), requesting a payout, the history. */
import type { Withdrawal } from '../../money/index.ts';
import { PastTheEnd, pageHref } from '../customers/paging.tsx';
import { Owed } from '../home/home.tsx';
import { Money, Status, Time } from '../kit/format.tsx';
import { ActionForm, Csrf, Empty, Field, Notice, Page, Pager, SelectField, SentOnce, Table, areaPath, type PageContext } from '../kit/layout.tsx';

export interface PayoutBalance {
  currency: string;
  available: number;
  pending: number;
  reserved: number;
  inTransit: number;
  paidOut: number;
  /** What the merchant owes the platform in this currency. */
  owed: number;
}

export interface PayoutMethodRow {
  id: string;
  holderName: string;
  country: string;
  currency: string;
  last4: string;
  status: string;
  createdAt: string;
}

/** What the page's forms send (every field optional: the service says what is missing). */
export interface PayoutForm {
  action?: 'add_method' | 'remove_method' | 'request_payout';
  holder_name?: string | undefined;
  country?: string | undefined;
  currency?: string | undefined;
  account_number?: string | undefined;
  routing_number?: string | undefined;
  amount?: string | undefined;
  payout_method_id?: string | undefined;
  idempotency_key?: string | undefined;
  form_key?: string | undefined;
}

const doneNotices: Readonly<Record<string, string>> = {
  method_added: 'The payout method was added.',
  method_sent_before: 'This form was sent before: its payout method was added then. No other was added.',
  method_removed: 'The payout method was removed: payouts no longer go to it.',
  payout_requested: 'The payout was requested. It shows in the history below.',
};

export interface PayoutsProps {
  ctx: PageContext;
  balances: readonly PayoutBalance[];
  methods: readonly PayoutMethodRow[];
  withdrawals: readonly Withdrawal[];
  page: number;
  pages: number;
  canManage: boolean;
  /** The key the payout request form is sent with: new each time the page is shown. */
  idempotencyKey: string;
  done?: string;
  error?: string;
  form?: PayoutForm;
}

const methodName = (m: PayoutMethodRow) => `${m.currency} account ending ${m.last4} (${m.holderName})`;

export function PayoutsPage(p: PayoutsProps) {
  const merchantId = p.ctx.merchant!.id;
  const here = areaPath(merchantId, 'payouts');
  const methodForm = p.form?.action === 'add_method' ? p.form : undefined;
  const payoutForm = p.form?.action === 'request_payout' ? p.form : undefined;
  const currencies = [...new Set(p.methods.map((m) => m.currency))].sort();
  return (
    <Page ctx={p.ctx} title="Payouts" area="payouts">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      <section aria-labelledby="balances">
        <h2 id="balances">Balances</h2>
        {p.balances.length === 0 ? (
          <Empty>No funds yet. Balances appear after the first payment; a payment's net becomes available once its hold ends.</Empty>
        ) : (
          <div class="grid">
            {p.balances.map((b) => (
              <div class="panel">
                <h3>{b.currency}</h3>
                <p class="stat">
                  <Money minor={b.available} currency={b.currency} /> <span class="muted">available</span>
                </p>
                <p class="muted">
                  <Money minor={b.pending} currency={b.currency} /> pending · <Money minor={b.reserved} currency={b.currency} /> reserved ·{' '}
                  <Money minor={b.inTransit} currency={b.currency} /> in transit · <Money minor={b.paidOut} currency={b.currency} /> paid out
                </p>
                <Owed minor={b.owed} currency={b.currency} />
                {b.available + b.pending > 0 && !currencies.includes(b.currency) ? (
                  <p id={`no-method-${b.currency}`}>
                    No payout method is paid in {b.currency}: these funds are paid out once one in {b.currency} is added (a payout is paid in its method's
                    currency).
                  </p>
                ) : null}
              </div>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="request">
        <h2 id="request">Request payout</h2>
        {!p.canManage ? (
          <p class="muted">An owner or admin can request payouts.</p>
        ) : p.methods.length === 0 ? (
          <Empty>Add a payout method below first; payouts are paid to it.</Empty>
        ) : (
          <form method="post" action={here}>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="request_payout" />
            <input type="hidden" name="idempotency_key" value={p.idempotencyKey} />
            <Field
              id="amount"
              label="Amount"
              inputmode="decimal"
              required
              maxlength={20}
              value={payoutForm?.amount}
              hint="In major units, with a point before the decimals and no thousands separator, like 25.00."
            />
            <SelectField
              id="payout-currency"
              name="currency"
              label="Currency"
              choices={currencies.map((c) => ({ value: c, label: c }))}
              value={payoutForm?.currency}
            />
            <SelectField
              id="payout-method"
              name="payout_method_id"
              label="Payout method"
              choices={p.methods.map((m) => ({ value: m.id, label: methodName(m) }))}
              value={payoutForm?.payout_method_id}
            />
            <div class="actions">
              <button type="submit">Request payout</button>
            </div>
          </form>
        )}
      </section>

      <section aria-labelledby="methods">
        <h2 id="methods">Payout methods</h2>
        {p.methods.length === 0 ? (
          <Empty>No payout method yet. {p.canManage ? 'Add the bank account payouts go to below.' : 'An owner or admin can add one.'}</Empty>
        ) : (
          <Table caption="Payout methods" columns={['Account', 'Holder', 'Country', 'Currency', 'Status', 'Added', p.canManage && 'Manage']}>
            {p.methods.map((m) => (
              <tr>
                <td class="mono">•••• {m.last4}</td>
                <td>{m.holderName}</td>
                <td>{m.country}</td>
                <td>{m.currency}</td>
                <td>
                  <Status status={m.status} />
                </td>
                <td>
                  <Time iso={m.createdAt} />
                </td>
                {p.canManage ? (
                  <td>
                    <ActionForm
                      ctx={p.ctx}
                      path={here}
                      action="remove_method"
                      fields={{ payout_method_id: m.id }}
                      confirm={`Remove the account ending in ${m.last4}? Payouts no longer go to it.`}
                      tone="danger"
                      label={`Remove the account ending in ${m.last4}`}
                    >
                      Remove
                    </ActionForm>
                  </td>
                ) : null}
              </tr>
            ))}
          </Table>
        )}
        {p.canManage ? (
          <form method="post" action={here} class="panel">
            <h3>Add payout method</h3>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="add_method" />
            <SentOnce ctx={p.ctx} />
            <Field id="holder_name" label="Account holder" autocomplete="name" required maxlength={100} value={methodForm?.holder_name} />
            <Field id="country" label="Country" required maxlength={2} value={methodForm?.country} hint="Two letters, like DE or US." />
            <Field id="currency" label="Currency" required maxlength={3} value={methodForm?.currency} hint="Three letters, like EUR or USD." />
            <Field
              id="account_number"
              label="Account number"
              required
              maxlength={42}
              autocomplete="off"
              hint="An IBAN, or a local account number. Only its last four characters are kept."
            />
            <Field id="routing_number" label="Routing number" maxlength={20} value={methodForm?.routing_number} hint="Only for a local account number." />
            <div class="actions">
              <button type="submit">Add payout method</button>
            </div>
          </form>
        ) : null}
      </section>

      <section aria-labelledby="history">
        <h2 id="history">Payout history</h2>
        {p.withdrawals.length === 0 && p.page > 1 ? (
          <PastTheEnd page={p.page} what="payouts" first={here} />
        ) : p.withdrawals.length === 0 ? (
          <Empty>No payouts yet. Request one above once funds are available.</Empty>
        ) : (
          <Table caption="Payouts, newest first" columns={['Requested', { name: 'Amount', num: true }, 'Status', 'To account', 'Bank reference', 'Payout']}>
            {p.withdrawals.map((w) => (
              <tr>
                <td>
                  <Time iso={w.createdAt} />
                </td>
                <td class="num">
                  <Money minor={w.amountMinor} currency={w.currency} />
                </td>
                <td>
                  <Status status={w.status} />
                </td>
                <td class="mono">•••• {w.payoutMethodLast4}</td>
                <td class="mono">{w.externalWithdrawalId ?? <span class="muted">—</span>}</td>
                <td class="mono">{w.id}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager label="Payout history pages" page={p.page} pages={p.pages} href={(n) => pageHref(here, {}, n)} previous="Newer payouts" next="Older payouts" />
      </section>
    </Page>
  );
}
