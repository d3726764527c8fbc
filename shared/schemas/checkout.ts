/**
 * Buyer checkout (public, `/api/v1/checkout`) and its merchant-API twins. Amounts are major-unit JSON numbers.
 * No response here carries customer data or a processor purchase URL: a page mounts the platform's hosted
 * fields (`hostedFields`) and pays through the platform's own confirm routes.
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/cards.ts';
import { ORDER_LIMITS, orderStatuses } from '../domain/orders.ts';
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

/** A line of an order read at checkout, as the buyer sees it (major units). */
const checkoutOrderItem = named('PublicCheckoutOrderItem', v.strictObject({
  type: v.picklist(['plan', 'custom']),
  planId: v.nullable(planId),
  description: v.string(),
  quantity: v.number(),
  unitAmount: v.number(),
  amount: v.number(),
}));

export const publicCheckoutOrderResponse = named('PublicCheckoutOrderResponse', v.strictObject({
  ...mountFields,
  order: named('PublicCheckoutOrder', v.strictObject({
    id: v.string(),
    status: v.picklist(orderStatuses),
    currency: v.string(),
    currencySign: v.string(),
    lines: v.array(checkoutOrderItem),
    subtotal: v.number(),
    total: v.number(),
    createdAt: v.string(),
  })),
}));

/** Tax preview request: the billing address and, for a plan, the quantity (default 1; refused on an order). */
export const previewPublicCheckoutTaxRequest = named('PreviewPublicCheckoutTaxRequest', v.strictObject({
  billingAddress: v.strictObject({
    country: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')),
    state: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(10, 'must be at most 10 characters')))),
    postalCode: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(20, 'must be at most 20 characters')))),
  }, 'must be an object with country, state and postalCode'),
  quantity: v.optional(v.pipe(
    v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'),
    v.maxValue(ORDER_LIMITS.quantity, `must be at most ${ORDER_LIMITS.quantity}`),
  )),
}));

const taxPreviewLine = named('PublicCheckoutTaxPreviewLine', v.strictObject({
  type: v.picklist(['plan', 'setup', 'custom']),
  description: v.string(),
  quantity: v.number(),
  unitAmount: v.number(),
  amount: v.number(),
  tax: v.number(),
  dueToday: v.boolean(),
}));

export const publicCheckoutTaxPreviewResponse = named('PublicCheckoutTaxPreviewResponse', v.strictObject({
  currency: v.string(),
  jurisdiction: v.strictObject({ country: v.string(), state: v.nullable(v.string()) }),
  rate: v.string(),
  rates: v.array(v.strictObject({
    level: v.picklist(['country', 'state']),
    type: v.string(),
    rate: v.string(),
    validFrom: v.string(),
  })),
  lines: v.array(taxPreviewLine),
  subtotal: v.number(),
  tax: v.number(),
  total: v.number(),
  subtotalDueToday: v.number(),
  taxDueToday: v.number(),
  amountDueToday: v.number(),
  promoCodeApplied: v.boolean(),
  note: v.nullable(v.string()),
}));

/** Checkout by invoice: the invoice's payable order, in the very shape of the checkout order read. */
export const publicCheckoutByInvoiceResponse = named('PublicCheckoutByInvoiceResponse', v.strictObject({ ...publicCheckoutOrderResponse.entries }));
