/**
 * Plans: the prices a product is sold at. Pure rules only (no I/O): the pricing formulas, the recurring
 * interval and trial limits, which intervals a product's type needs, the currency sign, and the revision rule.
 *
 * - A plan of a `recurring` product must have a `recurringInterval`; a plan of a `one-time` product must not,
 *   and cannot have a `trial` (nor be `isTrialOnly`). An `isTrialOnly` plan needs a `trial`.
 * - Intervals are at most three years (1095 days, 156 weeks, 36 months, 3 years); trials at most two years.
 * - A plan's `currency` and `productId` never change; every update adds one to its `revision` (starting at 1).
 */
import { BadRequestError } from '../domain/errors.ts';

/**
 * How a plan's price becomes an amount due. `fixed-fee`: `price × quantity`. New formulas (tiered, volume,
 * per-unit with a base) are added here; each plan stores its formula, so existing plans keep theirs.
 */
export const pricingFormulas = ['fixed-fee'] as const;
export type PricingFormula = (typeof pricingFormulas)[number];

export const intervalUnits = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof intervalUnits)[number];

/** When a period is charged: `prepaid` at its start. (`postpaid`, at its end, would be added here.) */
export const billingTimings = ['prepaid'] as const;
export type BillingTiming = (typeof billingTimings)[number];

/**
 * Where billing periods start. `day-of-month`: on `day` (1–31; the month's last day when it is shorter) of a
 * month, for `month` and `year` intervals. `day-of-week`: on ISO weekday `day` (1 Monday … 7 Sunday), for
 * `week` intervals. `time` is the UTC time of day, `HH:MM`.
 */
export const anchorMethods = ['day-of-month', 'day-of-week'] as const;
export type AnchorMethod = (typeof anchorMethods)[number];

export const productTypes = ['one-time', 'recurring'] as const;
export type ProductType = (typeof productTypes)[number];

/** Longest recurring interval per unit: three years. */
export const maxIntervalLength: Readonly<Record<IntervalUnit, number>> = { day: 1095, week: 156, month: 36, year: 3 };
/** Longest trial per unit: two years. */
export const maxTrialLength: Readonly<Record<IntervalUnit, number>> = { day: 730, week: 104, month: 24, year: 2 };

export const anchorDayRange: Readonly<Record<AnchorMethod, readonly [number, number]>> = {
  'day-of-month': [1, 31],
  'day-of-week': [1, 7],
};
const anchorUnits: Readonly<Record<AnchorMethod, readonly IntervalUnit[]>> = {
  'day-of-month': ['month', 'year'],
  'day-of-week': ['week'],
};

/** Plan ids: `plan_` and 32 lowercase hex digits (128 random bits: buyer checkout reads a plan by its id alone). */
export const PLAN_ID_PATTERN = /^plan_[0-9a-f]{32}$/;
/** Product ids: `prod_` and 32 lowercase hex digits. */
export const PRODUCT_ID_PATTERN = /^prod_[0-9a-f]{32}$/;
/** Promo code ids: `promo_` and 32 lowercase hex digits. */
export const PROMO_CODE_ID_PATTERN = /^promo_[0-9a-f]{32}$/;

/**
 * A percent off of all of a price, in hundredths of a percent. Such a promo code takes every purchase of a plan sold
 * once without a setup fee to nothing, whatever its quantity, and checkout cannot take a payment of nothing for a
 * purchase made once (a recurring plan's first period may be free: it starts a subscription), so it may not list such
 * a plan. An amount off can leave something to pay at a larger quantity: checkout alone refuses it where it does not.
 */
export const ALL_OFF_BASIS_POINTS = 10_000;

export const PLAN_NAME_MAX = 255;
export const PLAN_DESCRIPTION_MAX = 1000;
export const PLAN_RICH_DESCRIPTION_MAX = 20_000;
export const PRODUCT_OPTIONS_MAX = 50;
export const PRODUCT_OPTION_VALUE_MAX = 255;

export interface PeriodAnchorInstruction {
  method: AnchorMethod;
  day: number;
  time: string;
}

export interface RecurringInterval {
  unit: IntervalUnit;
  length: number;
  billingTiming: BillingTiming;
  periodAnchorInstruction: PeriodAnchorInstruction | null;
}

export interface Trial {
  unit: IntervalUnit;
  length: number;
}

/** The parts of a plan whose validity depends on its product's type. */
export interface PlanShape {
  recurringInterval: RecurringInterval | null;
  trial: Trial | null;
  isTrialOnly: boolean;
}

/** One field's problem, as the 400 names it. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The problems of `shape` on a product of `productType` (empty when it is fine). */
export function planShapeIssues(productType: ProductType, shape: PlanShape): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (productType === 'recurring' && !shape.recurringInterval) {
    issues.push({ field: 'recurringInterval', message: 'is required for a plan of a recurring product' });
  }
  if (productType === 'one-time') {
    if (shape.recurringInterval) issues.push({ field: 'recurringInterval', message: 'is not allowed for a plan of a one-time product' });
    if (shape.trial) issues.push({ field: 'trial', message: 'is not allowed for a plan of a one-time product' });
  }
  if (shape.isTrialOnly && !shape.trial) issues.push({ field: 'isTrialOnly', message: 'needs a trial' });
  const anchor = shape.recurringInterval?.periodAnchorInstruction;
  if (anchor && !anchorUnits[anchor.method].includes(shape.recurringInterval!.unit)) {
    issues.push({
      field: 'recurringInterval.periodAnchorInstruction.method',
      message: `${anchor.method} needs a ${anchorUnits[anchor.method].join(' or ')} interval`,
    });
  }
  return issues;
}

/** Throws the 400 `plan.invalid_for_product` when `shape` does not fit a product of `productType`. */
export function assertPlanShape(productType: ProductType, shape: PlanShape): void {
  const issues = planShapeIssues(productType, shape);
  if (issues.length) {
    throw new BadRequestError('plan.invalid_for_product', `${issues[0]!.field}: ${issues[0]!.message}`, { issues });
  }
}

/** Keys of `productOptions` that are not among the product's `options`. */
export const unknownProductOptions = (productOptions: Record<string, unknown>, options: readonly string[]): string[] =>
  Object.keys(productOptions).filter((k) => !options.includes(k));

/** The currency's narrow symbol as buyers see it (`$` for USD, `€` for EUR, `¥` for JPY; the code when it has none). */
export function currencySign(currency: string): string {
  const part = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0)
    .find((p) => p.type === 'currency');
  return part?.value ?? currency;
}

/** The revision after an update of a plan at `revision`. */
export const nextRevision = (revision: number): number => revision + 1;
