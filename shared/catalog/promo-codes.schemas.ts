/**
 * Promo codes (organization face): a code, a discount (`percentOff`, or `amountOff` in `currency`), the plans it
 * applies to, an expiry and a redemption cap.
 */
import * as v from 'valibot';
import { isoTime, uuid } from '../platform/http/schemas/common.ts';
import { planId } from './ids.schemas.ts';
import { PROMO_CODE_ID_PATTERN } from './plans.rules.ts';
import { named } from '../platform/http/schemas/named.ts';
import { toMinorUnits } from '../domain/money.ts';
import { currency, listEnvelope, majorAmount, objectEnvelope, catalogListQueryFields, instantInput } from '../platform/http/schemas/organization.ts';
import { checkAt, updatedRangeInOrder } from './plans.schemas.ts';

export const PROMO_CODE_LIMITS = {
  codeMin: 3,
  codeMax: 40,
  /** Most plans one code can be limited to. */
  planIds: 50,
  maxRedemptions: 1_000_000_000,
  amountOff: 10_000_000_000,
} as const;

export const promoCodeId = v.pipe(v.string(), v.regex(PROMO_CODE_ID_PATTERN));

/** 3–40 characters of A–Z, a–z, 0–9, `-` and `_`; unique per organization regardless of case. */
export const promoCode = v.pipe(
  v.string(),
  v.minLength(PROMO_CODE_LIMITS.codeMin, `must be at least ${PROMO_CODE_LIMITS.codeMin} characters`),
  v.maxCodePoints(PROMO_CODE_LIMITS.codeMax, `must be at most ${PROMO_CODE_LIMITS.codeMax} characters`),
  v.regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters A–Z, digits, - and _'),
);

/** More than 0 and at most 100, with at most two decimals (12.5, 33.33). */
export const percentOff = v.pipe(
  v.number('must be a number'),
  v.finite(),
  v.gtValue(0, 'must be more than 0'),
  v.maxValue(100, 'must be at most 100'),
  v.check((p) => /^\d+(\.\d{1,2})?$/.test(String(p)), 'must have at most two decimals'),
);

const amountOff = v.pipe(
  majorAmount,
  v.gtValue(0, 'must be more than 0'),
  v.maxValue(PROMO_CODE_LIMITS.amountOff, `must be at most ${PROMO_CODE_LIMITS.amountOff}`),
);

/** A future ISO 8601 date-time, normalised to `toISOString()` form; null: never expires. */
const expiresAt = v.nullable(
  v.pipe(
    instantInput,
    v.check((s) => Date.parse(s) > Date.now(), 'must be in the future'),
  ),
);

const maxRedemptions = v.nullable(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(PROMO_CODE_LIMITS.maxRedemptions, `must be at most ${PROMO_CODE_LIMITS.maxRedemptions}`),
  ),
);

const planIds = v.pipe(
  v.array(planId),
  v.maxLength(PROMO_CODE_LIMITS.planIds, `must have at most ${PROMO_CODE_LIMITS.planIds} entries`),
  v.check((ids) => new Set(ids).size === ids.length, 'must not repeat a plan'),
);

type Discount = { percentOff?: number; amountOff?: number; currency?: string };
const discountRule = (key: keyof Discount & string, ok: (o: Discount) => boolean, message: string) => checkAt([key], ok, message);

/** A readable refusal of a field a PATCH cannot change. */
const fixed = (message: string) => v.optional(v.never(message));

/**
 * Exactly one discount: `percentOff`, or `amountOff` with `currency` (major units, checked against the currency's
 * exponent). `planIds` empty (the default) means every plan of the organization.
 */
export const createPromoCodeRequest = named(
  'CreatePromoCodeRequest',
  v.pipe(
    v.strictObject({
      code: promoCode,
      percentOff: v.optional(percentOff),
      amountOff: v.optional(amountOff),
      currency: v.optional(currency),
      planIds: v.optional(planIds, []),
      expiresAt: v.optional(expiresAt, null),
      maxRedemptions: v.optional(maxRedemptions, null),
      isActive: v.optional(v.boolean(), true),
    }),
    discountRule('percentOff', (o) => o.percentOff !== undefined || o.amountOff !== undefined, 'give percentOff, or amountOff with currency'),
    discountRule('amountOff', (o) => o.percentOff === undefined || o.amountOff === undefined, 'cannot be given together with percentOff'),
    discountRule('currency', (o) => o.amountOff === undefined || o.currency !== undefined, 'is required with amountOff'),
    discountRule('currency', (o) => o.currency === undefined || o.amountOff !== undefined, 'is only given with amountOff'),
    checkAt(
      ['amountOff'],
      (o: Discount) => o.amountOff === undefined || o.currency === undefined || toMinorUnits(o.amountOff, o.currency) !== null,
      'has more decimals than its currency allows',
    ),
  ),
);

const immutable = 'cannot change: deactivate this promo code and create another';

/** The fields to change (at least one): `isActive`, `expiresAt`, `maxRedemptions`, `planIds`. */
export const updatePromoCodeRequest = named(
  'UpdatePromoCodeRequest',
  v.pipe(
    v.strictObject({
      isActive: v.optional(v.boolean()),
      expiresAt: v.optional(expiresAt),
      maxRedemptions: v.optional(maxRedemptions),
      planIds: v.optional(planIds),
      code: fixed(immutable),
      percentOff: fixed(immutable),
      amountOff: fixed(immutable),
      currency: fixed(immutable),
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
  ),
);

export const promoCodeRecord = named(
  'PromoCode',
  v.strictObject({
    id: promoCodeId,
    organizationId: uuid,
    code: v.string(),
    percentOff: v.nullable(v.number()),
    amountOff: v.nullable(v.number()),
    currency: v.nullable(v.string()),
    planIds: v.array(planId),
    expiresAt: v.nullable(isoTime),
    maxRedemptions: v.nullable(v.number()),
    timesRedeemed: v.pipe(v.number(), v.integer(), v.minValue(0)),
    isActive: v.boolean(),
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const promoCodeResponse = objectEnvelope('PromoCodeResponse', promoCodeRecord);
export const promoCodeListResponse = listEnvelope('PromoCodeListResponse', promoCodeRecord);

/** `limit`, `offset`, `sortDirection`, `sortBy` (createdAt|updatedAt), `search` (in the code, any case), `updatedFrom`, `updatedTo`. */
export const listPromoCodesQuery = v.pipe(v.strictObject(catalogListQueryFields), updatedRangeInOrder);
