/**
 * Transactions: charge a card once (`POST /api/transactions`, idempotent per organization and key) and list an
 * organization's transactions.
 *
 * A charge, step by step (README "Transactions"):
 * 1. The deployment's processor (503 `payments.processor_unavailable` on live, before anything is read or written).
 * 2. At once: the key's idempotency record, and what the body refers to (customer, payment instrument, token).
 * 3. A key seen before: the same request replays the first answer (or waits briefly for it, or takes over a claim
 *    whose attempt died); a different request is 422 `idempotency.key_reused`.
 * 4. A new key: one transaction claims it (`processing`, the request's fingerprint) and writes the transaction
 *    `sending`, the token's single use and the new customer (with `customer.created`) — so nothing that can be
 *    refused is left for after the money moved.
 * 5. The processor charges under a key derived from (organization, idempotency key): a retry never charges twice.
 * 6. One transaction records the answer: the transaction settled, the idempotency record completed with the answer
 *    (on the condition that the claim is still this attempt's), the customer's revenue (on success) and
 *    `payment.completed` or `payment.failed` in the outbox.
 */
import { v7 as uuidv7 } from 'uuid';
import { config } from '../config.ts';
import { getCardToken as readCardToken, consumeCardToken, type CardToken } from '../db/card-tokens.ts';
import { cancellationReasons, transactWrite } from '../db/client.ts';
import { getCustomer, putNewCustomer, recordCustomerPayment } from '../db/customers.ts';
import * as idem from '../db/idempotency.ts';
import type { TransactItem } from '../db/types.ts';
import { getPaymentInstrument, type PaymentInstrument } from '../db/payment-instruments.ts';
import * as repo from '../db/transactions.ts';
import { customerFromEmail, type Customer } from '../domain/customers.ts';
import { ConflictError, DomainError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import {
  IDEMPOTENCY_LOCK_SECONDS, IN_MEMORY_SORT_LIMIT, IN_PROGRESS_WAIT_MS, INITIAL_STATUS, isIndexedSort, newAttemptId, processorIdempotencyKey,
  requestFingerprint, settlementOf, sortTransactions, type CombinedStatus, type TransactionSort,
} from '../domain/transactions.ts';
import { outboxEvent } from '../events/outbox.ts';
import { objectReply } from '../http/envelopes.ts';
import { logger } from '../observability.ts';
import { processorFor, type Processor } from '../payments/processor.ts';
import { cardTokenRefusalError, cardTokenTransactionError } from './card-tokens.ts';

/** The operation idempotency keys of `POST /api/transactions` belong to. */
const OPERATION = 'transactions';

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
}

/** What the request answers when it succeeds (errors are thrown, replays included). */
export interface TransactionAnswer {
  status: number;
  body: unknown;
}

/** The transaction as the organization API shows it (never the processor's card reference or the customer's e-mail). */
export const transactionView = (t: repo.Transaction) => ({
  id: t.id,
  organizationId: t.organizationId,
  status: t.status,
  amount: toMajorUnits(t.amountMinor, t.currency),
  currency: t.currency,
  description: t.description,
  customerId: t.customerId,
  customerName: t.customerName,
  paymentInstrumentId: t.paymentInstrumentId,
  paymentMethod: t.paymentMethod,
  paymentType: t.paymentType,
  gatewayName: t.gatewayName,
  creditCard: t.card
    ? { brand: t.card.brand, creditCardLastFourDigits: t.card.last4, expireMonth: t.card.expMonth, expireYear: t.card.expYear }
    : null,
  externalTransactionId: t.externalTransactionId,
  declineReason: t.declineReason,
  orderId: null,
  subscriptionId: t.subscriptionId,
  idempotencyKey: t.idempotencyKey,
  isTestData: t.isTestData,
  processedAt: t.processedAt,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

const keyReused = () => new UnprocessableError(
  'idempotency.key_reused',
  'This idempotencyKey was used with a different request. Send the same request to get its result, or use a new key for a new payment.',
);
const inProgress = () => new ConflictError(
  'idempotency.in_progress',
  'A request with this idempotencyKey is still being processed. Retry shortly with the same key to get its result.',
);
const customerNotFound = () => new NotFoundError('customer.not_found', 'No customer with this id exists in this organization.');
const instrumentNotFound = () => new NotFoundError('payment_instrument.not_found', 'No payment instrument with this id exists in this organization.');

/** The answer stored under the key, given again: the same status and body, or the same error. */
function replay(answer: idem.StoredAnswer): TransactionAnswer {
  if ('error' in answer) throw new DomainError(answer.status, answer.error.code, answer.error.message, answer.error.details);
  return { status: answer.status, body: answer.body };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000).toISOString();

/** What the body refers to, read at once (null where nothing was named or nothing was found). */
interface References {
  customer: Customer | null;
  instrument: PaymentInstrument | null;
  token: CardToken | null;
}

const readReferences = async (organizationId: string, input: CreateTransactionInput): Promise<References> => {
  const [customer, instrument, token] = await Promise.all([
    input.customerId ? getCustomer(organizationId, input.customerId) : null,
    input.paymentInstrumentId ? getPaymentInstrument(organizationId, input.paymentInstrumentId) : null,
    input.token ? readCardToken(organizationId, input.token) : null,
  ]);
  return { customer, instrument, token };
};

const fullName = (c: { firstName: string | null; lastName: string | null }): string | null =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || null;

/** A new transaction's record and what its claim writes besides (the token's use, a new customer and its event). */
interface Plan {
  transaction: repo.Transaction;
  extra: TransactItem[];
  /** Where `consumeCardToken` is in the claim's items, to tell why it was refused. */
  tokenIndex: number | null;
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
    if (!instrument || instrument.deletedAt || !instrument.creditCard) throw instrumentNotFound();
    if (input.customer || (customer && instrument.customerId !== customer.id)) {
      throw new UnprocessableError('transaction.customer_mismatch', 'The payment instrument belongs to another customer: leave the customer out to charge it for its own.');
    }
    customer ??= await getCustomer(organization.id, instrument.customerId);
  }
  const token = refs.token;
  if (input.token) {
    if (!token) throw cardTokenRefusalError('not_found');
    if (token.consumedAt) throw cardTokenRefusalError('consumed');
    if (token.expiratedAt <= now) throw cardTokenRefusalError('expired');
  }

  const extra: TransactItem[] = [];
  let tokenIndex: number | null = null;
  if (token) {
    tokenIndex = 2; // after the claim and the transaction
    extra.push(consumeCardToken(organization.id, token.id, now));
  }
  if (input.customer) {
    customer = {
      ...customerFromEmail(organization, input.customer.email, now),
      firstName: input.customer.firstName ?? null,
      lastName: input.customer.lastName ?? null,
    };
    extra.push(putNewCustomer(customer), outboxEvent('customer.created', organization, { customerId: customer.id, email: customer.email }, now));
  }

  const card = instrument?.creditCard ?? token!;
  return {
    transaction: {
      id: uuidv7(),
      organizationId: organization.id,
      status: INITIAL_STATUS,
      amountMinor: toMinorUnits(input.amount, input.currency)!,
      currency: input.currency,
      description: input.description ?? null,
      customerId: customer?.id ?? null,
      customerName: customer ? fullName(customer) : null,
      customerEmail: customer?.email ?? null,
      paymentInstrumentId: instrument?.id ?? null,
      tokenId: token?.id ?? null,
      paymentMethod: instrument?.method ?? 'payment-card',
      paymentType: 'sale',
      gatewayName: processor.name,
      card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
      processorReference: instrument?.processorReference ?? token!.processorReference,
      externalTransactionId: null,
      declineReason: null,
      subscriptionId: null,
      idempotencyKey: input.idempotencyKey,
      isTestData: organization.mode === 'test',
      processedAt: null,
      createdAt: now,
      updatedAt: now,
    },
    extra,
    tokenIndex,
  };
}

/**
 * Charges a card once for `organization` (see the steps at the top of this module). Answers 201 with the
 * transaction; throws 402 `payment.declined` / 502 `payment.processor_error` (recorded, and replayed as they were),
 * 502 `payment.processor_unreachable` (no answer: retry with the same key), 409 `idempotency.in_progress`, 422
 * `idempotency.key_reused`, 503 `payments.processor_unavailable`, and the reference errors of `plan`.
 */
export async function createTransaction(organization: Merchant, input: CreateTransactionInput): Promise<TransactionAnswer> {
  const processor = processorFor(config.stage);
  const { organizationId: _named, ...request } = input;
  const requestHash = requestFingerprint(request);
  const started = new Date();
  const now = started.toISOString();

  const [existing, refs] = await Promise.all([
    idem.getIdempotencyRecord(organization.id, OPERATION, input.idempotencyKey),
    readReferences(organization.id, input),
  ]);
  if (existing) return resume(processor, organization, existing, requestHash);

  const { transaction, extra, tokenIndex } = await plan(organization, input, refs, processor, now);
  const attemptId = newAttemptId();
  const claim: idem.IdempotencyRecord = {
    organizationId: organization.id,
    operation: OPERATION,
    key: input.idempotencyKey,
    requestHash,
    state: 'processing',
    attemptId,
    lockedUntil: later(started, IDEMPOTENCY_LOCK_SECONDS),
    resourceId: transaction.id,
    answer: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite([idem.putIdempotencyClaim(claim), repo.putNewTransaction(transaction), ...extra]);
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (!reasons) throw e;
    // Another request with this key got there first: answer as a repeat of it.
    if (reasons[0] !== 'None') {
      const winner = await idem.getIdempotencyRecord(organization.id, OPERATION, input.idempotencyKey);
      if (winner) return resume(processor, organization, winner, requestHash);
    }
    const tokenError = tokenIndex === null ? e : cardTokenTransactionError(e, tokenIndex, organization.id, now);
    if (tokenError !== e) throw tokenError;
    // Only concurrent writes to the same items stood in the way (after transactWrite's own retries).
    if (reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed')) throw inProgress();
    throw e;
  }
  return chargeAndRecord(processor, organization, claim, attemptId, transaction);
}

/**
 * A key seen before: 422 when the request differs; the stored answer when it is complete; a takeover when its
 * attempt's lock has passed; else a short wait for the answer, then 409 `idempotency.in_progress`.
 */
async function resume(processor: Processor, organization: Merchant, first: idem.IdempotencyRecord, requestHash: string): Promise<TransactionAnswer> {
  if (first.requestHash !== requestHash) throw keyReused();
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  let record: idem.IdempotencyRecord | null = first;
  for (;;) {
    if (!record) throw new Error('An idempotency record disappeared');
    if (record.state === 'completed' && record.answer) return replay(record.answer);
    const now = new Date();
    if (record.lockedUntil <= now.toISOString()) {
      const attemptId = newAttemptId();
      if (await idem.takeOverClaim(record, attemptId, later(now, IDEMPOTENCY_LOCK_SECONDS), now.toISOString())) {
        const transaction = await repo.getTransaction(organization.id, record.resourceId);
        if (!transaction) throw new Error(`The claim of transaction ${record.resourceId} has no transaction`);
        return chargeAndRecord(processor, organization, record, attemptId, transaction);
      }
    }
    if (Date.now() >= deadline) throw inProgress();
    await sleep(100);
    record = await idem.getIdempotencyRecord(organization.id, OPERATION, record.key);
  }
}

/** Steps 5 and 6: the charge under the derived key, then one transaction that records its answer. */
async function chargeAndRecord(
  processor: Processor, organization: Merchant, claim: idem.IdempotencyRecord, attemptId: string, t: repo.Transaction,
): Promise<TransactionAnswer> {
  let result;
  try {
    result = await processor.charge({
      reference: t.processorReference,
      amountMinor: t.amountMinor,
      currency: t.currency,
      idempotencyKey: processorIdempotencyKey(t.organizationId, t.idempotencyKey),
      ...(t.description ? { description: t.description } : {}),
    });
  } catch (e) {
    logger.warn('processor call failed', { transactionId: t.id, errorName: (e as Error).name });
    await idem.releaseClaim(claim, attemptId, new Date().toISOString());
    throw new DomainError(502, 'payment.processor_unreachable',
      'The processor did not answer, so the outcome of this payment is not known yet. Retry with the same idempotencyKey: it finishes this payment and never charges twice.',
      { transactionId: t.id });
  }

  const settlement = settlementOf(result);
  const at = new Date().toISOString();
  const settled: repo.Transaction = {
    ...t,
    status: settlement.status,
    externalTransactionId: settlement.externalTransactionId,
    declineReason: settlement.declineReason,
    processedAt: at,
    updatedAt: at,
  };
  const answer: idem.StoredAnswer = settlement.httpStatus === 201
    ? { status: 201, body: objectReply(transactionView(settled)) }
    : {
      status: settlement.httpStatus,
      error: settlement.httpStatus === 402
        ? { code: 'payment.declined', message: `The payment was declined: ${settlement.declineReason.message}`, details: { transactionId: t.id, declineCode: settlement.declineReason.code } }
        : { code: 'payment.processor_error', message: `The processor could not process the payment, and nothing was charged: ${settlement.declineReason.message}`, details: { transactionId: t.id, errorCode: settlement.declineReason.code } },
    };

  const extra = { amount: toMajorUnits(t.amountMinor, t.currency), currency: t.currency, declineReason: settlement.declineReason?.code ?? null };
  const common = { transactionId: t.id, externalTransactionId: settled.externalTransactionId, occurredAt: at, orderId: null, customerId: t.customerId, subscriptionId: null };
  const items: TransactItem[] = [
    repo.settleTransaction(settled, INITIAL_STATUS),
    idem.completeIdempotency(claim, attemptId, answer, at),
    settlement.status === 'completed'
      ? outboxEvent('payment.completed', organization, { ...common, amount: extra.amount, currency: t.currency.toLowerCase() }, at, extra)
      : outboxEvent('payment.failed', organization, common, at, extra),
  ];
  if (settlement.status === 'completed' && t.customerId) items.push(recordCustomerPayment(t.organizationId, t.customerId, t.amountMinor, t.currency, at));
  try {
    await transactWrite(items);
  } catch (e) {
    if (!cancellationReasons(e)) throw e;
    // The claim is no longer this attempt's (a retry took it over): answer what that retry recorded.
    const record = await idem.getIdempotencyRecord(t.organizationId, OPERATION, t.idempotencyKey);
    if (record?.state === 'completed' && record.answer) return replay(record.answer);
    throw inProgress();
  }
  return replay(answer);
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
 * `updatedAt` it is a page of an index (shared/db/listing.ts); sorted by anything else, the sort fields of every
 * matching transaction are read (at most IN_MEMORY_SORT_LIMIT, else 422 `transaction.sort_too_broad`), sorted in
 * memory, and the page's records read in one BatchGetItem.
 */
export async function listTransactions(organizationId: string, q: TransactionListQuery) {
  const filter: repo.TransactionFilter = {
    statuses: q.combinedStatuses,
    paymentMethods: q.paymentMethods,
    search: q.search ? q.search.toLowerCase() : undefined,
    showTestData: q.showTestData,
    subscriptionId: q.subscriptionId,
  };
  if (isIndexedSort(q.sortBy)) {
    const page = await repo.listTransactionsPage(organizationId, { sortBy: q.sortBy, sortDirection: q.sortDirection, offset: q.offset, limit: q.limit }, filter);
    return { totalCount: page.totalCount, data: page.items.map(transactionView) };
  }
  const all = await repo.listTransactionSortFields(organizationId, filter, IN_MEMORY_SORT_LIMIT);
  if (all === 'too_many') {
    throw new UnprocessableError('transaction.sort_too_broad',
      `More than ${IN_MEMORY_SORT_LIMIT} transactions match, too many to sort by ${q.sortBy}: narrow the filters, or sort by createdAt or updatedAt.`);
  }
  const ids = sortTransactions(all, q.sortBy, q.sortDirection).slice(q.offset, q.offset + q.limit).map((t) => t.id);
  const records = ids.length ? await repo.getTransactions(ids) : [];
  return { totalCount: all.length, data: records.filter((t) => t.organizationId === organizationId).map(transactionView) };
}
