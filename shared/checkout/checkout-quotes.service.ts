/**
 * Promo-code quotes of a plan, for the public buyer checkout and the merchant API's twin: what the first charge
 * would be with the code applied (and taxed when a billing address is sent); the code is redeemed only by confirm.
 */
import type { PromoCode } from '../catalog/index.ts';
import { applyPromo, nothingDueToday, planLines } from './checkout.rules.ts';
import { toMajorUnits } from '../domain/money.ts';
import { purchasablePlan } from './checkout.service.ts';
import { findPromo, taxLines, usablePromo, type BillingAddressInput } from './checkout-pricing.service.ts';

const promoTermsView = (p: PromoCode) => ({
  code: p.code,
  percentOff: p.percentOffBasisPoints === null ? null : p.percentOffBasisPoints / 100,
  amountOff: p.amountOff === null || p.currency === null ? null : toMajorUnits(p.amountOff, p.currency),
});

export interface PromoQuoteInput {
  code: string;
  quantity: number;
  billingAddress?: BillingAddressInput | undefined;
}

/**
 * `POST /checkout/plans/{planId}/promo-codes`: the plan's first charge with the promo code applied — and taxed
 * when a billing address is sent. No charge and no redemption: the code is redeemed by confirm.
 */
export async function quotePlanPromoCode(planId: string, input: PromoQuoteInput, merchantId?: string, now = new Date()) {
  const { plan, merchant } = await purchasablePlan(planId, merchantId);
  const promo = usablePromo(await findPromo(merchant.id, input.code), plan, now.toISOString());
  const t = taxLines(applyPromo(planLines(plan, input.quantity), promo), plan.currency, input.billingAddress ?? null, now);
  // A plan sold once that the code takes to nothing could not be paid (the confirm has nothing to charge): the code is
  // refused here, as the confirm would, rather than quoted as a price the buyer cannot pay.
  if (!plan.recurringInterval && t.subtotalDueToday <= 0) throw nothingDueToday();
  const major = (minor: number) => toMajorUnits(minor, plan.currency);
  const majorOrNull = (minor: number | null) => (minor === null ? null : major(minor));
  return {
    promoCode: promoTermsView(promo),
    currency: plan.currency,
    lines: t.lines.map((l) => ({
      type: l.type,
      description: l.description,
      quantity: l.quantity,
      unitAmount: major(l.unitAmount),
      amount: major(l.amount),
      discount: major(l.discount),
      tax: majorOrNull(l.tax),
      dueToday: l.dueToday,
    })),
    subtotal: major(t.subtotal),
    discount: major(t.discount),
    tax: majorOrNull(t.tax),
    total: t.tax === null ? null : major(t.subtotal - t.discount + t.tax),
    subtotalDueToday: major(t.subtotalDueToday),
    taxDueToday: majorOrNull(t.taxDueToday),
    amountDueToday: t.taxDueToday === null ? null : major(t.subtotalDueToday + t.taxDueToday),
  };
}
