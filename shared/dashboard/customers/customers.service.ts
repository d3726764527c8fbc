/**
 * A merchant's customers pages: the list (its customer summaries searched in memory, then the page's records), and
 * a customer's page, whose five reads (the customer, their payments, cards, subscriptions and invoices) run at once.
 */
import { getMerchantCustomer, listMerchantCustomers, listPaymentInstruments } from '../../customers/index.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { customerInvoiceSummaries } from '../../invoicing/index.ts';
import { latestTransactions } from '../../payments/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { customerSubscriptionSummaries } from '../../subscriptions/index.ts';
import { pageContext, pageReply } from '../kit/page.ts';
import { CustomerPage, CustomersPage } from './customers.tsx';
import { PAGE_SIZE, pageNumber } from './paging.tsx';

/** Rows of each list on a customer's page. */
const LATEST = 10;
/** Saved cards shown (a customer has few). */
const CARDS = 50;

const nameOf = (c: { firstName: string | null; lastName: string | null }) => [c.firstName, c.lastName].filter(Boolean).join(' ') || null;

export async function customersPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  q: { search?: string | undefined; page?: string | undefined },
): Promise<Reply> {
  const page = pageNumber(q.page);
  const search = q.search?.trim() || undefined;
  const list = await listMerchantCustomers(merchant, { search, page, limit: PAGE_SIZE });
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    CustomersPage({
      ctx,
      customers: list.data.map((c) => ({
        id: c.id,
        name: nameOf(c),
        email: c.email,
        organization: c.organization,
        createdAt: c.createdAt,
        lastPaymentTime: c.lastPaymentTime,
      })),
      totalCount: list.pagination.totalCount,
      page,
      search,
    }),
  );
}

/** A customer's page; 404 `customer.not_found` for an id that is not one of the merchant's customers. */
export async function customerPage(merchant: Merchant, role: Role, event: HttpEvent, customerId: string): Promise<Reply> {
  const [customer, payments, instruments, subscriptions, invoices] = await Promise.all([
    getMerchantCustomer(merchant, customerId),
    latestTransactions(merchant.id, LATEST, { customerId }),
    listPaymentInstruments(merchant.id, customerId, { limit: CARDS, offset: 0, sortDirection: 'desc' }),
    customerSubscriptionSummaries(merchant, customerId, LATEST),
    customerInvoiceSummaries(merchant, customerId, LATEST),
  ]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    CustomerPage({
      ctx,
      customer: {
        id: customer.id,
        name: nameOf(customer),
        email: customer.email,
        organization: customer.organization,
        phoneNumber: customer.phoneNumber,
        createdAt: customer.createdAt,
        lastPaymentTime: customer.lastPaymentTime,
      },
      payments,
      // Of a card, only its brand, last four digits and expiry.
      cards: instruments.data.flatMap((p) =>
        p.creditCard
          ? [
              {
                id: p.id,
                brand: p.creditCard.brand,
                last4: p.creditCard.creditCardLastFourDigits,
                expMonth: p.creditCard.expireMonth,
                expYear: p.creditCard.expireYear,
                primary: customer.primaryPaymentInstrument?.id === p.id,
              },
            ]
          : [],
      ),
      subscriptions,
      invoices,
    }),
  );
}
