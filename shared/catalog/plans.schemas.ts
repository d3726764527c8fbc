/**
 * Plans (organization face). Prices are major-unit JSON numbers checked against the plan currency's ISO 4217
 * exponent; `currencySign` and `revision` are the platform's, never the caller's.
 */
import * as v from 'valibot';
import {
  anchorDayRange,
  anchorMethods,
  billingTimings,
  intervalUnits,
  maxIntervalLength,
  maxTrialLength,
  PLAN_DESCRIPTION_MAX,
  PLAN_NAME_MAX,
  PLAN_RICH_DESCRIPTION_MAX,
  pricingFormulas,
  PRODUCT_OPTION_VALUE_MAX,
  PRODUCT_OPTIONS_MAX,
  type AnchorMethod,
  type IntervalUnit,
} from './plans.rules.ts';
import { currencyCodes, toMinorUnits } from '../domain/money.ts';
import { httpsUrl, isoTime, uuid } from '../platform/http/schemas/common.ts';
import { planId, productId } from './ids.schemas.ts';
import { customFieldValues, customFieldValuesView } from '../organizations/custom-fields.schemas.ts';
import { named } from '../platform/http/schemas/named.ts';
import { currency, listEnvelope, majorAmountUpTo, objectEnvelope, catalogListQueryFields } from '../platform/http/schemas/organization.ts';

/** Largest price or setup fee, in major units. */
export const MAX_PLAN_AMOUNT = 10_000_000_000;

const text = (max: number) => v.pipe(v.string(), v.maxCodePoints(max, `must be at most ${max} characters`));
const requiredText = (max: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const positiveInt = v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'));
const unit = v.picklist(intervalUnits, `must be one of: ${intervalUnits.join(', ')}`);

/** A major-unit price: not negative, at most MAX_PLAN_AMOUNT; its decimals are checked against the plan's currency. */
export const planAmount = majorAmountUpTo(MAX_PLAN_AMOUNT);

const formula = v.picklist(pricingFormulas, `must be one of: ${pricingFormulas.join(', ')}`);

/** A check of the whole object whose issue is reported on the field at `path`. */
// biome-ignore lint/suspicious/noExplicitAny: the check reads whatever object the schema it is piped into produced
export const checkAt = (path: readonly string[], ok: (o: any) => boolean, message: string) => v.forward(v.check<any, string>(ok, message), path as never);

/** `updatedTo` must not be before `updatedFrom` (list queries). */
export const updatedRangeInOrder = checkAt(
  ['updatedTo'],
  (o: { updatedFrom?: string; updatedTo?: string }) => !o.updatedFrom || !o.updatedTo || o.updatedFrom <= o.updatedTo,
  'must not be before updatedFrom',
);

/** `length` must not exceed the unit's maximum (`limits`); the issue is reported on `length`. */
const lengthWithin = (limits: Readonly<Record<IntervalUnit, number>>, what: string) =>
  checkAt(
    ['length'],
    (o: { unit: IntervalUnit; length: number }) => o.length <= limits[o.unit],
    `is longer than ${what} allows (at most ${Object.entries(limits)
      .map(([u, n]) => `${n} ${u}s`)
      .join(', ')})`,
  );

const periodAnchorInstruction = v.pipe(
  v.strictObject({
    method: v.picklist(anchorMethods, `must be one of: ${anchorMethods.join(', ')}`),
    day: positiveInt,
    time: v.optional(v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a UTC time of day as HH:MM')), '00:00'),
  }),
  checkAt(
    ['day'],
    (o: { method: AnchorMethod; day: number }) => o.day >= anchorDayRange[o.method][0] && o.day <= anchorDayRange[o.method][1],
    'is out of range for the method (day-of-month 1–31, day-of-week 1–7)',
  ),
);

/** `{unit, length, billingTiming (default prepaid), periodAnchorInstruction (optional)}`; at most three years. */
export const recurringIntervalInput = v.pipe(
  v.strictObject({
    unit,
    length: positiveInt,
    billingTiming: v.optional(v.picklist(billingTimings, `must be one of: ${billingTimings.join(', ')}`), 'prepaid'),
    periodAnchorInstruction: v.optional(v.nullable(periodAnchorInstruction), null),
  }),
  lengthWithin(maxIntervalLength, 'an interval'),
);

/** `{unit, length}`; at most two years. */
export const trialInput = v.pipe(v.strictObject({ unit, length: positiveInt }), lengthWithin(maxTrialLength, 'a trial'));

const setupInput = v.strictObject({
  price: planAmount,
  approvalLink: v.optional(v.nullable(httpsUrl), null),
});

const productOptionValue = v.union(
  [v.pipe(v.string(), v.maxCodePoints(PRODUCT_OPTION_VALUE_MAX)), v.pipe(v.number(), v.finite()), v.boolean()],
  'must be a string, number or boolean',
);
const productOptions = v.pipe(
  v.record(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(100)), productOptionValue),
  v.check((o) => Object.keys(o).length <= PRODUCT_OPTIONS_MAX, `must have at most ${PRODUCT_OPTIONS_MAX} entries`),
);

/** The major-unit amount at `path` (read by `read`) has no more decimals than the object's `currency` allows. */
const fitsCurrencyAt = <T extends { currency: string }>(path: readonly [string, string], read: (o: T) => unknown) =>
  checkAt(
    path,
    (o: T) => {
      const amount = read(o);
      return typeof amount !== 'number' || !currencyCodes.includes(o.currency) || toMinorUnits(amount, o.currency) !== null;
    },
    'has more decimals than its currency allows',
  );

/** A read-only field: sending it is a 400 naming it. */
const readOnly = (message: string) => v.optional(v.never(message));

export const createPlanRequest = named(
  'CreatePlanRequest',
  v.pipe(
    v.strictObject({
      name: requiredText(PLAN_NAME_MAX),
      currency,
      productId,
      pricing: v.strictObject({ price: planAmount, formula }),
      description: v.optional(v.nullable(text(PLAN_DESCRIPTION_MAX)), null),
      richDescription: v.optional(v.nullable(text(PLAN_RICH_DESCRIPTION_MAX)), null),
      productOptions: v.optional(productOptions, {}),
      setup: v.optional(v.nullable(setupInput), null),
      recurringInterval: v.optional(v.nullable(recurringIntervalInput), null),
      trial: v.optional(v.nullable(trialInput), null),
      isActive: v.optional(v.boolean(), true),
      isTrialOnly: v.optional(v.boolean(), false),
      customFields: v.optional(customFieldValues),
      currencySign: readOnly('is derived from currency and cannot be set'),
      revision: readOnly('is kept by the platform and cannot be set'),
    }),
    fitsCurrencyAt(['pricing', 'price'], (o: { currency: string; pricing: { price: number } }) => o.pricing.price),
    fitsCurrencyAt(['setup', 'price'], (o: { currency: string; setup: { price: number } | null }) => o.setup?.price),
  ),
);

/**
 * The fields to change (at least one besides `revision`). `revision`, when given, must be the plan's current
 * revision (optimistic concurrency: 409 `plan.revision_conflict` otherwise). `currency` and `productId` never
 * change: sending them is a 400.
 */
export const updatePlanRequest = named(
  'UpdatePlanRequest',
  v.pipe(
    v.strictObject({
      name: v.optional(requiredText(PLAN_NAME_MAX)),
      pricing: v.optional(
        v.pipe(
          v.strictObject({ price: v.optional(planAmount), formula: v.optional(formula) }),
          v.check((o) => o.price !== undefined || o.formula !== undefined, 'must change price or formula'),
        ),
      ),
      description: v.optional(v.nullable(text(PLAN_DESCRIPTION_MAX))),
      richDescription: v.optional(v.nullable(text(PLAN_RICH_DESCRIPTION_MAX))),
      productOptions: v.optional(productOptions),
      setup: v.optional(v.nullable(setupInput)),
      recurringInterval: v.optional(v.nullable(recurringIntervalInput)),
      trial: v.optional(v.nullable(trialInput)),
      isActive: v.optional(v.boolean()),
      isTrialOnly: v.optional(v.boolean()),
      customFields: v.optional(customFieldValues),
      revision: v.optional(positiveInt),
      currency: readOnly('never changes: a plan keeps its currency (create another plan to sell in another currency)'),
      productId: readOnly('never changes: a plan stays on its product'),
      currencySign: readOnly('is derived from currency and cannot be set'),
    }),
    v.check((o) => Object.entries(o).some(([k, x]) => k !== 'revision' && x !== undefined), 'must change at least one field'),
  ),
);

const recurringIntervalView = v.strictObject({
  unit,
  length: v.number(),
  billingTiming: v.picklist(billingTimings),
  periodAnchorInstruction: v.nullable(v.strictObject({ method: v.picklist(anchorMethods), day: v.number(), time: v.string() })),
});

export const plan = named(
  'Plan',
  v.strictObject({
    id: planId,
    organizationId: uuid,
    productId,
    name: v.string(),
    currency: v.string(),
    currencySign: v.string(),
    pricing: v.strictObject({ price: v.number(), formula }),
    setup: v.nullable(v.strictObject({ price: v.number(), approvalLink: v.nullable(v.string()) })),
    description: v.nullable(v.string()),
    richDescription: v.nullable(v.string()),
    productOptions: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
    recurringInterval: v.nullable(recurringIntervalView),
    trial: v.nullable(v.strictObject({ unit, length: v.number() })),
    isActive: v.boolean(),
    isTrialOnly: v.boolean(),
    revision: v.pipe(v.number(), v.integer(), v.minValue(1)),
    customFields: customFieldValuesView,
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const planResponse = objectEnvelope('PlanResponse', plan);
export const planListResponse = listEnvelope('PlanListResponse', plan);

/** `limit`, `offset`, `sortDirection`, `sortBy` (createdAt|updatedAt), `search` (in the name), `updatedFrom`, `updatedTo`. */
export const listPlansQuery = v.pipe(v.strictObject(catalogListQueryFields), updatedRangeInOrder);
