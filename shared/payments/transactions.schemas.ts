/**
 * Transactions (organization face): the body of `POST /api/transactions`, the transaction record, and the
 * query of the transaction list.
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/card-data.ts';
import { MAX_CHARGE_AMOUNT } from '../domain/money.ts';
import { paymentMethods } from '../domain/payment-methods.ts';
import { combinedStatuses, PAID_STATUSES, paymentTypes, TRANSACTION_IDEMPOTENCY_KEY_MAX, TRANSACTION_SORTS } from './transactions.rules.ts';
import { email, isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import {
  amountFitsCurrency,
  currency,
  listEnvelope,
  majorAmountUpTo,
  objectEnvelope,
  pagingQuery,
  queryBoolean,
  queryList,
} from '../platform/http/schemas/organization.ts';

/** Field limits of a transaction request (characters). `idempotencyKey` is the spec's; the others the platform's. */
export const TRANSACTION_LIMITS = {
  idempotencyKey: TRANSACTION_IDEMPOTENCY_KEY_MAX,
  description: 255,
  /** Ids in the body, as the spec limits `customerId` and `paymentInstrumentId` elsewhere. */
  id: 50,
  firstName: 45,
  lastName: 45,
  search: 255,
  /** Most values of a list filter in one query. */
  paymentMethods: 100,
} as const;
const L = TRANSACTION_LIMITS;

const text = (max: number) => v.pipe(v.string(), v.maxCodePoints(max, `must be at most ${max} characters`));
const requiredText = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const trimmedName = (max: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));

/**
 * `POST /api/transactions`: charge a card once.
 * - `idempotencyKey` (required, 1..100): a repeat with the same key answers the first result.
 * - `organizationId`: required when the calling account is linked to more than one organization.
 * - `amount` (major units, more than 0 and at most `MAX_CHARGE_AMOUNT`, at most the currency's decimals) and `currency`.
 * - the payer: `customerId`, or `customer` {email, firstName?, lastName?} to make a new customer, or neither
 *   (the instrument's customer, or none when paying with a token).
 * - what pays: `paymentInstrumentId` or `token` (a card token, used up by the payment), exactly one.
 * - `billingAddress` {country, region?, zip?}: where the buyer is, for the tax `amount` includes; absent, the
 *   instrument's billing address, else the customer's address (422 `transaction.billing_address_required` when none).
 */
export const createTransactionRequest = named(
  'CreateTransactionRequest',
  v.pipe(
    v.strictObject({
      idempotencyKey: requiredText(L.idempotencyKey),
      organizationId: v.optional(uuid),
      amount: v.pipe(majorAmountUpTo(MAX_CHARGE_AMOUNT), v.gtValue(0, 'must be more than 0')),
      currency,
      description: v.optional(v.nullable(text(L.description))),
      customerId: v.optional(requiredText(L.id)),
      customer: v.optional(
        v.strictObject({
          email,
          firstName: v.optional(v.nullable(trimmedName(L.firstName))),
          lastName: v.optional(v.nullable(trimmedName(L.lastName))),
        }),
      ),
      paymentInstrumentId: v.optional(requiredText(L.id)),
      token: v.optional(requiredText(L.id)),
      billingAddress: v.optional(
        v.strictObject({
          country: v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'), v.toUpperCase()),
          region: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxCodePoints(10, 'must be at most 10 characters')))),
          zip: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxCodePoints(20, 'must be at most 20 characters')))),
        }),
      ),
    }),
    amountFitsCurrency('amount', 'currency'),
    v.forward(
      v.check((o) => o.customerId === undefined || o.customer === undefined, 'cannot be given with customerId'),
      ['customer'],
    ),
    v.forward(
      v.check((o) => o.paymentInstrumentId !== undefined || o.token !== undefined, 'is required unless a token is given'),
      ['paymentInstrumentId'],
    ),
    v.forward(
      v.check((o) => o.paymentInstrumentId === undefined || o.token === undefined, 'cannot be given with paymentInstrumentId'),
      ['token'],
    ),
  ),
);

const declineReason = named('TransactionDeclineReason', v.strictObject({ code: v.string(), message: v.string() }));

/** The status of a payment that was captured: `completed`, then `partially-refunded` or `refunded` as refunds give it back. */
export const paidStatus = v.picklist(PAID_STATUSES);

/** The card a transaction charged (the payment instrument record's names). */
const transactionCard = v.strictObject({
  brand: v.picklist(cardBrands),
  creditCardLastFourDigits: v.pipe(v.string(), v.regex(/^\d{4}$/)),
  expireMonth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
  expireYear: v.pipe(v.number(), v.integer()),
});

export const transaction = named(
  'Transaction',
  v.strictObject({
    id: v.pipe(uuid, v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7/, 'must be a UUID v7')),
    organizationId: uuid,
    status: v.picklist(combinedStatuses),
    amount: v.pipe(v.number(), v.finite(), v.gtValue(0)),
    currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    /** The tax within `amount` that the platform owes as merchant of record (0 where none is due). */
    tax: v.pipe(v.number(), v.finite(), v.minValue(0)),
    description: v.nullable(v.string()),
    customerId: v.nullable(v.string()),
    customerName: v.nullable(v.string()),
    paymentInstrumentId: v.nullable(v.string()),
    paymentMethod: v.picklist(paymentMethods),
    paymentType: v.picklist(paymentTypes),
    gatewayName: v.string(),
    creditCard: v.nullable(transactionCard),
    externalTransactionId: v.nullable(v.string()),
    declineReason: v.nullable(declineReason),
    orderId: v.nullable(v.string()),
    subscriptionId: v.nullable(v.string()),
    idempotencyKey: v.string(),
    isTestData: v.boolean(),
    processedAt: nullableIsoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const transactionResponse = objectEnvelope('TransactionResponse', transaction);
export const transactionListResponse = listEnvelope('TransactionListResponse', transaction);

/** The organization face's transaction list query (see docs/reference-payments.md, "Transactions", for every filter and sort). */
export const listTransactionsQuery = v.strictObject({
  ...pagingQuery,
  sortBy: v.optional(v.picklist(TRANSACTION_SORTS, `must be one of ${TRANSACTION_SORTS.join(', ')}`), 'createdAt'),
  combinedStatuses: v.optional(queryList(v.picklist(combinedStatuses, 'must be a CombinedStatus value such as completed'), combinedStatuses.length)),
  paymentMethods: v.optional(queryList(v.picklist(paymentMethods, 'must be a PaymentMethodEnum value such as payment-card'), L.paymentMethods)),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(L.search))),
  showTestData: v.optional(queryBoolean, 'true'),
  subscriptionId: v.optional(requiredText(L.id)),
});
