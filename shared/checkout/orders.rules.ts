/**
 * Orders: what a buyer pays at `/checkout/orders/{orderId}`. Pure rules only (no I/O).
 *
 * - An order is immutable once created: its lines, currency and totals never change (no update route; the
 *   record is written on the condition that its id is new).
 * - A line is a plan of the merchant (its current price, in the order's currency, active) or a custom line with a
 *   description and a unit amount. `amount = unitAmount × quantity`; `subtotal` and `total` are the sum of the
 *   lines' amounts. Every amount is integer minor units inside the platform; no rounding is ever needed.
 * - The total is at most `ORDER_LIMITS.maxTotal` major units of the order's currency (the spec's order amount
 *   limit) and more than zero.
 * - An `Idempotency-Key` (shared/domain/idempotency.ts) is scoped to the merchant.
 */
import { randomBytes } from 'node:crypto';
import { UnprocessableError } from '../domain/errors.ts';
import { toMajorUnits } from '../domain/money.ts';

export const ORDER_LIMITS = {
  lines: 100,
  quantity: 10_000,
  description: 255,
  /** Major units of the order's currency (the spec's order amount limit). */
  maxTotal: 100_000,
} as const;

/** The operation order idempotency keys belong to (keys of other operations never meet them). */
export const ORDER_IDEMPOTENCY_OPERATION = 'orders';

/** `open` until a checkout confirm pays it (once), then `paid`: the only change an order ever sees. */
export const orderStatuses = ['open', 'paid'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * An order as the buyer checkout shows it: also `closed` while open when it can no longer be paid (the customer
 * invoice it pays was voided or marked uncollectible).
 */
export const checkoutOrderStatuses = [...orderStatuses, 'closed'] as const;

export interface OrderLine {
  type: 'plan' | 'custom';
  /** The plan of a `plan` line; null for a custom line. */
  planId: string | null;
  /** The plan's name when the order was made, or the custom line's description. */
  description: string;
  quantity: number;
  /** Minor units. */
  unitAmount: number;
  /** Minor units: `unitAmount × quantity`. */
  amount: number;
}

export interface Order {
  id: string;
  merchantId: string;
  status: OrderStatus;
  currency: string;
  lines: OrderLine[];
  /** Minor units. */
  subtotal: number;
  /** Minor units. */
  total: number;
  customerEmail: string | null;
  /** The `Idempotency-Key` the order was created with, or null. */
  idempotencyKey: string | null;
  createdAt: string;
  /** When a checkout paid it, and the transaction that did; null while open. */
  paidAt: string | null;
  transactionId: string | null;
  /** The customer invoice this order pays (checkout by invoice made it), when it pays one. */
  invoiceId?: string;
  /**
   * Minor units of tax the invoice already calculated (`total = subtotal + includedTaxMinor`): checkout charges
   * the total as it is, without taxing it again. Only on orders that pay an invoice.
   */
  includedTaxMinor?: number;
  /** The customer invoice it pays was voided or marked uncollectible: its payment lock is taken for good (as read). */
  closed?: true;
}

/** `ord_` and 32 random hex digits (128 bits): unguessable, as the buyer's checkout URL carries it. */
export const newOrderId = (): string => `ord_${randomBytes(16).toString('hex')}`;

export const ORDER_ID_PATTERN = /^ord_[0-9a-f]{32}$/;
export const isOrderId = (id: string): boolean => ORDER_ID_PATTERN.test(id);

/** A line's amount, with its unit amount and quantity in minor units. */
export function priceLine(line: Omit<OrderLine, 'amount'>): OrderLine {
  return { ...line, amount: line.unitAmount * line.quantity };
}

/** The order's lines as both faces show them: amounts in the currency's major units. */
export const linesInMajorUnits = (o: Pick<Order, 'lines' | 'currency'>) =>
  o.lines.map((l) => ({
    type: l.type,
    planId: l.planId,
    description: l.description,
    quantity: l.quantity,
    unitAmount: toMajorUnits(l.unitAmount, o.currency),
    amount: toMajorUnits(l.amount, o.currency),
  }));

/** The order's totals; 422 when the total is zero or above the limit. */
export function totalsOf(lines: readonly OrderLine[], currency: string): { subtotal: number; total: number } {
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  if (subtotal <= 0) throw new UnprocessableError('order.total_not_positive', 'The order total must be more than zero.');
  if (!Number.isSafeInteger(subtotal) || toMajorUnits(subtotal, currency) > ORDER_LIMITS.maxTotal) {
    throw new UnprocessableError('order.amount_over_limit', `The order total must be at most ${ORDER_LIMITS.maxTotal} ${currency}.`, {
      maxTotal: ORDER_LIMITS.maxTotal,
    });
  }
  return { subtotal, total: subtotal };
}
