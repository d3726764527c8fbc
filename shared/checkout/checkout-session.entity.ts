/**
 * A plan checkout session (`CHECKOUTSESSION#<id>` / `CHECKOUTSESSION`): what a buyer started paying — the plan, the
 * e-mail, the quantity, the billing address — until it expires or is paid. DynamoDB's TTL (`ttl`) removes it a day
 * after it expired unpaid.
 */
import * as v from 'valibot';
import { payableSession } from '../platform/db/payment-locks.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { withoutNulls } from '../platform/db/items.ts';

export interface CheckoutSession {
  id: string;
  merchantId: string;
  planId: string;
  status: 'open' | 'paid';
  email: string;
  quantity: number;
  billingAddress: { country: string; state: string | null; postalCode: string | null };
  currency: string;
  expiresAt: string;
  createdAt: string;
  paidAt: string | null;
  transactionId: string | null;
  /** The plan's terms the buyer was shown (`planTerms`); absent on a session from before they were kept. */
  terms?: string | undefined;
}

const DAY_SECONDS = 86_400;

/** A plan checkout session: its own partition, read by id (`cs_…`, unguessable); a payable of its own. */
export const checkoutSession = payableSession;

export const CheckoutSessionEntity = entity<CheckoutSession, { id: string }>({
  kind: 'checkoutSession',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    planId: v.string(),
    status: v.picklist(['open', 'paid']),
    email: v.string(),
    quantity: v.number(),
    billingAddress: v.object({ country: v.string(), state: orNull(v.string()), postalCode: orNull(v.string()) }),
    currency: v.string(),
    expiresAt: v.string(),
    createdAt: v.string(),
    paidAt: orNull(v.string()),
    transactionId: orNull(v.string()),
    terms: v.optional(v.string()),
  }),
  key: (s) => checkoutSession(s.id),
  // The address is stored without its nulls too.
  attributes: (s) => ({ billingAddress: withoutNulls(s.billingAddress), ttl: Math.ceil(Date.parse(s.expiresAt) / 1000) + DAY_SECONDS }),
});
