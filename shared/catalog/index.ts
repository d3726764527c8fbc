/**
 * The catalog module's front door (products, plans, promo codes and product images): all that other modules may use
 * of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export type { Plan } from './plan.entity.ts';
export { getPlan as findPlan, getPlanById } from './plans.repository.ts';
export { currencySign, type IntervalUnit, type PeriodAnchorInstruction, PLAN_ID_PATTERN, type Trial } from './plans.rules.ts';
export { createPlan, createProductWithPlan, listPlanRecords, updatePlan } from './plans.service.ts';
export { confirmProductImage, createProductImageUpload } from './product-images.service.ts';
export type { Product } from './product.entity.ts';
export { getProduct as findProduct } from './products.repository.ts';
export { createProduct, getProduct, listMerchantProducts, listProducts, updateProduct } from './products.service.ts';
export type { PromoCode } from './promo-code.entity.ts';
export { findPromoCodeId, getPromoCode as findPromoCode, getPromoCodeById, redeemPromoCode, releasePromoRedemption } from './promo-codes.repository.ts';
export { createPromoCode, listPromoCodeRecords, updatePromoCode } from './promo-codes.service.ts';
