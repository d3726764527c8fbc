/** @jsxImportSource hono/jsx */
/** A merchant's home: what is left before going live (and the go-live button), its balances, its latest payments. */
import type { ActivationStep } from '../../people/index.ts';
import { Money, Status, Time } from '../kit/format.tsx';
import { ActionForm, Empty, Notice, Page, Table, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';

export interface HomeBalance {
  currency: string;
  availableMinor: number;
  pendingMinor: number;
  reservedMinor: number;
  /** What the merchant owes the platform in this currency. */
  owedMinor: number;
}

export interface RecentPayment {
  id: string;
  createdAt: string;
  amountMinor: number;
  currency: string;
  status: string;
  description: string | null;
  customerName: string | null;
  customerEmail: string | null;
}

/** Where each activation step is done. */
const stepLinks: Readonly<Record<string, { path: (merchantId: string) => string; how: string } | undefined>> = {
  owner_attached: { path: (id) => areaPath(id, 'team'), how: 'Open the join link the partner sent, or see the team' },
  website_set: { path: (id) => areaPath(id, 'checkout'), how: 'Set the website in checkout settings' },
  onboarding_submitted: { path: (id) => merchantPath(id, '/onboarding'), how: 'Fill in the onboarding form' },
  payout_method_added: { path: (id) => areaPath(id, 'payouts'), how: 'Add a payout method' },
};

const doneNotices: Readonly<Record<string, string>> = {
  joined: 'You are the owner of this merchant now.',
  team_joined: 'You joined the team of this merchant.',
  created: 'Your sandbox merchant is ready: it takes test payments now. The checklist below leads to going live.',
  onboarding_submitted: 'The onboarding form is submitted.',
  live: 'The checklist is complete: the merchant has gone live.',
};

export interface HomeProps {
  ctx: PageContext;
  steps: readonly ActivationStep[];
  balances: readonly HomeBalance[];
  payments: readonly RecentPayment[];
  canGoLive: boolean;
  /** Whether live cards can be charged: a payment processor is configured for live payments. */
  liveProcessor: boolean;
  error?: string;
  done?: string;
}

export function HomePage(p: HomeProps) {
  const merchantId = p.ctx.merchant!.id;
  const live = p.steps.find((s) => s.key === 'go_live')?.done ?? false;
  const others = p.steps.filter((s) => s.key !== 'go_live');
  const ready = others.every((s) => s.done);
  return (
    <Page ctx={p.ctx} title="Home" area="home">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      <section class="panel" aria-labelledby="activation">
        <h2 id="activation">{live ? 'Live' : 'Before going live'}</h2>
        {live ? (
          <LiveState ctx={p.ctx} liveProcessor={p.liveProcessor} />
        ) : (
          <>
            <ol class="checklist">
              {others.map((s) => {
                const where = stepLinks[s.key];
                return (
                  <li>
                    {s.done ? <Status status="done" /> : <Status status="to_do" />} {s.title}
                    {!s.done && where ? (
                      <>
                        {' '}
                        — <a href={where.path(merchantId)}>{where.how}</a>
                      </>
                    ) : null}
                  </li>
                );
              })}
            </ol>
            {ready && p.canGoLive ? (
              <ActionForm
                ctx={p.ctx}
                path={merchantPath(merchantId)}
                action="go_live"
                inline={false}
                confirm={
                  p.ctx.mode === 'live'
                    ? 'Go live? Live payments move real money.'
                    : "Complete the sandbox checklist? Sandbox payments stay test payments; live ones are taken by this merchant's live twin."
                }
              >
                Go live
              </ActionForm>
            ) : (
              <p class="muted">{ready ? 'An owner or admin can go live.' : 'The go-live button appears when every step above is done.'}</p>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="balances">
        <h2 id="balances">Balances</h2>
        {p.balances.length === 0 ? (
          <Empty>No money yet. Balances appear after the first payment.</Empty>
        ) : (
          <div class="grid">
            {p.balances.map((b) => (
              <div class="panel">
                <h3>{b.currency}</h3>
                <p class="stat">
                  <Money minor={b.availableMinor} currency={b.currency} /> <span class="muted">available</span>
                </p>
                <p class="muted">
                  <Money minor={b.pendingMinor} currency={b.currency} /> pending · <Money minor={b.reservedMinor} currency={b.currency} /> reserved
                </p>
                <Owed minor={b.owedMinor} currency={b.currency} />
              </div>
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="recent">
        <h2 id="recent">Recent payments</h2>
        {p.payments.length === 0 ? (
          <Empty>
            No payments yet. Share a checkout link from the <a href={areaPath(merchantId, 'catalog')}>catalog</a> or create an{' '}
            <a href={areaPath(merchantId, 'developers')}>API key</a> to take the first one.
          </Empty>
        ) : (
          <PaymentsTable merchantId={merchantId} payments={p.payments} caption="The five latest payments" />
        )}
        <p>
          <a href={areaPath(merchantId, 'payments')}>All payments</a>
        </p>
      </section>
    </Page>
  );
}

/**
 * What going live means here. On the sandbox it completes the checklist and no money moves; live payments are taken
 * on the live deployment. Without a payment processor for live cards, live payments are refused, and the page says so
 * rather than suggest otherwise.
 */
function LiveState({ ctx, liveProcessor }: { ctx: PageContext; liveProcessor: boolean }) {
  const refused = (
    <p class="error">
      Live payments are refused for now: no payment processor is configured for live cards, so a live charge answers <code>payments.processor_unavailable</code>{' '}
      and no card is charged.
    </p>
  );
  if (ctx.mode === 'live') return liveProcessor ? <p>This merchant takes live payments.</p> : refused;
  return (
    <>
      <p>
        The checklist is complete. This is the sandbox: its payments are test payments and move no money. Live payments are taken on the live deployment, where
        the platform opens this merchant's live twin once its onboarding is reviewed.
      </p>
      {liveProcessor ? null : refused}
    </>
  );
}

/**
 * What the merchant owes the platform in a currency, and what that means; nothing when it owes nothing. A refund or
 * dispute larger than the available funds leaves the rest owed, and the owed amount is taken from the next funds
 * that become available, before any of them can be paid out.
 */
export function Owed({ minor, currency }: { minor: number; currency: string }) {
  if (minor <= 0) return null;
  return (
    <div class="owed">
      <p>
        <strong>
          <Money minor={minor} currency={currency} /> owed
        </strong>
      </p>
      <p class="hint">
        This merchant owes it to the platform: a refund or dispute took more than the available balance. It is taken from the next funds that become available,
        before any payout.
      </p>
    </div>
  );
}

/** A table of payments, each linking to its page. */
export function PaymentsTable({ merchantId, payments, caption }: { merchantId: string; payments: readonly RecentPayment[]; caption: string }) {
  return (
    <Table caption={caption} columns={['Date', { name: 'Amount', num: true }, 'Status', 'Description', 'Customer']}>
      {payments.map((t) => (
        <tr>
          <td>
            <a href={merchantPath(merchantId, `/payments/${t.id}`)}>
              <Time iso={t.createdAt} />
            </a>
          </td>
          <td class="num">
            <Money minor={t.amountMinor} currency={t.currency} />
          </td>
          <td>
            <Status status={t.status} />
          </td>
          <td>{t.description ?? <span class="muted">—</span>}</td>
          <td>{t.customerName ?? t.customerEmail ?? <span class="muted">—</span>}</td>
        </tr>
      ))}
    </Table>
  );
}
