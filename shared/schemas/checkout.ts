/**
 * Buyer checkout (public, `/api/v1/checkout`) and its merchant-API twins. Amounts are major-unit JSON numbers.
 * No response here carries customer data or a processor purchase URL: a page mounts the platform's hosted
 * fields (`hostedFields`) and pays through the platform's own confirm routes.
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/cards.ts';
import { paymentMethods } from '../domain/payment-methods.ts';
import { anchorMethods, billingTimings, intervalUnits, pricingFormulas, productTypes } from '../domain/plans.ts';
import { uuid } from './common.ts';
import { named } from './named.ts';
import { planId } from './plans.ts';
import { productId } from './products.ts';

const url = v.pipe(v.string(), v.url());

/**
 * What a page needs to mount the hosted fields: the SDK to load (`<script src>`) and the function it defines.
 * The client token `mount()` takes is not here: these reads are public and write nothing; a checkout session
 * (or the merchant's own back end) mints it.
 */
export const hostedFieldsMount = named('PublicCheckoutHostedFields', v.strictObject({
  sdkUrl: url,
  mountFunction: v.literal('MorHostedFields.mount'),
}));

/** The fields every checkout read carries to mount payment fields. */
const mountFields = {
  merchantId: uuid,
  merchantName: v.string(),
  mode: v.picklist(['test', 'live']),
  hostedFields: hostedFieldsMount,
  paymentMethods: v.array(v.picklist(paymentMethods)),
  cardBrands: v.array(v.picklist(cardBrands)),
};

export const publicCheckoutMerchantConfigResponse = named('PublicCheckoutMerchantConfigResponse', v.strictObject(mountFields));

const unit = v.picklist(intervalUnits);

const checkoutPlan = named('PublicCheckoutPlan', v.strictObject({
  id: planId,
  name: v.string(),
  description: v.nullable(v.string()),
  currency: v.string(),
  currencySign: v.string(),
  price: v.number(),
  formula: v.picklist(pricingFormulas),
  setupPrice: v.nullable(v.number()),
  recurringInterval: v.nullable(v.strictObject({
    unit,
    length: v.number(),
    billingTiming: v.picklist(billingTimings),
    periodAnchorInstruction: v.nullable(v.strictObject({ method: v.picklist(anchorMethods), day: v.number(), time: v.string() })),
  })),
  trial: v.nullable(v.strictObject({ unit, length: v.number() })),
  isTrialOnly: v.boolean(),
}));

const checkoutProduct = named('PublicCheckoutProduct', v.strictObject({
  id: productId,
  name: v.string(),
  description: v.nullable(v.string()),
  type: v.picklist(productTypes),
}));

const byPlanFields = {
  ...mountFields,
  plan: checkoutPlan,
  product: checkoutProduct,
  termsUrl: v.nullable(url),
  privacyUrl: v.nullable(url),
  returnPolicyUrl: v.nullable(url),
  eulaUrl: v.nullable(url),
};

export const publicCheckoutByPlanResponse = named('PublicCheckoutByPlanResponse', v.strictObject(byPlanFields));
export const publicApiCheckoutByPlanResponse = named('PublicApiCheckoutByPlanResponse', v.strictObject(byPlanFields));
