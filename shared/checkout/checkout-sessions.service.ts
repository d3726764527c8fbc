/**
 * Checkout sessions of a plan, for the public buyer checkout and the merchant API's twin: what the buyer is about
 * to pay (confirmed by checkout-confirms.ts) and the client token for the hosted fields.
 */
import type { CheckoutSession } from './checkout-session.entity.ts';
import * as sessions from './checkout-sessions.repository.ts';
import { CHECKOUT_SESSION_MINUTES, newCheckoutSessionId, planTerms } from './checkout.rules.ts';
import { purchasablePlan, type CheckoutContext } from './checkout.service.ts';
import { addressOf, type BillingAddressInput } from './checkout-pricing.service.ts';
import { HOSTED_FIELDS_SDK_PATH, mintClientToken } from '../customers/index.ts';

export interface SessionInput {
  email: string;
  quantity: number;
  billingAddress: BillingAddressInput;
}

const sessionView = (s: CheckoutSession, token: { clientToken: string; expiresAt: string }, ctx: CheckoutContext) => ({
  sessionId: s.id,
  planId: s.planId,
  status: s.status,
  email: s.email,
  quantity: s.quantity,
  billingAddress: s.billingAddress,
  currency: s.currency,
  expiresAt: s.expiresAt,
  clientToken: token.clientToken,
  clientTokenExpiresAt: token.expiresAt,
  hostedFields: { sdkUrl: `${ctx.origin}${HOSTED_FIELDS_SDK_PATH}`, mountFunction: 'MorHostedFields.mount' as const },
});

/**
 * `POST /checkout/plans/{planId}/session` (and the merchant API's twin, `merchantId`): a session of the plan for
 * the buyer, confirmable for CHECKOUT_SESSION_MINUTES, and a client token for the hosted fields (bound to the
 * page's origin when it sent one).
 */
export async function createPlanSession(planId: string, input: SessionInput, ctx: CheckoutContext, merchantId?: string, now = new Date()) {
  const { plan, merchant } = await purchasablePlan(planId, merchantId);
  const session: CheckoutSession = {
    id: newCheckoutSessionId(),
    merchantId: merchant.id,
    planId: plan.id,
    status: 'open',
    email: input.email,
    quantity: input.quantity,
    billingAddress: addressOf(input.billingAddress),
    currency: plan.currency,
    expiresAt: new Date(now.getTime() + CHECKOUT_SESSION_MINUTES * 60_000).toISOString(),
    createdAt: now.toISOString(),
    paidAt: null,
    transactionId: null,
    terms: planTerms(plan, input.quantity),
  };
  const [, token] = await Promise.all([sessions.putNewCheckoutSession(session), mintClientToken(merchant.id, { allowedOrigin: ctx.pageOrigin }, now)]);
  return sessionView(session, token, ctx);
}
