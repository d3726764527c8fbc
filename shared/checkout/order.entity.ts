/**
 * An order: its own partition `ORDER#<id>` / `ORDER` (buyer checkout reads an order by id alone; the record's
 * `merchantId` is checked on every merchant read), written once and never updated.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { payableOrder } from '../platform/db/payment-locks.ts';
import { type Order, orderStatuses } from './orders.rules.ts';

/** An order of the merchant API: its own partition, read by id (the record's `merchantId` is checked); a payable of its own. */
export const order = payableOrder;

export const OrderEntity = entity<Order, { id: string }>({
  kind: 'order',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    status: v.picklist(orderStatuses),
    currency: v.string(),
    lines: v.array(
      v.object({
        type: v.picklist(['plan', 'custom']),
        planId: orNull(v.string()),
        description: v.string(),
        quantity: v.number(),
        unitAmount: v.number(),
        amount: v.number(),
      }),
    ),
    subtotal: v.number(),
    total: v.number(),
    customerEmail: orNull(v.string()),
    idempotencyKey: orNull(v.string()),
    createdAt: v.string(),
    paidAt: orNull(v.string()),
    transactionId: orNull(v.string()),
    invoiceId: v.optional(v.string()),
    includedTaxMinor: v.optional(v.number()),
  }),
  key: (o) => order(o.id),
});
