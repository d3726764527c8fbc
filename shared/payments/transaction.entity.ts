/**
 * A transaction of an organization (a catalog record: `TRANSACTION#<id>` / `TRANSACTION`, listed through gsi1 by
 * creation and gsi2 by last update under `TRANSACTIONS#<orgId>[#<shard>]`, 8 shards). It keeps the card's brand, last four digits and
 * expiry and the processor's reference of the card — never a card number. `searchText` is a lowercased copy of what
 * a list's search looks in. A customer's are also listed on gsi4 in its own partition, and a subscription's (a payment
 * that names one) on gsi5 in the subscription's. While it is `sending` it is on the unsettled-operations index (gsi3,
 * sparse), which a `pending` refund shares.
 */
import * as v from 'valibot';
import { cardBrands, type CardBrand } from '../domain/card-data.ts';
import { paymentMethods, type PaymentMethod } from '../domain/payment-methods.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogItem, catalogListing, customerListing, shardOf, subscriptionListing } from '../platform/db/keys.ts';
import { combinedStatuses, paymentTypes, type CombinedStatus, type DeclineReason, type PaymentType, type SortableTransaction } from './transactions.rules.ts';

export interface TransactionCard {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * What a checkout payment bought and how its amount was made (minor units): the lines due today, the promo
 * code's discount and the tax. Receipts are drawn from it; null on transactions made through the API.
 */
export interface CheckoutBreakdown {
  /** The plan checkout session paid, or null for an order. */
  sessionId: string | null;
  lines: Array<{ description: string; quantity: number; unitAmountMinor: number; amountMinor: number }>;
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  /**
   * The rate `taxMinor` was computed at, an exact decimal as the tax engine gave it (`"0.19"`), kept so a receipt names
   * it as charged. Absent: a payment made before breakdowns kept it, or an order paying an invoice (its tax, and the
   * rates of its lines, are the invoice's).
   */
  taxRate?: string;
  promoCode: string | null;
  promoCodeId: string | null;
  billingCountry: string;
  /** The customer invoice the paid order settles, or null. */
  invoiceId: string | null;
  /** Where the buyer reads the receipt (fixed when the payment is claimed, so whoever settles it answers the same). */
  receiptUrl: string;
  /**
   * A recurring plan's checkout: the subscription the payment starts, as the subscriptions module fixed it at the
   * claim (opaque here), written by the settlement of a completed payment; null otherwise.
   */
  subscription: object | null;
}

export interface Transaction {
  id: string;
  organizationId: string;
  status: CombinedStatus;
  /** Positive integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  description: string | null;
  customerId: string | null;
  /** The customer's name (or e-mail when it has none) when the transaction was made. */
  customerName: string | null;
  /** The customer's e-mail when the transaction was made: searchable, never shown. */
  customerEmail: string | null;
  paymentInstrumentId: string | null;
  /** The card token paid with, when it was one. */
  tokenId: string | null;
  paymentMethod: PaymentMethod;
  paymentType: PaymentType;
  /** The processor that handled it (e.g. `sandbox`). */
  gatewayName: string;
  card: TransactionCard | null;
  /** The processor's reference of the card charged. Never shown. */
  processorReference: string;
  /** The processor's id of the charge (`pay_…`); null until it answered. */
  externalTransactionId: string | null;
  declineReason: DeclineReason | null;
  subscriptionId: string | null;
  /** The order this payment paid (checkout by order or invoice), or null. */
  orderId: string | null;
  /** The plan this payment bought at checkout, or null. */
  planId: string | null;
  checkout: CheckoutBreakdown | null;
  /**
   * The tax in `amountMinor`, which the platform owes as merchant of record: a subscription charge's (the tax of its
   * invoice); absent: its checkout breakdown's, else none (see `taxInPayment`).
   */
  taxMinor?: number;
  idempotencyKey: string;
  /** Made on the sandbox deployment (an organization in test mode). */
  isTestData: boolean;
  /** When the processor's answer was recorded; null while `sending`. */
  processedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Refunds (shared/payments/refunds.repository.ts): minor units refunded or being refunded (pending refunds reserve theirs); absent: 0. */
  refundedMinor?: number;
  /** Minor units of the refunds that reached `refunded`; absent: 0. */
  refundSettledMinor?: number;
}

/** The tax in a payment's amount that the platform owes (minor units): its own, else its checkout's, else none. */
export const taxInPayment = (t: { taxMinor?: number | undefined; checkout?: { taxMinor?: number } | null }): number => t.taxMinor ?? t.checkout?.taxMinor ?? 0;

/** What `search` looks in: id, description, customer name and e-mail, and the processor's id, lowercased. */
export const searchTextOf = (t: Transaction): string =>
  [t.id, t.description, t.customerName, t.customerEmail, t.externalTransactionId].filter(Boolean).join('\n').toLowerCase();

/**
 * Partitions of the unsettled-operations index (gsi3): every charge and refund writes it twice (claim, settlement),
 * so it is spread like the release index. It may grow and never shrink (the reconciler reads shards 0 to N − 1).
 */
export const UNSETTLED_SHARDS = 8;

/**
 * An operation claimed but not settled yet (a charge `sending`, a refund `pending`), on the sparse gsi3 until its
 * settlement removes it: the reconciler finds the old ones with one Query per shard (`shardOf` the id).
 */
export const unsettled = (operation: 'charge' | 'refund', id: string, createdAt: string) => ({
  gsi3pk: `UNSETTLED#${shardOf(id, UNSETTLED_SHARDS)}`,
  gsi3sk: `${createdAt}#${operation}#${id}`,
});

/** One partition of the unsettled index (`shard` from 0 to `UNSETTLED_SHARDS` − 1). */
export const unsettledOf = (shard: number) => ({ gsi3pk: `UNSETTLED#${shard}` });

const checkoutSchema = v.object({
  sessionId: orNull(v.string()),
  lines: v.array(v.object({ description: v.string(), quantity: v.number(), unitAmountMinor: v.number(), amountMinor: v.number() })),
  subtotalMinor: v.number(),
  discountMinor: v.number(),
  taxMinor: v.number(),
  taxRate: v.optional(v.string()),
  promoCode: orNull(v.string()),
  promoCodeId: orNull(v.string()),
  billingCountry: v.string(),
  invoiceId: orNull(v.string()),
  receiptUrl: v.string(),
  subscription: orNull(v.record(v.string(), v.unknown())),
});

const transactionSchema = v.object({
  id: v.string(),
  organizationId: v.string(),
  status: v.picklist(combinedStatuses),
  amountMinor: v.number(),
  currency: v.string(),
  description: orNull(v.string()),
  customerId: orNull(v.string()),
  customerName: orNull(v.string()),
  customerEmail: orNull(v.string()),
  paymentInstrumentId: orNull(v.string()),
  tokenId: orNull(v.string()),
  paymentMethod: v.picklist(paymentMethods),
  paymentType: v.picklist(paymentTypes),
  gatewayName: v.string(),
  card: orNull(v.object({ brand: v.picklist(cardBrands), last4: v.string(), expMonth: v.number(), expYear: v.number() })),
  processorReference: v.string(),
  externalTransactionId: orNull(v.string()),
  declineReason: orNull(v.object({ code: v.string(), message: v.string() })),
  subscriptionId: orNull(v.string()),
  orderId: orNull(v.string()),
  planId: orNull(v.string()),
  checkout: orNull(checkoutSchema),
  taxMinor: v.optional(v.number()),
  idempotencyKey: v.string(),
  isTestData: v.optional(v.boolean(), false),
  processedAt: orNull(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  refundedMinor: v.optional(v.number()),
  refundSettledMinor: v.optional(v.number()),
});

export const TransactionEntity = entity<Transaction, { id: string }>({
  kind: 'transaction',
  schema: transactionSchema,
  key: (t) => catalogItem('TRANSACTION', t.id),
  attributes: (t) => ({
    ...catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, t.updatedAt),
    ...(t.customerId ? customerListing('TRANSACTION', t.organizationId, t.customerId) : {}),
    ...(t.subscriptionId ? subscriptionListing('TRANSACTION', t.organizationId, t.subscriptionId) : {}),
    searchText: searchTextOf(t),
  }),
});

/** The fields an in-memory sort reads of a transaction item (a projection of them). */
export const sortFieldsSchema: v.GenericSchema<unknown, SortableTransaction> = v.pick(transactionSchema, [
  'id',
  'createdAt',
  'description',
  'customerName',
  'processedAt',
  'paymentType',
  'gatewayName',
]);
