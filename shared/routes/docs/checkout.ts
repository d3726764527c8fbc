/** The API reference's entries for the buyer checkout (`shared/routes/checkout.ts`): public routes a checkout page calls from the browser. */
import type { checkoutRoutes } from '../checkout.ts';
import type { FaceDocs } from './types.ts';
import { exampleIds as ids } from './example-ids.ts';

/** The buyer's billing address of the examples: it decides the tax (California's 8.25 % in the bundled table). */
const billingAddress = { country: 'US', state: 'CA', postalCode: '94105' };

/** A promo code of the examples' merchant: 15 % off its plans. */
export const examplePromoCode = 'SPRING15';

const taxUnavailable = {
  status: 422,
  code: 'checkout.tax_unavailable',
  when: "No tax rate is known for the billing address, so the platform does not sell to it: a country it does not sell to (`country_not_sold`; the hosted checkout does not offer it), a code that names no country (`country_unknown`), a US or Canadian address without its state (`state_required`) or with a state that is not one of the country's (`state_unknown`), or an instant before the rate table (`before_table`); `details.reason` says which. A US state without sales tax is not refused: it is taxed at 0 with `reason: no_sales_tax`. Nothing is charged.",
} as const;

const promoRefusals = [
  { status: 422, code: 'checkout.promo_code_not_found', when: 'The merchant has no promo code of that text (compared case-insensitively).' },
  { status: 422, code: 'checkout.promo_code_inactive', when: 'The merchant deactivated the code.' },
  { status: 422, code: 'checkout.promo_code_expired', when: 'The code is past its `expiresAt`.' },
  { status: 422, code: 'checkout.promo_code_exhausted', when: 'The code has been redeemed `maxRedemptions` times.' },
  { status: 422, code: 'checkout.promo_code_wrong_plan', when: 'The code lists the plans it applies to, and this plan is not one of them.' },
  { status: 422, code: 'checkout.promo_code_wrong_currency', when: "The code takes an amount off in another currency than the plan's." },
] as const;

const cardRefusals = [
  {
    status: 402,
    code: 'payment.declined',
    when: 'The card was declined: `message` and `details.declineCode` give the reason. The session or order stays open for another card (a fresh token).',
  },
  {
    status: 404,
    code: 'card_token.not_found',
    when: "The token is not one of the merchant's card tokens (tokens are made by the hosted fields mounted with this checkout's client token).",
  },
  { status: 409, code: 'card_token.already_used', when: 'The token paid (or tried to pay) another payment already: tokenize the card again.' },
  { status: 422, code: 'card_token.expired', when: 'The token is older than its 15 minutes: tokenize the card again.' },
  { status: 422, code: 'checkout.amount_over_limit', when: 'What is due today is more than 100000 major units of the currency.' },
  { status: 502, code: 'payment.processor_error', when: 'The processor refused the payment for a reason of its own; nothing was charged.' },
  {
    status: 502,
    code: 'payment.processor_unreachable',
    when: 'The processor did not answer, so the outcome is not known yet: send the same confirm again, which finishes this payment and never charges twice.',
  },
] as const;

export const checkoutDocs = {
  getCheckoutMerchantConfig: {
    description:
      "Everything a page needs to mount the hosted card fields for a merchant without a plan or order: the name buyers see (the checkout customization's display name, else the trading name, else the merchant's name), `test` or `live` mode, the SDK's URL and mount function, the payment methods and card brands this deployment takes, and the merchant's checkout customization (colours, logo URL). No client token is minted here: a merchant's own back end mints one (`POST …/payment-instruments/client-tokens`). A malformed or unknown id, or a merchant of the other deployment, is 404 `checkout.merchant_not_found`.",
    example: { params: { merchantId: ids.merchantId } },
  },
  getCheckoutPlan: {
    description:
      "The plan read by its id alone, shown only while the plan is active, its product active and its merchant of this deployment; anything else is the same 404 `checkout.plan_not_found`. Besides the mount fields it carries the plan (price and setup price in major units, interval, trial), the product (with its first image), the seller's four URL policies and `policyDocuments`, the policy PDFs that can be opened through `GET …/policies/{policyType}`. It never mints a client token: starting a checkout session does.",
    example: { params: { planId: ids.checkoutPlanId } },
  },
  previewCheckoutPlanTax: {
    description:
      "The tax of the plan's first charge for a billing address: the plan line (price × `quantity`, 1 to 10000) and, when the plan has one, the setup line, each taxed and rounded half to even in the currency's minor unit, and what is due today (nothing for the plan line during a trial). Each rate says where it comes from (`rates[].source`); a US state without a state sales tax (AK, DE, MT, NH, OR) is a 0 with `reason: no_sales_tax`. Promo codes are not applied (`promoCodeApplied: false`): while a code is applied, use the promo-code quote instead. Nothing is written.",
    example: { params: { planId: ids.checkoutPlanId }, body: { billingAddress, quantity: 2 } },
    errors: [taxUnavailable],
  },
  createCheckoutPlanSession: {
    description:
      "Starts paying the plan: the session records the buyer's e-mail, the quantity and the billing address, and can be confirmed for 60 minutes (it is paid at most once). The answer carries `sessionId` for the confirm and a client token (15 minutes, 10 tokenization attempts) to mount the hosted fields with, bound to the page's `Origin` when the browser sent one, so a token lifted from the page works nowhere else.",
    example: { params: { planId: ids.checkoutPlanId }, body: { email: 'ada@example.com', quantity: 1, billingAddress } },
  },
  applyCheckoutPlanPromoCode: {
    description:
      'Checks a promo code against the plan and quotes the discounted amounts: the code applies to the plan line only (never the setup price), a percentage rounded half to even, an amount off at most the line. With a billing address the quote includes tax on the discounted amounts, else its tax fields are null. Nothing is charged or redeemed here: the confirm redeems the code. Refusals are checked in the order listed and their `message` can be shown to the buyer as is.',
    example: { params: { planId: ids.checkoutPlanId }, body: { code: examplePromoCode, quantity: 1, billingAddress } },
    errors: [...promoRefusals, taxUnavailable],
  },
  confirmCheckoutPlan: {
    description:
      "Pays the session with the card token the hosted fields made (a public route never charges a saved card), redeeming the promo code if one is sent, and charges what is due today plus tax for the billing address (the session's, or the one sent here). The same confirm again replays its answer and never charges twice; concurrent confirms of one session charge once (the others get 409). A recurring plan starts its subscription (`subscriptionId`) and saves the card for its renewals; with nothing due today (a trial without a setup price) nothing is charged and the answer has no transaction or receipt, but its `trial` says when the trial ends and what its first charge will be (price × quantity plus tax for the billing address). A completed payment emits `payment.completed` (and `customer.created` for a new buyer, `subscription.created` for a subscription); a decline emits `payment.failed`.",
    example: {
      params: { planId: ids.checkoutPlanId },
      body: { sessionId: ids.buyerCheckoutSessionId, token: ids.planConfirmTokenId, promoCode: examplePromoCode },
    },
    errors: [
      { status: 404, code: 'checkout.session_not_found', when: 'No session of that id was started for this plan: start a new one.' },
      {
        status: 409,
        code: 'checkout.session_already_paid',
        when: 'The session was paid already (by another confirm; the same confirm replays its answer instead).',
      },
      { status: 409, code: 'checkout.payment_in_progress', when: 'Another confirm of the session is being paid: wait for its result.' },
      { status: 422, code: 'checkout.session_expired', when: 'The session is older than its 60 minutes: start a new one.' },
      { status: 422, code: 'checkout.nothing_due_today', when: 'A plan sold once has nothing to charge today.' },
      ...promoRefusals,
      taxUnavailable,
      ...cardRefusals,
    ],
  },
  getCheckoutPlanReceipt: {
    description:
      "The receipt of a completed checkout payment of the plan: what was paid today (lines, subtotal, discount, tax, amount), the promo code, the billing country, the card's brand and last four digits and when it was paid; never the buyer's e-mail. Its seller: `merchantName`, the name the checkout showed (the merchant's display name), beside `sellerOfRecord`, the platform's legal entity that sold. `receiptId` is the payment's `transactionId` (UUID v7); `receiptNumber` is the merchant's human number beside it (`R-000123`, per merchant, never given twice). The processor's `pay_…` id is still accepted until 2027-01-15, answered with `Deprecation`, `Sunset` and a `Link` to this URL. A receipt of another plan, an incomplete payment or an unknown id is 404 `checkout.receipt_not_found`.",
    example: { params: { planId: ids.checkoutPlanId, receiptId: ids.planReceiptId } },
    errors: [
      {
        status: 410,
        code: 'checkout.receipt_id_retired',
        when: 'The receipt id is a processor `pay_…` id and it is 2027-01-15 or later: use the transaction id.',
      },
    ],
  },
  getCheckoutOrder: {
    description:
      "The order read by its id alone: its lines, subtotal and total (major units), its status (`open`, or `paid`) and the mount fields. While the order is open each read also mints a client token for the hosted fields (bound to the page's `Origin` when one was sent); once paid it is null and the read writes nothing. The buyer's e-mail is never shown. A malformed or unknown id, or an order of the other deployment, is 404 `checkout.order_not_found`.",
    example: { params: { orderId: ids.checkoutOrderId } },
  },
  previewCheckoutOrderTax: {
    description:
      "The tax of the order's lines for a billing address, each line taxed and rounded half to even in the currency's minor unit; every line of an order is due today. An order's quantities are fixed, so the body takes no `quantity`. Nothing is written.",
    example: { params: { orderId: ids.checkoutOrderId }, body: { billingAddress } },
    errors: [
      { status: 400, code: 'checkout.quantity_not_allowed', when: "The body has a `quantity`: an order's quantities are fixed." },
      {
        status: 422,
        code: 'checkout.tax_included',
        when: "The order pays a customer invoice whose tax is already in its total: the amount due is the order's total, whatever the address.",
      },
      taxUnavailable,
    ],
  },
  confirmCheckoutOrder: {
    description:
      "Pays the open order once with the card token the hosted fields made: its total plus tax for the billing address (an order that pays a customer invoice is charged its total as it is, with the invoice's tax). The buyer's e-mail becomes the merchant's customer. The same confirm again replays its answer and never charges twice; concurrent confirms charge once. Orders take no promo code. A completed payment emits `payment.completed` with the `orderId` (and, for an order that pays a customer invoice, marks the invoice `paid`); a decline emits `payment.failed` and leaves the order open.",
    example: {
      params: { orderId: ids.checkoutOrderId },
      body: { email: 'ada@example.com', token: ids.orderConfirmTokenId, billingAddress },
    },
    errors: [
      {
        status: 409,
        code: 'checkout.order_already_paid',
        when: 'The order was paid already (by another confirm; the same confirm replays its answer instead).',
      },
      {
        status: 409,
        code: 'checkout.payment_in_progress',
        when: "Another confirm of the order is being paid, or the order's customer invoice was voided or marked uncollectible.",
      },
      taxUnavailable,
      ...cardRefusals,
    ],
  },
  getCheckoutOrderReceipt: {
    description:
      "The receipt of the order's completed payment: the lines paid, subtotal, tax, amount, billing country, card brand and last four digits and when it was paid; never the buyer's e-mail. `merchantName` (the checkout's display name) is shown beside `sellerOfRecord` (the platform, which sold). `receiptId` is the payment's `transactionId` (UUID v7), `receiptNumber` the merchant's number beside it (`R-000123`); the processor's `pay_…` id is still accepted until 2027-01-15, with `Deprecation`, `Sunset` and `Link` headers. A receipt of another order or an unknown id is 404 `checkout.receipt_not_found`.",
    example: { params: { orderId: ids.paidOrderId, receiptId: ids.orderReceiptId } },
    errors: [
      {
        status: 410,
        code: 'checkout.receipt_id_retired',
        when: 'The receipt id is a processor `pay_…` id and it is 2027-01-15 or later: use the transaction id.',
      },
    ],
  },
  getCheckoutInvoice: {
    description:
      "Pays a customer invoice: answers the invoice's payable order in the shape of the order read, which the buyer then pays through `/checkout/orders/{orderId}/…`. The first call creates that order (the invoice's items, or one line for the whole amount, and the invoice's own tax), exactly once even under concurrent calls; later calls answer the same order. Once it is paid, the invoice is marked `paid`. An unknown or malformed id, or an invoice of the other deployment, is 404 `checkout.invoice_not_found`.",
    example: { params: { invoiceId: ids.payableInvoiceId } },
    errors: [
      {
        status: 422,
        code: 'checkout.invoice_not_payable',
        when: 'The invoice is not `open` or `past_due`, its currency is not a checkout currency, or its amount due is above 100000; `details.status` is its status, and nothing is written.',
      },
    ],
  },
  getCheckoutPlanPolicy: {
    description:
      "Sends the buyer to the plan seller's policy PDF: a 302 whose `location` is a fresh presigned link, valid five minutes, served inline as `application/pdf`. `policyType` is `terms`, `privacy`, `return-policy` or `eula`; the plan read's `policyDocuments` lists the ones there are.",
    example: { params: { planId: ids.checkoutPlanId, policyType: 'terms' } },
    errors: [
      {
        status: 404,
        code: 'checkout.plan_not_found',
        when: 'The plan cannot be bought: unknown, inactive, of an archived product or of the other deployment.',
      },
    ],
  },
  getCheckoutOrderPolicy: {
    description:
      "Sends the buyer to the order seller's policy PDF: a 302 whose `location` is a fresh presigned link, valid five minutes, served inline as `application/pdf`. `policyType` is `terms`, `privacy`, `return-policy` or `eula`; the order read's `policyDocuments` lists the ones there are.",
    example: { params: { orderId: ids.checkoutOrderId, policyType: 'terms' } },
    errors: [{ status: 404, code: 'checkout.order_not_found', when: 'No order of that id, or an order of the other deployment.' }],
  },
  getCheckoutImage: {
    description:
      "The bytes of a merchant's checkout logo or product image, with the content type its file signature gives (`image/png`, `image/jpeg` or `image/webp`), `nosniff` and `cache-control: public, max-age=31536000, immutable` (an image id never names another file). The checkout reads give these URLs (`customization.logoUrl`, `product.imageUrl`). An image over 4 MiB is a 302 to a five-minute storage link instead.",
    example: { params: { merchantId: ids.merchantId, imageId: ids.productImageId } },
  },
} satisfies FaceDocs<typeof checkoutRoutes>;
