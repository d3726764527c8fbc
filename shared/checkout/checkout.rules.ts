/**
 * Buyer checkout rules (pure, no I/O): what a plan costs today, how a promo code applies to it, how receipt ids
 * are read and how receipt numbers are written.
 *
 * - A plan's first charge is its price × quantity (the `plan` line) and its setup price (the `setup` line). Due
 *   today: the setup price always, the price unless the plan starts with a trial.
 * - A promo code discounts the plan line only when it is due today (never the setup price, nor a trial's first
 *   charge after it), once per checkout: a percent off is
 *   rounded to the minor unit half-even (the platform's one rounding rule), an amount off is at most the line.
 *   Tax is then computed on the discounted amounts (per line, half-even: shared/domain/tax.ts).
 * - A promo code applies when it is active, not expired, not used up, lists the plan (or no plan at all) and, for
 *   an amount off, is in the plan's currency. Each refusal has its own 422 code.
 */
import { randomBytes } from 'node:crypto';
import { UnprocessableError } from '../domain/errors.ts';
import { divideHalfEven } from '../domain/money.ts';
import type { OrderLine } from './orders.rules.ts';

/** How long a plan checkout session can be confirmed. */
export const CHECKOUT_SESSION_MINUTES = 60;

/** `cs_` and 32 random hex digits (128 bits): unguessable, as the buyer's page holds it. */
export const newCheckoutSessionId = (): string => `cs_${randomBytes(16).toString('hex')}`;
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_[0-9a-f]{32}$/;
export const isCheckoutSessionId = (id: string): boolean => CHECKOUT_SESSION_ID_PATTERN.test(id);

export interface QuoteLine {
  type: 'plan' | 'setup' | 'custom';
  description: string;
  quantity: number;
  /** Minor units. */
  unitAmount: number;
  /** Minor units: unitAmount × quantity. */
  amount: number;
  /** Minor units taken off this line by a promo code. */
  discount: number;
  dueToday: boolean;
}

export interface PlanPricing {
  name: string;
  price: number;
  setupPrice: number | null;
  trial: unknown;
}

/** The lines of a plan's first charge (minor units, no discount yet). */
export function planLines(plan: PlanPricing, quantity: number): QuoteLine[] {
  return [
    { type: 'plan', description: plan.name, quantity, unitAmount: plan.price, amount: plan.price * quantity, discount: 0, dueToday: plan.trial === null },
    ...(plan.setupPrice === null
      ? []
      : [
          {
            type: 'setup' as const,
            description: `${plan.name} setup`,
            quantity: 1,
            unitAmount: plan.setupPrice,
            amount: plan.setupPrice,
            discount: 0,
            dueToday: true,
          },
        ]),
  ];
}

/**
 * What a plan's checkout shows the buyer before they pay, as one text: its currency, billing cycle, trial (and whether
 * only a trial), and its lines' kinds, quantities, unit prices and what is due today. A session keeps it, and a
 * confirm refuses a plan whose terms are no longer the ones shown (a price or a cycle changed meanwhile is never
 * charged unseen).
 */
export const planTerms = (plan: PlanPricing & { currency: string; recurringInterval?: unknown; isTrialOnly?: unknown }, quantity: number): string =>
  JSON.stringify([
    plan.currency,
    plan.recurringInterval ?? null,
    plan.trial ?? null,
    plan.isTrialOnly ?? null,
    ...planLines(plan, quantity).map((l) => [l.type, l.quantity, l.unitAmount, l.dueToday]),
  ]);

/** 422 `checkout.nothing_due_today`: a purchase sold once with nothing to charge (a promo code that takes all of it). */
export const nothingDueToday = () =>
  new UnprocessableError('checkout.nothing_due_today', 'Nothing is due today for this purchase, so there is nothing to charge.');

/** The lines of an order's charge: its own lines, all due today (an order takes no promo code). */
export const orderLines = (order: { lines: readonly OrderLine[] }): QuoteLine[] =>
  order.lines.map((l) => ({
    type: l.type,
    description: l.description,
    quantity: l.quantity,
    unitAmount: l.unitAmount,
    amount: l.amount,
    discount: 0,
    dueToday: true,
  }));

/** What checkout needs of a promo code. */
export interface PromoTerms {
  code: string;
  /** Hundredths of a percent (1250 = 12.5 %); null for an amount off. */
  percentOffBasisPoints: number | null;
  /** Minor units of `currency`; null for a percent off. */
  amountOff: number | null;
  currency: string | null;
  planIds: readonly string[];
  expiresAt: string | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  isActive: boolean;
}

export type PromoRefusal = 'not_found' | 'inactive' | 'expired' | 'exhausted' | 'wrong_plan' | 'wrong_currency';

/** Why `promo` cannot be used for the plan `planId` priced in `currency` at `now`, or null when it can. */
export function promoRefusal(promo: PromoTerms | null, planId: string, currency: string, now: string): PromoRefusal | null {
  if (!promo) return 'not_found';
  if (!promo.isActive) return 'inactive';
  if (promo.expiresAt !== null && promo.expiresAt <= now) return 'expired';
  if (promo.maxRedemptions !== null && promo.timesRedeemed >= promo.maxRedemptions) return 'exhausted';
  if (promo.planIds.length > 0 && !promo.planIds.includes(planId)) return 'wrong_plan';
  if (promo.amountOff !== null && promo.currency !== currency) return 'wrong_currency';
  return null;
}

const refusalMessages: Record<PromoRefusal, string> = {
  not_found: 'This promo code does not exist.',
  inactive: 'This promo code is no longer active.',
  expired: 'This promo code has expired.',
  exhausted: 'This promo code has been used as many times as it can be.',
  wrong_plan: 'This promo code does not apply to this plan.',
  wrong_currency: "This promo code is for another currency than this plan's.",
};

/** The 422 of a refusal: `checkout.promo_code_<refusal>`, a message a buyer can be shown as is. */
export const promoRefusalError = (refusal: PromoRefusal): UnprocessableError =>
  new UnprocessableError(`checkout.promo_code_${refusal}`, refusalMessages[refusal]);

/** The discount of `promo` on a line of `amount` minor units. */
export function discountOf(promo: Pick<PromoTerms, 'percentOffBasisPoints' | 'amountOff'>, amount: number): number {
  if (promo.percentOffBasisPoints !== null) return Number(divideHalfEven(BigInt(amount) * BigInt(promo.percentOffBasisPoints), 10_000n));
  return Math.min(promo.amountOff ?? 0, amount);
}

/**
 * `lines` with `promo` applied to the plan line when it is paid today. A code discounts what the checkout charges: not
 * the setup price, and not a plan's first charge after its trial (the subscription charges that at the plan's price).
 */
export function applyPromo(lines: readonly QuoteLine[], promo: Pick<PromoTerms, 'percentOffBasisPoints' | 'amountOff'>): QuoteLine[] {
  return lines.map((l) => (l.type === 'plan' && l.dueToday ? { ...l, discount: discountOf(promo, l.amount) } : l));
}

// Receipts

/** Legacy receipt ids (the processor's `pay_…` charge ids) are refused from this instant on. */
export const LEGACY_RECEIPT_SUNSET = new Date('2027-01-15T00:00:00Z');
/** When the legacy receipt ids were deprecated (RFC 9745's `Deprecation` date). */
export const LEGACY_RECEIPT_DEPRECATED = new Date('2026-10-01T00:00:00Z');

export const isLegacyReceiptId = (id: string): boolean => /^pay_[A-Za-z0-9]{1,64}$/.test(id);

/**
 * A receipt's number as people read it: `R-` and the organization's sequence number, at least six digits
 * (`R-000123`; `R-1234567` past a million). Numbers count per organization from 1.
 */
export function receiptNumberText(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`A receipt number is a whole number from 1, got ${n}`);
  return `R-${String(n).padStart(6, '0')}`;
}

/**
 * The headers of an answer to a legacy receipt id before its sunset: `Deprecation` (RFC 9745: `@` and Unix
 * seconds), `Sunset` (RFC 8594: an HTTP-date) and a `Link` to the preferred URL.
 */
export function legacyReceiptHeaders(preferredUrl: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(LEGACY_RECEIPT_DEPRECATED.getTime() / 1000)}`,
    sunset: LEGACY_RECEIPT_SUNSET.toUTCString(),
    link: `<${preferredUrl}>; rel="successor-version"`,
  };
}

/** Whether a legacy receipt id is still answered at `now` (before 2027-01-15T00:00:00Z). */
export const legacyReceiptsAccepted = (now: Date): boolean => now.getTime() < LEGACY_RECEIPT_SUNSET.getTime();
