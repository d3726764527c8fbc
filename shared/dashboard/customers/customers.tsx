/** @jsxImportSource hono/jsx */
/**
 * A merchant's customers: the list with search by name or e-mail, and a customer's page with their payments, saved
 * cards (brand, last four digits and expiry: nothing else of a card is ever shown), subscriptions and invoices.
 */
import { Time } from '../kit/format.tsx';
import { Csrf, Empty, Field, FilterForm, Page, Table, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';
import { PaymentsTable, type RecentPayment } from '../home/home.tsx';
import { InvoicesTable, type InvoiceRow } from '../invoices/invoices.tsx';
import { SubscriptionsTable, type SubscriptionRow } from '../subscriptions/subscriptions.tsx';
import { ListPager, PastTheEnd, pageHref } from './paging.tsx';

export interface CustomerRow {
  id: string;
  name: string | null;
  email: string;
  organization: string | null;
  createdAt: string;
  lastPaymentTime: string | null;
}

export interface CardRow {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  primary: boolean;
}

export interface CustomersProps {
  ctx: PageContext;
  customers: readonly CustomerRow[];
  totalCount: number;
  page: number;
  search?: string | undefined;
}

export function CustomersPage(p: CustomersProps) {
  const merchantId = p.ctx.merchant!.id;
  const path = areaPath(merchantId, 'customers');
  return (
    <Page ctx={p.ctx} title="Customers" area="customers">
      <FilterForm path={path} label="Search customers" submit="Search">
        <Field id="search" label="Search" type="search" value={p.search} maxlength={255} hint="Name or e-mail" />
      </FilterForm>
      {p.customers.length === 0 && p.page > 1 ? (
        <PastTheEnd page={p.page} what="customers" first={pageHref(path, { search: p.search }, 1)} />
      ) : p.customers.length === 0 ? (
        p.search ? (
          <Empty>
            No customer's name or e-mail contains “{p.search}”. Check the spelling, or <a href={path}>show all customers</a>.
          </Empty>
        ) : (
          <Empty>
            No customers yet. A customer is added with their first payment, or through the API; see <a href={areaPath(merchantId, 'developers')}>Developers</a>{' '}
            for API keys.
          </Empty>
        )
      ) : (
        <>
          <p class="muted">
            {p.totalCount} {p.totalCount === 1 ? 'customer' : 'customers'}
            {p.search ? ` matching “${p.search}”` : ''}
          </p>
          <Table caption="Customers, newest first" columns={['Name', 'Email', 'Created', 'Last payment']}>
            {p.customers.map((c) => (
              <tr>
                <td>
                  <a href={merchantPath(merchantId, `/customers/${c.id}`)}>{c.name ?? c.email}</a>
                </td>
                <td>{c.email}</td>
                <td>
                  <Time iso={c.createdAt} />
                </td>
                <td>
                  <Time iso={c.lastPaymentTime} />
                </td>
              </tr>
            ))}
          </Table>
          <ListPager path={path} params={{ search: p.search }} page={p.page} totalCount={p.totalCount} label="Customers" />
        </>
      )}
    </Page>
  );
}

/** A card brand as people read it: `american-express` → "American Express". */
export const brandName = (brand: string) =>
  brand
    .split('-')
    .map((w) => (w.length ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');

export interface CustomerProps {
  ctx: PageContext;
  customer: CustomerRow & { phoneNumber: string | null };
  payments: readonly RecentPayment[];
  cards: readonly CardRow[];
  subscriptions: readonly SubscriptionRow[];
  invoices: readonly InvoiceRow[];
}

export function CustomerPage(p: CustomerProps) {
  const merchantId = p.ctx.merchant!.id;
  const c = p.customer;
  return (
    <Page ctx={p.ctx} title={c.name ?? c.email} area="customers">
      <p>
        <a href={areaPath(merchantId, 'customers')}>All customers</a>
      </p>
      <section class="panel" aria-labelledby="details">
        <h2 id="details">Details</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{c.email}</dd>
          {c.organization ? (
            <>
              <dt>Organization</dt>
              <dd>{c.organization}</dd>
            </>
          ) : null}
          {c.phoneNumber ? (
            <>
              <dt>Phone</dt>
              <dd>{c.phoneNumber}</dd>
            </>
          ) : null}
          <dt>Customer since</dt>
          <dd>
            <Time iso={c.createdAt} />
          </dd>
          <dt>Last payment</dt>
          <dd>
            <Time iso={c.lastPaymentTime} />
          </dd>
        </dl>
        {p.ctx.role === 'owner' || p.ctx.role === 'admin' ? (
          <form method="post" action={merchantPath(merchantId, `/customers/${c.id}/portal-link`)}>
            <Csrf ctx={p.ctx} />
            <button type="submit" class="secondary" aria-describedby="portal-link-hint">
              Make a billing portal link
            </button>
            <p class="hint" id="portal-link-hint">
              A link for this customer to manage their subscriptions, card and invoices. It works once, within an hour: send it to them rather than opening it,
              which would sign you in as them.
            </p>
          </form>
        ) : null}
      </section>
      <section aria-labelledby="cards">
        <h2 id="cards">Payment instruments</h2>
        {p.cards.length === 0 ? (
          <Empty>No saved card. A card is saved when the customer pays with it and agrees to keep it, or through the API.</Empty>
        ) : (
          <ul>
            {p.cards.map((card) => (
              <li>
                <span>{brandName(card.brand)}</span> ending in <span class="mono">{card.last4}</span>, expires{' '}
                <span class="mono">
                  {String(card.expMonth).padStart(2, '0')}/{card.expYear}
                </span>
                {card.primary ? <span class="muted"> · primary</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="payments">
        <h2 id="payments">Payments</h2>
        {p.payments.length === 0 ? (
          <Empty>No payments from this customer yet.</Empty>
        ) : (
          <PaymentsTable merchantId={merchantId} payments={p.payments} caption="The customer's latest payments" />
        )}
      </section>
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Subscriptions</h2>
        {p.subscriptions.length === 0 ? (
          <Empty>This customer has no subscriptions.</Empty>
        ) : (
          <SubscriptionsTable merchantId={merchantId} subscriptions={p.subscriptions} caption="The customer's subscriptions, newest first" />
        )}
      </section>
      <section aria-labelledby="invoices">
        <h2 id="invoices">Invoices</h2>
        {p.invoices.length === 0 ? (
          <Empty>No invoices for this customer yet.</Empty>
        ) : (
          <InvoicesTable merchantId={merchantId} invoices={p.invoices} caption="The customer's invoices, newest first" />
        )}
      </section>
    </Page>
  );
}
