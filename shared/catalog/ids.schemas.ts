/** The catalog's id schemas, apart from its other schemas, so a route that names a plan or product carries only these. */
import * as v from 'valibot';
import { PLAN_ID_PATTERN, PRODUCT_ID_PATTERN } from './plans.rules.ts';

/** A plan id: `plan_` and 32 lowercase hex digits. */
export const planId = v.pipe(v.string(), v.regex(PLAN_ID_PATTERN, 'must be a plan id (plan_ and 32 hex digits)'));
/** A product id: `prod_` and 32 lowercase hex digits. */
export const productId = v.pipe(v.string(), v.regex(PRODUCT_ID_PATTERN, 'must be a product id (prod_ and 32 hex digits)'));
