/**
 * Pricing shared by checkout's quotes and confirms: the billing address (as a session keeps it), the merchant's
 * promo code checked for the plan, and lines taxed for the billing address.
 */
import { type Plan, findPromoCodeId, findPromoCode, type PromoCode } from '../catalog/index.ts';
import { promoRefusal, promoRefusalError, type QuoteLine } from './checkout.rules.ts';
import { taxPort } from '../domain/tax.ts';

export interface BillingAddressInput {
  country: string;
  state?: string | null | undefined;
  postalCode?: string | null | undefined;
}

export const addressOf = (a: BillingAddressInput) => ({ country: a.country.toUpperCase(), state: a.state ?? null, postalCode: a.postalCode ?? null });

/** The merchant's promo code `code` (any case), or null. */
export async function findPromo(merchantId: string, code: string): Promise<PromoCode | null> {
  const id = await findPromoCodeId(merchantId, code);
  return id ? findPromoCode(merchantId, id) : null;
}

/** `promo` checked for the plan (422 `checkout.promo_code_*` when it cannot be used). */
export function usablePromo(promo: PromoCode | null, plan: Plan, now: string): PromoCode {
  const refusal = promoRefusal(promo, plan.id, plan.currency, now);
  if (refusal) throw promoRefusalError(refusal);
  return promo!;
}

interface Taxed {
  lines: Array<QuoteLine & { tax: number | null }>;
  subtotal: number;
  discount: number;
  tax: number | null;
  subtotalDueToday: number;
  taxDueToday: number | null;
  /** The rate every line was taxed at (an exact decimal); null: no tax asked for, or the tax was calculated elsewhere. */
  rate: string | null;
}

/** `lines` (minor units) with their tax for `address` (null: no tax asked for): taxed on the discounted amounts. */
export function taxLines(lines: readonly QuoteLine[], currency: string, address: BillingAddressInput | null, at: Date): Taxed {
  const quote = address ? taxPort.quote({ lines: lines.map((l) => ({ amountMinor: l.amount - l.discount, quantity: 1 })), currency, address, at }) : null;
  const taxed = lines.map((l, i) => ({ ...l, tax: quote ? quote.lines[i]!.taxMinor : null }));
  const sum = (f: (l: (typeof taxed)[number]) => number) => taxed.reduce((n, l) => n + f(l), 0);
  const today = taxed.filter((l) => l.dueToday);
  return {
    lines: taxed,
    subtotal: sum((l) => l.amount),
    discount: sum((l) => l.discount),
    tax: quote ? sum((l) => l.tax!) : null,
    subtotalDueToday: today.reduce((n, l) => n + l.amount - l.discount, 0),
    taxDueToday: quote ? today.reduce((n, l) => n + l.tax!, 0) : null,
    rate: quote?.rate ?? null,
  };
}

/** Lines whose tax was calculated elsewhere (an invoice's): `tax` is their total tax, all due today. */
export function withIncludedTax(lines: readonly QuoteLine[], tax: number): Taxed {
  const subtotal = lines.reduce((n, l) => n + l.amount, 0);
  return { lines: lines.map((l) => ({ ...l, tax: null })), subtotal, discount: 0, tax, subtotalDueToday: subtotal, taxDueToday: tax, rate: null };
}
