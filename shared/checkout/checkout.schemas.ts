/**
 * Buyer checkout (public, `/api/v1/checkout`) and its merchant-API twins, but for the confirms
 * (checkout-confirm.schemas.ts). Amounts are major-unit JSON numbers.
 * No response here carries customer data or a processor purchase URL: a page mounts the platform's hosted
 * fields (`hostedFields`) and pays through the platform's own confirm routes.
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/card-data.ts';
import { checkoutOrderStatuses } from './orders.rules.ts';
import { paymentMethods } from '../domain/payment-methods.ts';
import { anchorMethods, billingTimings, intervalUnits, pricingFormulas, productTypes } from '../catalog/plan-vocabulary.schemas.ts';
import { uuid } from '../platform/http/schemas/common.ts';
import { planId, productId } from '../catalog/ids.schemas.ts';
import { named } from '../platform/http/schemas/named.ts';
import { paidStatus } from '../payments/transactions.schemas.ts';
import { policyTypes } from '../domain/policies.ts';
import { BUNDLED_TABLE_SOURCE, NO_SALES_TAX_SOURCE, TAX_REASONS } from '../domain/tax-rates.ts';

/** The types of the seller's uploaded policy PDFs (each linked at checkout; a type not listed has none). */
const policyDocuments = v.array(v.picklist(policyTypes));
import { billingAddress, buyerEmail, paidCard, promoCodeText, quantity, url } from './checkout-fields.schemas.ts';

/**
 * What a page needs to mount the hosted fields: the SDK to load (`<script src>`) and the function it defines.
 * The client token `mount()` takes is not here: these reads are public and write nothing; a checkout session
 * (or the merchant's own back end) mints it.
 */
export const hostedFieldsMount = named(
  'PublicCheckoutHostedFields',
  v.strictObject({
    sdkUrl: url,
    mountFunction: v.literal('MorHostedFields.mount'),
  }),
);

const hexColor = v.pipe(v.string(), v.regex(/^#[0-9A-F]{6}$/));

/**
 * The merchant's checkout customization as the hosted checkout page applies it: the display name (also in
 * `merchantName`), the brand colour (pay button, white text, and links), the accent colour (decoration) and the
 * logo's URL on the platform's origin; each null when not set.
 */
export const checkoutBranding = named(
  'PublicCheckoutCustomization',
  v.strictObject({
    displayName: v.nullable(v.string()),
    brandColor: v.nullable(hexColor),
    accentColor: v.nullable(hexColor),
    logoUrl: v.nullable(url),
  }),
);

/** The fields every checkout read carries to mount payment fields, and the merchant's checkout customization. */
const mountFields = {
  merchantId: uuid,
  merchantName: v.string(),
  mode: v.picklist(['test', 'live']),
  hostedFields: hostedFieldsMount,
  paymentMethods: v.array(v.picklist(paymentMethods)),
  cardBrands: v.array(v.picklist(cardBrands)),
  customization: checkoutBranding,
};

export const publicCheckoutMerchantConfigResponse = named('PublicCheckoutMerchantConfigResponse', v.strictObject(mountFields));

const unit = v.picklist(intervalUnits);

const checkoutPlan = named(
  'PublicCheckoutPlan',
  v.strictObject({
    id: planId,
    name: v.string(),
    description: v.nullable(v.string()),
    currency: v.string(),
    currencySign: v.string(),
    price: v.number(),
    formula: v.picklist(pricingFormulas),
    setupPrice: v.nullable(v.number()),
    recurringInterval: v.nullable(
      v.strictObject({
        unit,
        length: v.number(),
        billingTiming: v.picklist(billingTimings),
        periodAnchorInstruction: v.nullable(v.strictObject({ method: v.picklist(anchorMethods), day: v.number(), time: v.string() })),
      }),
    ),
    trial: v.nullable(v.strictObject({ unit, length: v.number() })),
    isTrialOnly: v.boolean(),
  }),
);

const checkoutProduct = named(
  'PublicCheckoutProduct',
  v.strictObject({
    id: productId,
    name: v.string(),
    description: v.nullable(v.string()),
    type: v.picklist(productTypes),
    /** The product's first image, on the platform's origin; null when it has none. */
    imageUrl: v.nullable(url),
  }),
);

/** The seller's URL policies (null: none), on every checkout read. */
const policyUrls = {
  termsUrl: v.nullable(url),
  privacyUrl: v.nullable(url),
  returnPolicyUrl: v.nullable(url),
  eulaUrl: v.nullable(url),
};

const byPlanFields = {
  ...mountFields,
  plan: checkoutPlan,
  product: checkoutProduct,
  ...policyUrls,
  policyDocuments,
};

export const publicCheckoutByPlanResponse = named('PublicCheckoutByPlanResponse', v.strictObject(byPlanFields));
export const publicApiCheckoutByPlanResponse = named('PublicApiCheckoutByPlanResponse', v.strictObject(byPlanFields));

/** A line of an order read at checkout, as the buyer sees it (major units). */
const checkoutOrderItem = named(
  'PublicCheckoutOrderItem',
  v.strictObject({
    type: v.picklist(['plan', 'custom']),
    planId: v.nullable(planId),
    description: v.string(),
    quantity: v.number(),
    unitAmount: v.number(),
    amount: v.number(),
  }),
);

export const publicCheckoutOrderResponse = named(
  'PublicCheckoutOrderResponse',
  v.strictObject({
    ...mountFields,
    /** A client token to mount the hosted fields with, minted for this read while the order is open (bound to the page's `Origin` when it sends one); null once paid or closed. */
    clientToken: v.nullable(v.string()),
    clientTokenExpiresAt: v.nullable(v.string()),
    order: named(
      'PublicCheckoutOrder',
      v.strictObject({
        id: v.string(),
        status: v.picklist(checkoutOrderStatuses),
        currency: v.string(),
        currencySign: v.string(),
        lines: v.array(checkoutOrderItem),
        subtotal: v.number(),
        /** The tax already in `total` (an order that pays a customer invoice, which calculated it); null: taxed at payment, by the billing address. */
        tax: v.nullable(v.number()),
        total: v.number(),
        createdAt: v.string(),
        paidAt: v.nullable(v.string()),
      }),
    ),
    ...policyUrls,
    policyDocuments,
  }),
);

/** Tax preview request: the billing address and, for a plan, the quantity (default 1; refused on an order). */
export const previewPublicCheckoutTaxRequest = named(
  'PreviewPublicCheckoutTaxRequest',
  v.strictObject({
    billingAddress,
    quantity: v.optional(quantity),
  }),
);

const taxPreviewLine = named(
  'PublicCheckoutTaxPreviewLine',
  v.strictObject({
    type: v.picklist(['plan', 'setup', 'custom']),
    description: v.string(),
    quantity: v.number(),
    unitAmount: v.number(),
    amount: v.number(),
    tax: v.number(),
    dueToday: v.boolean(),
  }),
);

export const publicCheckoutTaxPreviewResponse = named(
  'PublicCheckoutTaxPreviewResponse',
  v.strictObject({
    currency: v.string(),
    jurisdiction: v.strictObject({ country: v.string(), state: v.nullable(v.string()) }),
    rate: v.string(),
    rates: v.array(
      v.strictObject({
        level: v.picklist(['country', 'state']),
        type: v.string(),
        rate: v.string(),
        validFrom: v.string(),
        source: v.pipe(
          v.string(),
          v.description(
            `Where the rate comes from: \`${BUNDLED_TABLE_SOURCE}\` (the bundled table), \`${NO_SALES_TAX_SOURCE}\` (a US state without sales tax) or a rate change's source.`,
          ),
        ),
      }),
    ),
    reason: v.pipe(
      v.nullable(v.picklist(TAX_REASONS)),
      v.description('Why the rate is what it is when the rate alone does not say: `no_sales_tax`, a US state without a state sales tax (0); else null.'),
    ),
    lines: v.array(taxPreviewLine),
    subtotal: v.number(),
    tax: v.number(),
    total: v.number(),
    subtotalDueToday: v.number(),
    taxDueToday: v.number(),
    amountDueToday: v.number(),
    promoCodeApplied: v.boolean(),
    note: v.nullable(v.string()),
  }),
);

/** Checkout by invoice: the invoice's payable order, in the very shape of the checkout order read. */
export const publicCheckoutByInvoiceResponse = named('PublicCheckoutByInvoiceResponse', v.strictObject({ ...publicCheckoutOrderResponse.entries }));

// Sessions, promo quotes and receipts (the confirms: checkout-confirm.schemas.ts)

/** Start paying a plan: who buys, how many, and where they are billed. */
const sessionRequestFields = {
  email: buyerEmail,
  quantity: v.optional(quantity, 1),
  billingAddress,
};
export const createPublicCheckoutSessionRequest = named('CreatePublicCheckoutSessionRequest', v.strictObject(sessionRequestFields));
export const publicApiCreateCheckoutSessionRequest = named('PublicApiCreateCheckoutSessionRequest', v.strictObject(sessionRequestFields));

/** A session: what confirm needs (its id), the client token to mount the hosted fields with, and when both expire. */
const sessionResponseFields = {
  sessionId: v.string(),
  planId,
  status: v.picklist(['open', 'paid']),
  email: v.string(),
  quantity: v.number(),
  billingAddress: v.strictObject({ country: v.string(), state: v.nullable(v.string()), postalCode: v.nullable(v.string()) }),
  currency: v.string(),
  expiresAt: v.string(),
  clientToken: v.string(),
  clientTokenExpiresAt: v.string(),
  hostedFields: hostedFieldsMount,
};
export const publicCheckoutSessionResponse = named('PublicCheckoutSessionResponse', v.strictObject(sessionResponseFields));
export const publicApiCheckoutSessionResponse = named('PublicApiCheckoutSessionResponse', v.strictObject(sessionResponseFields));

/** A promo code to quote for the plan, optionally with the quantity and billing address (then the quote includes tax). */
const promoRequestFields = {
  code: promoCodeText,
  quantity: v.optional(quantity, 1),
  billingAddress: v.optional(billingAddress),
};
export const applyPublicCheckoutPromoCodeRequest = named('ApplyPublicCheckoutPromoCodeRequest', v.strictObject(promoRequestFields));
export const publicApiApplyCheckoutPromoCodeRequest = named('PublicApiApplyCheckoutPromoCodeRequest', v.strictObject(promoRequestFields));

/** A line of a promo-code quote: a tax preview line with its discount (and no tax without a billing address). */
const quoteLine = named('PublicCheckoutQuoteLine', v.strictObject({ ...taxPreviewLine.entries, discount: v.number(), tax: v.nullable(v.number()) }));

/** The discounted quote of a plan: every amount in major units; tax fields null when no billing address was sent. */
const promoResponseFields = {
  promoCode: v.strictObject({ code: v.string(), percentOff: v.nullable(v.number()), amountOff: v.nullable(v.number()) }),
  currency: v.string(),
  lines: v.array(quoteLine),
  subtotal: v.number(),
  discount: v.number(),
  tax: v.nullable(v.number()),
  total: v.nullable(v.number()),
  subtotalDueToday: v.number(),
  taxDueToday: v.nullable(v.number()),
  amountDueToday: v.nullable(v.number()),
};
export const applyPublicCheckoutPromoCodeResponse = named('ApplyPublicCheckoutPromoCodeResponse', v.strictObject(promoResponseFields));
export const publicApiApplyCheckoutPromoCodeResponse = named('PublicApiApplyCheckoutPromoCodeResponse', v.strictObject(promoResponseFields));

/** The platform as the legal seller of a checkout payment (merchant of record), as it was when the buyer paid. */
const receiptSellerOfRecord = named(
  'PublicCheckoutReceiptSellerOfRecord',
  v.strictObject({
    /** Legal name. */
    name: v.string(),
    address: v.string(),
    city: v.string(),
    zip: v.nullable(v.string()),
    state: v.nullable(v.string()),
    /** ISO 3166-1 alpha-2. */
    country: v.string(),
    phoneNumber: v.nullable(v.string()),
    /** Its tax number: kind (`vat`, `ein`, …) and value. */
    taxNumber: v.strictObject({ type: v.string(), value: v.string() }),
  }),
);

/**
 * A paid checkout's receipt: what was bought, what was charged, on which card (never the buyer's e-mail); the
 * merchant's checkout display name the buyer saw (`merchantName`) beside the legal seller of record.
 */
const receiptFields = {
  receiptId: uuid,
  receiptNumber: v.pipe(
    v.nullable(v.pipe(v.string(), v.regex(/^R-[0-9]{6,}$/))),
    v.description(
      "The merchant's receipt number (`R-000123`: per merchant, from 1, never given twice), beside `receiptId`. Null only for a payment completed before receipts were numbered.",
    ),
  ),
  transactionId: uuid,
  externalTransactionId: v.nullable(v.string()),
  merchantId: uuid,
  merchantName: v.pipe(
    v.string(),
    v.description(
      "The name the checkout showed the buyer when they paid: the merchant's checkout display name (customization), else its trading name, else its name.",
    ),
  ),
  sellerOfRecord: v.pipe(
    v.nullable(receiptSellerOfRecord),
    v.description('The platform, which sold as merchant of record, as it was when the buyer paid. Null only for a payment made before receipts kept it.'),
  ),
  orderId: v.nullable(v.string()),
  planId: v.nullable(planId),
  status: v.pipe(
    paidStatus,
    v.description(
      'The payment now: `completed`, or `partially-refunded` / `refunded` once refunds gave back part or all of it (the receipt stays, with what it paid).',
    ),
  ),
  refundedAmount: v.pipe(v.number(), v.description('What refunds gave back of `amount` so far (refunds still being processed not counted); 0 when none.')),
  currency: v.string(),
  currencySign: v.string(),
  lines: v.array(v.strictObject({ description: v.string(), quantity: v.number(), unitAmount: v.number(), amount: v.number() })),
  subtotal: v.number(),
  discount: v.number(),
  tax: v.number(),
  taxRate: v.pipe(
    v.nullable(v.string()),
    v.description(
      'The rate `tax` was charged at, an exact decimal (`"0.19"` for 19 %), as the payment kept it when it was taxed. Null for an order paying an invoice (the invoice names its lines\' rates) and for a payment made before receipts kept it.',
    ),
  ),
  amount: v.number(),
  promoCode: v.nullable(v.string()),
  billingCountry: v.string(),
  card: paidCard,
  paidAt: v.string(),
};
export const publicCheckoutReceiptResponse = named('PublicCheckoutReceiptResponse', v.strictObject(receiptFields));
export const publicApiCheckoutReceiptResponse = named('PublicApiCheckoutReceiptResponse', v.strictObject(receiptFields));
