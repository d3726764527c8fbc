/**
 * Promo codes of an organization: create (the code claimed case-insensitively in the same transaction), read,
 * update (`isActive`, `expiresAt`, `maxRedemptions`, `planIds`) and list. Buyer checkout redeems them.
 *
 * - A code's `planIds` must be plans of the organization, checked inside the write's transaction (one
 *   condition per plan); for an `amountOff` code each plan must also be priced in the code's currency, and a
 *   100 % code may list no plan sold once without a setup price (it would take every purchase of it to nothing,
 *   which checkout cannot take).
 * - The code, the discount and its currency never change: deactivate the code and create another.
 */
import { randomBytes } from 'node:crypto';
import type { InferOutput } from 'valibot';
import { cancellationReasons, failedParts, type NamedParts, partReasons, transactWrite } from '../platform/db/transactions.ts';
import { getPlan, planExists } from './plans.repository.ts';
import type { PromoCode } from './promo-code.entity.ts';
import * as repo from './promo-codes.repository.ts';
import { ConflictError, UnprocessableError } from '../domain/errors.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import { promoCodeNotFound } from '../domain/unknown-ids.ts';
import type { createPromoCodeRequest, listPromoCodesQuery, updatePromoCodeRequest } from './promo-codes.schemas.ts';
import { PROMO_CODE_ID_PATTERN, ALL_OFF_BASIS_POINTS } from './plans.rules.ts';
import { catalogListOptions, searchTerm } from '../platform/db/listing.ts';

export type CreatePromoCodeInput = InferOutput<typeof createPromoCodeRequest>;
export type UpdatePromoCodeInput = InferOutput<typeof updatePromoCodeRequest>;
export type ListPromoCodesQuery = InferOutput<typeof listPromoCodesQuery>;

/** The promo code as the organization API shows it: `percentOff` in percent, `amountOff` in major units. */
export const promoCodeView = (p: PromoCode) => ({
  id: p.id,
  organizationId: p.organizationId,
  code: p.code,
  percentOff: p.percentOffBasisPoints === null ? null : p.percentOffBasisPoints / 100,
  amountOff: p.amountOff === null || p.currency === null ? null : toMajorUnits(p.amountOff, p.currency),
  currency: p.currency,
  planIds: p.planIds,
  expiresAt: p.expiresAt,
  maxRedemptions: p.maxRedemptions,
  timesRedeemed: p.timesRedeemed,
  isActive: p.isActive,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const newPromoCodeId = () => `promo_${randomBytes(16).toString('hex')}`;
const isPromoCodeId = (id: string) => PROMO_CODE_ID_PATTERN.test(id);
const codeTaken = (code: string) =>
  new ConflictError('promo_code.code_taken', `This organization already has the promo code ${code} (codes are compared regardless of case).`);

/** The discount of a code, as the conditions on its plans need it. */
type Discount = Pick<PromoCode, 'currency' | 'percentOffBasisPoints'>;

/**
 * Why the conditions of the plans `failed` failed: a plan is not the organization's (422
 * `promo_code.plan_not_found`), is priced in another currency (422 `promo_code.currency_mismatch`) or is one the
 * code takes to nothing (422 `promo_code.nothing_to_charge`).
 */
async function planRefusal(organizationId: string, failed: readonly string[], discount: Discount) {
  const plans = await Promise.all(failed.map((id) => getPlan(organizationId, id)));
  const missing = failed.filter((_, n) => !plans[n]);
  if (missing.length) {
    return new UnprocessableError('promo_code.plan_not_found', `This organization has no plan ${missing.join(', ')}.`, { planIds: missing.join(', ') });
  }
  // A plan that exists failed the one other condition of the code's discount: its currency, or something to charge.
  if (discount.currency !== null) {
    return new UnprocessableError(
      'promo_code.currency_mismatch',
      `An amount-off promo code applies only to plans in its currency (${discount.currency}); ${failed.join(', ')} ${failed.length > 1 ? 'are' : 'is'} priced in another.`,
      { planIds: failed.join(', ') },
    );
  }
  return new UnprocessableError(
    'promo_code.nothing_to_charge',
    `A 100 % promo code would take every purchase of ${failed.join(', ')} to nothing: ${
      failed.length > 1 ? 'they are plans' : 'it is a plan'
    } sold once without a setup fee, and checkout cannot take a payment of nothing. Give a smaller discount, or leave ${
      failed.length > 1 ? 'them' : 'it'
    } out.`,
    { planIds: failed.join(', ') },
  );
}

/** The name of a listed plan's part of a transaction. */
type PlanPart = `plan:${string}`;

/**
 * A part per listed plan (`plan:<id>`): its condition that it is a plan of the organization (priced in the code's
 * currency; for a 100 % code, one with something left to charge).
 */
const planParts = (organizationId: string, planIds: readonly string[], discount: Discount): NamedParts<PlanPart> =>
  planIds.map((id) => [`plan:${id}`, [planExists(organizationId, id, discount.currency, discount.percentOffBasisPoints === ALL_OFF_BASIS_POINTS)]]);

/** The plans of `planIds` whose condition failed, in their order. */
const failedPlans = (failed: ReadonlySet<string>, planIds: readonly string[]) => planIds.filter((id) => failed.has(`plan:${id}`));

/**
 * Create: one transaction of the promo code, its code's claim (409 `promo_code.code_taken` when the
 * organization has the code in any case) and a condition per listed plan.
 */
export async function createPromoCode(organizationId: string, input: CreatePromoCodeInput, now = new Date().toISOString()) {
  const currency = input.amountOff !== undefined ? input.currency! : null;
  const promo: PromoCode = {
    id: newPromoCodeId(),
    organizationId,
    code: input.code,
    percentOffBasisPoints: input.percentOff !== undefined ? Math.round(input.percentOff * 100) : null,
    amountOff: currency ? toMinorUnits(input.amountOff!, currency) : null,
    currency,
    planIds: input.planIds,
    expiresAt: input.expiresAt,
    maxRedemptions: input.maxRedemptions,
    timesRedeemed: 0,
    isActive: input.isActive,
    createdAt: now,
    updatedAt: now,
  };
  const [promoItem, claimItem] = repo.putNewPromoCode(promo);
  const parts: NamedParts<'promoCode' | 'claim' | PlanPart> = [
    ['promoCode', [promoItem]],
    ['claim', [claimItem]],
    ...planParts(organizationId, promo.planIds, promo),
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (!reasons) throw e;
    const failed = failedParts(reasons, parts)!;
    if (failed.has('claim')) throw codeTaken(input.code);
    const plans = failedPlans(failed, promo.planIds);
    if (plans.length) throw await planRefusal(organizationId, plans, promo);
    // Both claims raced to the end: the one that lost sees the other's claim now.
    if (partReasons(reasons, parts).get('claim')?.includes('TransactionConflict') && (await repo.findPromoCodeId(organizationId, input.code))) {
      throw codeTaken(input.code);
    }
    throw e;
  }
  return promoCodeView(promo);
}

/** The organization's promo code; 404 `promo_code.not_found` for unknown, malformed (no table call) and other organizations' ids. */
export async function getPromoCode(organizationId: string, promoCodeId: string) {
  const promo = isPromoCodeId(promoCodeId) ? await repo.getPromoCode(organizationId, promoCodeId) : null;
  if (!promo) throw promoCodeNotFound();
  return promoCodeView(promo);
}

/**
 * Update the given fields. Without `planIds`: one conditional update. With `planIds`: the code is read (its
 * discount decides the plan conditions), then updated in a transaction with a condition per plan, then read back.
 * `maxRedemptions` below `timesRedeemed`: 409 `promo_code.below_redemptions`.
 */
export async function updatePromoCode(organizationId: string, promoCodeId: string, input: UpdatePromoCodeInput, now = new Date().toISOString()) {
  if (!isPromoCodeId(promoCodeId)) throw promoCodeNotFound();
  const changes: repo.PromoCodeChanges = {
    isActive: input.isActive,
    expiresAt: input.expiresAt,
    maxRedemptions: input.maxRedemptions,
    planIds: input.planIds,
  };
  if (input.planIds === undefined) {
    const outcome = await repo.updatePromoCode(organizationId, promoCodeId, changes, now);
    if (outcome.ok) return promoCodeView(outcome.promoCode);
    if (!outcome.current) throw promoCodeNotFound();
    throw belowRedemptions(outcome.current.timesRedeemed);
  }
  const current = await repo.getPromoCode(organizationId, promoCodeId);
  if (!current) throw promoCodeNotFound();
  const planIds = input.planIds;
  const parts: NamedParts<'promoCode' | PlanPart> = [
    ['promoCode', [repo.updatePromoCodeItem(organizationId, promoCodeId, changes, now)]],
    ...planParts(organizationId, planIds, current),
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (!failed) throw e;
    const plans = failedPlans(failed, planIds);
    if (plans.length) throw await planRefusal(organizationId, plans, current);
    if (failed.has('promoCode')) {
      const latest = await repo.getPromoCode(organizationId, promoCodeId);
      if (!latest) throw promoCodeNotFound();
      throw belowRedemptions(latest.timesRedeemed);
    }
    throw e;
  }
  const updated = await repo.getPromoCode(organizationId, promoCodeId);
  if (!updated) throw promoCodeNotFound();
  return promoCodeView(updated);
}

const belowRedemptions = (timesRedeemed: number) =>
  new ConflictError('promo_code.below_redemptions', `maxRedemptions cannot be below the ${timesRedeemed} redemptions made already.`, { timesRedeemed });

/** One page of the organization's promo codes (`search`: case-insensitive, in the code). */
export async function listPromoCodes(organizationId: string, q: ListPromoCodesQuery) {
  const search = searchTerm(q.search);
  const { totalCount, promoCodes } = await repo.listPromoCodes(organizationId, { ...catalogListOptions(q), ...(search ? { search } : {}) });
  return { totalCount, data: promoCodes.map(promoCodeView) };
}

/**
 * One page (`offset`, `limit`) of the organization's promo codes, newest first, as stored: `amountOff` in integer
 * minor units (for pages that format it); with how many promo codes it has.
 */
export async function listPromoCodeRecords(organizationId: string, page: { offset: number; limit: number }) {
  const { totalCount, promoCodes } = await repo.listPromoCodes(organizationId, { sortBy: 'createdAt', sortDirection: 'desc', ...page });
  return { totalCount, promoCodes };
}
