/** A merchant's invoices page: one page of its customer invoices (a Query of its invoices, with the filters applied by DynamoDB). */
import { BadRequestError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { merchantInvoiceSummaries } from '../../invoicing/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { PAGE_SIZE, pageNumber } from '../customers/paging.tsx';
import { pageContext, pageReply } from '../kit/page.ts';
import { InvoicesPage, invoiceStatusChoices } from './invoices.tsx';

type StatusChoice = (typeof invoiceStatusChoices)[number]['value'];

/** The status filter: empty is none; anything but a status is a 400. */
function statusOf(text: string | undefined): StatusChoice | undefined {
  if (!text) return undefined;
  const choice = invoiceStatusChoices.find((c) => c.value === text);
  if (!choice) {
    throw new BadRequestError('request.status', `status: must be one of ${invoiceStatusChoices.map((c) => c.value).join(', ')}.`, { field: 'status' });
  }
  return choice.value;
}

export async function invoicesPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  q: { status?: string | undefined; search?: string | undefined; page?: string | undefined },
): Promise<Reply> {
  const page = pageNumber(q.page);
  const status = statusOf(q.status);
  const search = q.search?.trim() || undefined;
  const list = await merchantInvoiceSummaries(merchant, { status, search, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, InvoicesPage({ ctx, invoices: list.data, totalCount: list.totalCount, page, status, search }));
}
