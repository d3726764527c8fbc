/**
 * Transactions: charge a card once (`POST /api/transactions`, idempotent per organization and key) and list an
 * organization's transactions. The charge runs on the engine every payment shares (`./charges.ts`): this module
 * says what the body refers to, what the claim writes with it, and what success answers.
 */
import { v7 as uuidv7 } from 'uuid';
import {
  findCardToken,
  consumeCardToken,
  type CardToken,
  cardTokenRefusalError,
  cardTokenTransactionError,
  findCustomer,
  putNewCustomer,
  findPaymentInstrument,
  type PaymentInstrument,
  customerFromEmail,
  type Customer,
} from '../customers/index.ts';
import { type NamedParts, partItems } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import * as repo from './transactions.repository.ts';
import { taxInPayment, type Transaction } from './transaction.entity.ts';
import { chargeInvoiceId, checkoutInvoiceId } from '../invoicing/index.ts';
import { buyerTaxAddress, includedTaxOf, taxPort } from '../domain/tax.ts';
import { parseDecimalRate } from '../domain/tax-rates.ts';
import { UnprocessableError } from '../domain/errors.ts';
import { type Merchant, refuseUnlessLive } from '../domain/merchants.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import {
  IN_MEMORY_SORT_LIMIT,
  INITIAL_STATUS,
  isIndexedSort,
  requestFingerprint,
  sortTransactions,
  type CombinedStatus,
  type TransactionSort,
} from './transactions.rules.ts';
import { customerNotFound, paymentInstrumentNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { objectReply } from '../platform/http/envelopes.ts';
import { config } from '../platform/config.ts';
import { type Processor, processorFor } from '../processor/index.ts';
import { charge, type ChargeAnswer, type ChargeKind, type NewCharge } from './charges.service.ts';

export interface CreateTransactionInput {
  idempotencyKey: string;
  organizationId?: string | undefined;
  amount: number;
  currency: string;
  description?: string | null | undefined;
  customerId?: string | undefined;
  customer?: { email: string; firstName?: string | null | undefined; lastName?: string | null | undefined } | undefined;
  paymentInstrumentId?: string | undefined;
  token?: string | undefined;
  billingAddress?: { country: string; region?: string | null | undefined; zip?: string | null | undefined } | undefined;
}

/** What the request answers when it succeeds (errors are thrown, replays included). */
export type TransactionAnswer = ChargeAnswer;

/** The transaction as the organization API shows it (never the processor's card reference or the customer's e-mail). */
export const transactionView = (t: Transaction) => ({
  id: t.id,
  organizationId: t.organizationId,
  status: t.status,
  amount: toMajorUnits(t.amountMinor, t.currency),
  currency: t.currency,
  tax: toMajorUnits(taxInPayment(t), t.currency),
  description: t.description,
  customerId: t.customerId,
  customerName: t.customerName,
  paymentInstrumentId: t.paymentInstrumentId,
  paymentMethod: t.paymentMethod,
  paymentType: t.paymentType,
  gatewayName: t.gatewayName,
  creditCard: t.card ? { brand: t.card.brand, creditCardLastFourDigits: t.card.last4, expireMonth: t.card.expMonth, expireYear: t.card.expYear } : null,
  externalTransactionId: t.externalTransactionId,
  declineReason: t.declineReason,
  orderId: t.orderId,
  subscriptionId: t.subscriptionId,
  idempotencyKey: t.idempotencyKey,
  isTestData: t.isTestData,
  processedAt: t.processedAt,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

/**
 * The invoice a payment paid, which its refunds credit: a plan checkout's first invoice, the customer invoice an order
 * paid, a subscription charge's (fixed by its key); null for any other payment. Derived, not stored, so every payment
 * has it, older ones too.
 */
export const invoicePaidBy = (t: Pick<Transaction, 'id' | 'checkout' | 'subscriptionId' | 'idempotencyKey'>): string | null =>
  t.checkout ? (t.checkout.subscription ? checkoutInvoiceId(t.id) : t.checkout.invoiceId) : t.subscriptionId ? chargeInvoiceId(t.idempotencyKey) : null;

/** What the body refers to, read at once (null where nothing was named or nothing was found). */
interface References {
  customer: Customer | null;
  instrument: PaymentInstrument | null;
  token: CardToken | null;
}

const readReferences = async (organizationId: string, input: CreateTransactionInput): Promise<References> => {
  const [customer, instrument, token] = await Promise.all([
    input.customerId ? findCustomer(organizationId, input.customerId) : null,
    input.paymentInstrumentId ? findPaymentInstrument(organizationId, input.paymentInstrumentId) : null,
    input.token ? findCardToken(organizationId, input.token) : null,
  ]);
  return { customer, instrument, token };
};

const fullName = (c: { firstName: string | null; lastName: string | null }): string | null => [c.firstName, c.lastName].filter(Boolean).join(' ') || null;

/** What the claim of a new transaction writes besides it: the token's use, a new customer and its event. */
type ClaimPart = 'token' | 'customer';

/** A new transaction's record and what its claim writes besides, by part. */
interface Plan {
  transaction: Transaction;
  claimParts: NamedParts<ClaimPart>;
}

/**
 * The tax within a charge of `amountMinor`, which the platform owes as merchant of record: the amount is what the
 * buyer pays, tax included, at the rate of where the buyer is (the body's `billingAddress`, else the instrument's
 * billing address, else the customer's address) on `now`. 422 `transaction.billing_address_required` where none names a
 * country, and the tax port's 422 `checkout.tax_unavailable` where no rate is known (a place the platform does not sell
 * to, a US or Canadian address without its state).
 */
function includedTax(amountMinor: number, input: CreateTransactionInput, instrument: PaymentInstrument | null, customer: Customer | null, now: string): number {
  const address = buyerTaxAddress(input.billingAddress ?? instrument?.billingAddress, customer?.address);
  if (!address) {
    throw new UnprocessableError(
      'transaction.billing_address_required',
      'billingAddress: where the buyer is decides the tax the amount includes; give billingAddress (country, and region where the country has state taxes), or charge an instrument or a customer with an address.',
      { field: 'billingAddress' },
    );
  }
  const { rate } = taxPort.quote({ lines: [], currency: input.currency, address, at: new Date(now) });
  return Number(includedTaxOf(BigInt(amountMinor), parseDecimalRate(rate)));
}

/**
 * Checks what the body refers to and builds the new transaction: 404 `customer.not_found`,
 * `payment_instrument.not_found`, `card_token.not_found`; 409 `card_token.already_used`; 422
 * `card_token.expired`, `transaction.customer_mismatch` (an instrument of another customer, or with a new one).
 */
async function plan(organization: Merchant, input: CreateTransactionInput, refs: References, processor: Processor, now: string): Promise<Plan> {
  if (input.customerId && !refs.customer) throw customerNotFound();
  let customer = refs.customer;
  const instrument = refs.instrument;
  if (input.paymentInstrumentId) {
    if (!instrument || instrument.deletedAt || !instrument.creditCard) throw paymentInstrumentNotFound();
    if (input.customer || (customer && instrument.customerId !== customer.id)) {
      throw new UnprocessableError(
        'transaction.customer_mismatch',
        'The payment instrument belongs to another customer: leave the customer out to charge it for its own.',
      );
    }
    customer ??= await findCustomer(organization.id, instrument.customerId);
  }
  const token = refs.token;
  if (input.token) {
    if (!token) throw cardTokenRefusalError('not_found');
    if (token.consumedAt) throw cardTokenRefusalError('consumed');
    if (token.expiratedAt <= now) throw cardTokenRefusalError('expired');
  }

  const claimParts: [ClaimPart, TransactItem[]][] = [];
  if (token) claimParts.push(['token', [consumeCardToken(organization.id, token.id, now)]]);
  if (input.customer) {
    customer = {
      ...customerFromEmail(organization, input.customer.email, now),
      firstName: input.customer.firstName ?? null,
      lastName: input.customer.lastName ?? null,
    };
    claimParts.push([
      'customer',
      [putNewCustomer(customer), outboxEvent('customer.created', organization, { customerId: customer.id, email: customer.email }, now)],
    ]);
  }

  const card = instrument?.creditCard ?? token!;
  const amountMinor = toMinorUnits(input.amount, input.currency)!;
  return {
    transaction: {
      id: uuidv7(),
      organizationId: organization.id,
      status: INITIAL_STATUS,
      amountMinor,
      currency: input.currency,
      taxMinor: includedTax(amountMinor, input, instrument, customer, now),
      description: input.description ?? null,
      customerId: customer?.id ?? null,
      customerName: customer ? fullName(customer) : null,
      customerEmail: customer?.email ?? null,
      paymentInstrumentId: instrument?.id ?? null,
      tokenId: token?.id ?? null,
      // Charged on the card, whatever method its instrument is labelled with.
      paymentMethod: 'payment-card',
      paymentType: 'sale',
      gatewayName: processor.name,
      card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
      processorReference: instrument?.processorReference ?? token!.processorReference,
      externalTransactionId: null,
      declineReason: null,
      subscriptionId: null,
      orderId: null,
      planId: null,
      checkout: null,
      idempotencyKey: input.idempotencyKey,
      isTestData: organization.mode === 'test',
      processedAt: null,
      createdAt: now,
      updatedAt: now,
    },
    claimParts,
  };
}

/** `POST /api/transactions`: its operation, and its success answer (201, the transaction in the object envelope). */
export const transactionsKind: ChargeKind = {
  operation: 'transactions',
  settleItems: () => [],
  success: (settled) => ({ status: 201, body: objectReply(transactionView(settled)) }),
};

/**
 * Charges a card once for `organization` (see `./charges.ts`). Answers 201 with the transaction; throws the
 * engine's errors and the reference errors of `plan`.
 */
export async function createTransaction(organization: Merchant, input: CreateTransactionInput): Promise<TransactionAnswer> {
  refuseUnlessLive(organization);
  const processor = processorFor(config.stage);
  const { organizationId: _named, ...request } = input;
  return charge({
    kind: transactionsKind,
    organization,
    key: input.idempotencyKey,
    requestHash: requestFingerprint(request),
    prepare: async (now): Promise<NewCharge> => {
      const refs = await readReferences(organization.id, input);
      const { transaction, claimParts } = await plan(organization, input, refs, processor, now);
      return {
        transaction,
        claimItems: partItems(claimParts),
        // Only the token's use is refused for a reason of the request's own.
        refusal: async (_reasons, e) => {
          const error = cardTokenTransactionError(e, claimParts, 'token', organization.id, now);
          return error === e ? null : error;
        },
      };
    },
  });
}

/** The idempotency operation of a subscription's charges (first, renewals, retries, resumes, items changes, reactivations). */
export const SUBSCRIPTION_CHARGES_OPERATION = 'subscriptions';

/** The success answer of a subscription's charge: the transaction, as `POST /api/transactions` answers it. */
export const subscriptionChargeAnswer = (settled: Transaction): ChargeAnswer => ({ status: 201, body: objectReply(transactionView(settled)) });

export interface SubscriptionChargeInput {
  /** The kind of charge: the subscriptions' operation, and what its settlement writes on the subscription. */
  kind: ChargeKind;
  /** The charge's key within the subscriptions' operation, named by what it pays (a period, a pause, a change). */
  key: string;
  /** The transaction's id, fixed by the step that claims it. */
  transactionId: string;
  subscriptionId: string;
  customer: { id: string; name: string | null; email: string | null };
  instrument: PaymentInstrument;
  amountMinor: number;
  /** The tax in `amountMinor` (the tax of the charge's invoice), owed by the platform. */
  taxMinor: number;
  currency: string;
  description: string;
  /** What the claim writes besides the key and the transaction: the subscription's step, on its version. */
  claimItems: TransactItem[];
  /** Why the claim failed when one of `claimItems` was refused (see `NewCharge.refusal`). */
  refusal(reasons: readonly string[]): unknown | null;
}

/** A subscription charge's fingerprint: its key names what it pays, so every request for that thing is one request. */
export const subscriptionChargeFingerprint = (subscriptionId: string, key: string) => requestFingerprint({ subscriptionId, key });

/**
 * Charges a subscription's instrument once under `key` (see `./charges.service.ts`), claimed in one transaction with
 * the subscription's step (`claimItems`): a repeat of the key (a second worker, a duplicate request) answers the
 * first charge's result, never charges again; a step that lost its race claims nothing. Answers the settled
 * transaction; throws the engine's errors (402 `payment.declined` among them) and `refusal`'s.
 */
export async function chargeSubscription(organization: Merchant, input: SubscriptionChargeInput): Promise<TransactionAnswer> {
  const processor = processorFor(config.stage);
  const card = input.instrument.creditCard;
  if (!card || input.instrument.deletedAt) throw paymentInstrumentNotFound();
  return charge({
    kind: input.kind,
    organization,
    key: input.key,
    requestHash: subscriptionChargeFingerprint(input.subscriptionId, input.key),
    prepare: async (now): Promise<NewCharge> => ({
      transaction: {
        id: input.transactionId,
        organizationId: organization.id,
        status: INITIAL_STATUS,
        amountMinor: input.amountMinor,
        currency: input.currency,
        description: input.description,
        customerId: input.customer.id,
        customerName: input.customer.name,
        customerEmail: input.customer.email,
        paymentInstrumentId: input.instrument.id,
        tokenId: null,
        paymentMethod: 'payment-card',
        paymentType: 'sale',
        gatewayName: processor.name,
        card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
        processorReference: input.instrument.processorReference,
        externalTransactionId: null,
        declineReason: null,
        subscriptionId: input.subscriptionId,
        orderId: null,
        planId: null,
        checkout: null,
        taxMinor: input.taxMinor,
        idempotencyKey: input.key,
        isTestData: organization.mode === 'test',
        processedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      claimItems: input.claimItems,
      refusal: async (reasons) => input.refusal(reasons),
    }),
  });
}

// Listing

export interface TransactionListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: TransactionSort;
  combinedStatuses?: CombinedStatus[] | undefined;
  paymentMethods?: string[] | undefined;
  search?: string | undefined;
  showTestData: boolean;
  subscriptionId?: string | undefined;
}

/**
 * One page of the organization's transactions with the filters applied by DynamoDB: sorted by `createdAt` or
 * `updatedAt` it is a page of an index (shared/platform/db/listing.ts); sorted by anything else, the sort fields of every
 * matching transaction are read (at most IN_MEMORY_SORT_LIMIT, else 422 `transaction.sort_too_broad`), sorted in
 * memory, and the page's records read in one BatchGetItem. Filtered by a subscription, they are read from the
 * subscription's own partition of gsi5 and sorted in memory, whatever the sort: the read follows the subscription's
 * payments, not the organization's.
 */
export async function listTransactions(organizationId: string, q: TransactionListQuery) {
  const filter: repo.TransactionFilter = {
    statuses: q.combinedStatuses,
    paymentMethods: q.paymentMethods,
    search: q.search ? q.search.toLowerCase() : undefined,
    showTestData: q.showTestData,
  };
  if (q.subscriptionId) {
    const all = await repo.listTransactionsOfSubscription(organizationId, q.subscriptionId, IN_MEMORY_SORT_LIMIT + 1, filter);
    if (all.length > IN_MEMORY_SORT_LIMIT) throw sortTooBroad(`More than ${IN_MEMORY_SORT_LIMIT} transactions of the subscription match: narrow the filters.`);
    return {
      totalCount: all.length,
      data: sortTransactions(all, q.sortBy, q.sortDirection)
        .slice(q.offset, q.offset + q.limit)
        .map(transactionView),
    };
  }
  if (isIndexedSort(q.sortBy)) {
    const page = await repo.listTransactionsPage(
      organizationId,
      { sortBy: q.sortBy, sortDirection: q.sortDirection, offset: q.offset, limit: q.limit },
      filter,
    );
    return { totalCount: page.totalCount, data: page.items.map(transactionView) };
  }
  const all = await repo.listTransactionSortFields(organizationId, filter, IN_MEMORY_SORT_LIMIT);
  if (all === 'too_many') {
    throw sortTooBroad(
      `More than ${IN_MEMORY_SORT_LIMIT} transactions match, too many to sort by ${q.sortBy}: narrow the filters, or sort by createdAt or updatedAt.`,
    );
  }
  const ids = sortTransactions(all, q.sortBy, q.sortDirection)
    .slice(q.offset, q.offset + q.limit)
    .map((t) => t.id);
  const records = ids.length ? await repo.getTransactions(ids) : [];
  return { totalCount: all.length, data: records.filter((t) => t.organizationId === organizationId).map(transactionView) };
}

const sortTooBroad = (message: string) => new UnprocessableError('transaction.sort_too_broad', message);

/**
 * The merchant's latest `limit` transactions, newest first, test data included (a page of the creation index): all
 * of them (each shard of the listing read once, without a total count), or those of one customer — of one of its
 * subscriptions, too — from the customer's own partition of gsi4.
 */
export async function latestTransactions(
  organizationId: string,
  limit: number,
  of: { customerId: string; subscriptionId?: string } | Record<string, never> = {},
): Promise<Transaction[]> {
  if (of.customerId) return repo.listTransactionsOfCustomer(organizationId, of.customerId, limit, { showTestData: true, subscriptionId: of.subscriptionId });
  return repo.listTransactionItems(organizationId, { sortBy: 'createdAt', sortDirection: 'desc', offset: 0, limit }, { showTestData: true });
}

/** What the dashboard's payments list filters by: statuses, a search text, and a creation time range (ISO, both ends included). */
export interface TransactionRecordsQuery {
  offset: number;
  limit: number;
  statuses?: readonly CombinedStatus[] | undefined;
  search?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/**
 * One page of the merchant's transaction records (amounts in minor units), newest first, test data included, with
 * the total count of those matching: a page of the creation index, the time range its key condition.
 */
export async function transactionRecordsPage(organizationId: string, q: TransactionRecordsQuery): Promise<{ totalCount: number; items: Transaction[] }> {
  const range = q.createdFrom || q.createdTo ? { attribute: 'createdAt' as const, from: q.createdFrom, to: q.createdTo } : undefined;
  return repo.listTransactionsPage(
    organizationId,
    { sortBy: 'createdAt', sortDirection: 'desc', offset: q.offset, limit: q.limit, ...(range ? { range } : {}) },
    { statuses: q.statuses, search: q.search ? q.search.toLowerCase() : undefined, showTestData: true },
  );
}

/** The merchant's transaction `id` (amounts in minor units), or null when it has none of that id. */
export const findTransaction = (organizationId: string, id: string): Promise<Transaction | null> => repo.getTransaction(organizationId, id);
