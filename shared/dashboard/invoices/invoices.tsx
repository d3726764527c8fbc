/** @jsxImportSource hono/jsx */
/** A merchant's customer invoices: the list (number, customer, amount, status, date) with a PDF download for each. */
import { Money, Status, Time } from '../kit/format.tsx';
import { Empty, Field, Page, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';
import { Pager } from '../customers/paging.tsx';

export interface InvoiceRow {
  id: string;
  number: string | null;
  customerId: string | null;
  buyerName: string;
  totalAmountMinor: number;
  currency: string;
  status: string;
  issueDate: string | null;
  createdAt: string;
}

/** The statuses the list can be narrowed to, as people read them. */
export const invoiceStatusChoices = [
  { value: 'draft', label: 'Draft' },
  { value: 'open', label: 'Open' },
  { value: 'past_due', label: 'Past due' },
  { value: 'paid', label: 'Paid' },
  { value: 'voided', label: 'Voided' },
  { value: 'uncollectible', label: 'Uncollectible' },
] as const;

/** An invoice's PDF address. */
export const invoicePdfPath = (merchantId: string, invoiceId: string) => merchantPath(merchantId, `/invoices/${invoiceId}/pdf`);

/** A table of invoices, each with its PDF. */
export function InvoicesTable({ merchantId, invoices, caption }: { merchantId: string; invoices: readonly InvoiceRow[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Customer</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Date</th>
            <th scope="col">PDF</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => (
            <tr>
              <td class="mono">{i.number ?? <span class="muted">Draft</span>}</td>
              <td>{i.customerId ? <a href={merchantPath(merchantId, `/customers/${i.customerId}`)}>{i.buyerName}</a> : i.buyerName}</td>
              <td class="num">
                <Money minor={i.totalAmountMinor} currency={i.currency} />
              </td>
              <td>
                <Status status={i.status} />
              </td>
              <td>
                <Time iso={i.issueDate ?? i.createdAt} />
              </td>
              <td>
                <a href={invoicePdfPath(merchantId, i.id)} download>
                  Download PDF<span class="sr-only"> of {i.number ?? 'the draft'}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface InvoicesProps {
  ctx: PageContext;
  invoices: readonly InvoiceRow[];
  totalCount: number;
  page: number;
  status?: string | undefined;
  search?: string | undefined;
}

export function InvoicesPage(p: InvoicesProps) {
  const merchantId = p.ctx.merchant!.id;
  const path = areaPath(merchantId, 'invoices');
  const filtered = Boolean(p.status || p.search);
  return (
    <Page ctx={p.ctx} title="Invoices" area="invoices">
      <form method="get" action={path} class="filters" aria-label="Filter invoices">
        <Field id="search" label="Search" type="search" value={p.search} maxlength={100} hint="Number, customer name or customer id" />
        <div class="field">
          <label for="status">Status</label>
          <select id="status" name="status">
            <option value="">Any status</option>
            {invoiceStatusChoices.map((c) => (
              <option value={c.value} selected={c.value === p.status}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      {p.invoices.length === 0 ? (
        filtered ? (
          <Empty>
            No invoice matches. <a href={path}>Show all invoices</a>.
          </Empty>
        ) : (
          <Empty>
            No invoices yet. Each subscription charge makes one, and the organization API makes others; they appear here with their PDF.{' '}
            <a href={areaPath(merchantId, 'subscriptions')}>See subscriptions</a>.
          </Empty>
        )
      ) : (
        <>
          <p class="muted">
            {p.totalCount} {p.totalCount === 1 ? 'invoice' : 'invoices'}
          </p>
          <InvoicesTable merchantId={merchantId} invoices={p.invoices} caption="Invoices, newest first" />
          <Pager path={path} params={{ status: p.status, search: p.search }} page={p.page} totalCount={p.totalCount} label="Invoices" />
        </>
      )}
    </Page>
  );
}
