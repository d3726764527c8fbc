/** @jsxImportSource hono/jsx */
/** A merchant's customer invoices: the list (number, customer, amount, status, date) with a PDF download for each. */
import { Money, Status, Time } from '../kit/format.tsx';
import { Empty, Field, FilterForm, Page, SelectField, Table, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';
import { ListPager, PastTheEnd, pageHref } from '../customers/paging.tsx';

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
    <Table caption={caption} columns={['Number', 'Customer', { name: 'Amount', num: true }, 'Status', 'Date', 'PDF']}>
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
    </Table>
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
      <FilterForm path={path} label="Filter invoices">
        <Field id="search" label="Search" type="search" value={p.search} maxlength={100} hint="Number, customer name or customer id" />
        <SelectField id="status" label="Status" any="Any status" choices={invoiceStatusChoices} value={p.status} />
      </FilterForm>
      {p.invoices.length === 0 && p.page > 1 ? (
        <PastTheEnd page={p.page} what="invoices" first={pageHref(path, { status: p.status, search: p.search }, 1)} />
      ) : p.invoices.length === 0 ? (
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
          <ListPager path={path} params={{ status: p.status, search: p.search }} page={p.page} totalCount={p.totalCount} label="Invoices" />
        </>
      )}
    </Page>
  );
}
