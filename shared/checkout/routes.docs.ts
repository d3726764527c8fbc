/** The API reference's entries of the checkout routes (`shared/checkout/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import {
  merchantBillingAddress,
  billingAddress,
  taxUnavailable,
  notLive,
  confirmKeyReused,
  examplePromoCode,
  promoRefusals,
  cardRefusals,
  pageShell,
} from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const checkoutDocs = {
  getMerchantCheckoutPlan: {
    description:
      "The merchant's plan exactly as the buyer checkout shows it (`GET /api/v1/checkout/plans/{planId}`): the plan (price, interval, trial, setup fee) and its product, the policies, the merchant's checkout customization and what the page needs to mount the hosted fields — for a merchant's own back end that builds its checkout page. The plan must be the merchant's, active, and of an active product; anything else answers 404 `checkout.plan_not_found`, as an unknown id does.",
    example: { params: { merchantId: ids.merchantId, planId: ids.merchantPlanId } },
  },
  createMerchantCheckoutSession: {
    description:
      "Starts a checkout of the merchant's plan for a buyer: the buyer's e-mail, the quantity and the billing address (which decides the tax). The session (`cs_…`) can be confirmed for 60 minutes; the answer also carries a client token (`mor_ct_…`) for the hosted card fields in the buyer's browser. Nothing is charged and nothing is reserved.",
    example: {
      params: { merchantId: ids.merchantId, planId: ids.merchantPlanId },
      body: { email: 'buyer@example.com', quantity: 1, billingAddress: merchantBillingAddress },
    },
  },
  applyMerchantCheckoutPromoCode: {
    description:
      'Checks a promo code against the plan and quotes the discounted amounts for the quantity; with a billing address the quote includes tax. Nothing is charged and the code is not redeemed: it is redeemed only when a confirm pays with it, so a quote can be shown as often as needed.',
    example: {
      params: { merchantId: ids.merchantId, planId: ids.merchantPlanId },
      body: { code: 'WELCOME10', quantity: 1, billingAddress: merchantBillingAddress },
    },
    errors: [
      { status: 422, code: 'checkout.promo_code_not_found', when: 'No promo code of the merchant has this code.' },
      { status: 422, code: 'checkout.promo_code_inactive', when: 'The promo code was deactivated.' },
      { status: 422, code: 'checkout.promo_code_expired', when: 'The promo code has expired.' },
      { status: 422, code: 'checkout.promo_code_exhausted', when: 'The promo code has been redeemed as many times as it may be.' },
      { status: 422, code: 'checkout.promo_code_wrong_plan', when: 'The promo code is limited to other plans.' },
      { status: 422, code: 'checkout.promo_code_wrong_currency', when: "The promo code takes a fixed amount off in another currency than the plan's." },
      { status: 422, code: 'checkout.nothing_due_today', when: 'The code takes a plan sold once to nothing, which could not be paid.' },
    ],
  },
  confirmMerchantCheckout: {
    description:
      "Pays a checkout session of the merchant's plan with exactly one of a card `token` (from the hosted fields) or a saved `paymentInstrumentId` of the merchant's customer — the merchant API alone may charge a saved card. A session is paid once: the same confirm again replays its answer and never charges twice. A recurring plan starts a subscription (`subscriptionId`); with nothing due today (a trial without a setup price) its `trial` says when the trial ends and what its first charge will be. The answer's `receiptUrl` is the merchant API's receipt. Emits `payment.completed` (or `payment.failed`), and `subscription.created` for a recurring plan.",
    example: {
      params: { merchantId: ids.merchantId, planId: ids.merchantPlanId },
      body: { sessionId: ids.merchantCheckoutSessionId, paymentInstrumentId: ids.buyerPaymentInstrumentId },
    },
    errors: [
      { status: 402, code: 'payment.declined', when: 'The card was declined (`details.declineCode`); the session is open again for another card.' },
      { status: 404, code: 'checkout.session_not_found', when: 'No session with this id for this plan: start a new one.' },
      { status: 404, code: 'payment_instrument.not_found', when: 'No saved card of the merchant has this id, or it was removed.' },
      { status: 404, code: 'card_token.not_found', when: 'No card token of the merchant has this id.' },
      { status: 409, code: 'card_token.already_used', when: 'The card token paid something already: tokenize the card again.' },
      { status: 409, code: 'checkout.session_already_paid', when: 'The session has been paid.' },
      { status: 409, code: 'checkout.payment_in_progress', when: 'Another payment of this session is being processed: wait for its result.' },
      {
        status: 409,
        code: 'checkout.price_changed',
        when: "The plan's price, setup price, billing cycle, trial or currency changed after the session began: nothing was charged; start a new session.",
      },
      { status: 422, code: 'checkout.session_expired', when: 'The session is older than 60 minutes: start a new one.' },
      { status: 422, code: 'card_token.expired', when: 'The card token is older than 15 minutes: tokenize the card again.' },
      { status: 422, code: 'checkout.amount_over_limit', when: 'The amount due today is over 100000 in the currency.' },
      { status: 422, code: 'checkout.nothing_due_today', when: 'A plan sold once has nothing to charge.' },
      confirmKeyReused,
      notLive,
      { status: 502, code: 'payment.processor_error', when: 'The processor failed: nothing was charged.' },
    ],
  },
  getMerchantCheckoutReceipt: {
    description:
      "The receipt of a paid checkout of the merchant's plan, by its transaction id (the confirm's `receiptId`): the lines paid today, discount, tax, amount and the card's brand and last four, never the buyer's e-mail; its `status` and `refundedAmount` once refunds gave part or all of it back (the receipt stays); its `receiptNumber` (`R-000123`, per merchant), and the checkout's display name (`merchantName`) beside the platform as `sellerOfRecord`. A legacy `pay_…` id is still answered until 2027-01-15, with `Deprecation`, `Sunset` and a `Link` to the transaction id's URL.",
    example: { params: { merchantId: ids.merchantId, planId: ids.merchantPlanId, receiptId: ids.merchantReceiptId } },
    errors: [{ status: 410, code: 'checkout.receipt_id_retired', when: 'A legacy `pay_…` receipt id after 2027-01-15: use the transaction id.' }],
  },
  createOrder: {
    description:
      'Creates an immutable order a buyer pays at `/checkout/orders/{orderId}`: 1 to 100 lines in one currency, each a plan of the merchant (its current price and name) or a custom line; amounts are computed in minor units and answered in major units, and the total is at most 100000. An optional `Idempotency-Key` (1–255 printable ASCII characters) makes a retry answer the original order with `Idempotent-Replayed: true` — the body is not compared, so never reuse a key for another order.',
    example: {
      params: { merchantId: ids.merchantId },
      headers: { 'Idempotency-Key': 'cart-4711' },
      body: {
        currency: 'USD',
        customerEmail: 'buyer@example.com',
        lines: [
          { planId: ids.merchantPlanId, quantity: 3 },
          { description: 'Gift wrap', unitAmount: 0.1, quantity: 3 },
        ],
      },
    },
    errors: [
      { status: 400, code: 'request.invalid_idempotency_key', when: 'The `Idempotency-Key` is empty, over 255 characters or not printable ASCII.' },
      { status: 409, code: 'idempotency.in_progress', when: 'A request with the same key is still being written: retry it.' },
      { status: 422, code: 'order.plan_not_found', when: 'A line names a plan the merchant does not have (`details.line`, `details.planId`).' },
      { status: 422, code: 'order.plan_inactive', when: 'A line names an archived plan.' },
      { status: 422, code: 'order.plan_currency_mismatch', when: "A line's plan is priced in another currency than the order's." },
      { status: 422, code: 'order.total_not_positive', when: 'The total is zero.' },
      { status: 422, code: 'order.amount_over_limit', when: 'The total is over 100000 in the currency.' },
    ],
  },
  getOrder: {
    description: "One of the merchant's orders, with its lines, totals and status (and, once paid, when and by which transaction).",
    example: { params: { merchantId: ids.merchantId, orderId: ids.orderId } },
  },
  getCheckoutPolicies: {
    description:
      "The organization's seller policies as buyers see them at checkout: the four URLs (`termsUrl`, `privacyUrl`, `returnPolicyUrl`, `eulaUrl`, null when not set) and `documents`, the policy PDFs uploaded (type, size, upload time).",
    example: { params: { organizationId: ids.organizationId } },
  },
  updateCheckoutPolicies: {
    description:
      'Sets the URL policies given (at least one): each an `https://` URL of at most 2048 characters, or `null` to clear it; a field left out keeps its value. Answers the policies as they are then, documents included.',
    example: {
      params: { organizationId: ids.organizationId },
      body: { termsUrl: 'https://acme.example/legal/terms', privacyUrl: 'https://acme.example/legal/privacy', eulaUrl: null },
    },
  },
  createCheckoutPolicyUpload: {
    description:
      "A presigned PUT URL, valid 15 minutes, for the organization's PDF of `policyType` (`terms`, `privacy`, `return-policy` or `eula`) of exactly `size` bytes (at most 10 MiB). PUT the file to `uploadUrl` with exactly the `headers` answered: the content type and length are signed, so storage refuses anything else. A new upload replaces the previous PDF of that type.",
    example: { params: { organizationId: ids.organizationId, policyType: 'terms' }, body: { size: 48213 } },
    // Written: the local stack's answer points at its own storage server.
    response: {
      type: 'object',
      data: {
        policyType: 'terms',
        uploadUrl: `https://mor-sandbox-data-policybucket5f3a9c1e-1k2l3m4n5o6p.s3.us-east-1.amazonaws.com/policies/${ids.organizationId}/terms.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=ASIAQ3EGV7ZK5EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T210236Z&X-Amz-Expires=900&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEXAMPLE&X-Amz-Signature=758bc5723be8b3bf691ccde86b6e42cc17e34ab398ac239de8a5fd87e9bc4811&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost`,
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': '48213' },
        maxBytes: 10485760,
        expiresAt: '2026-11-26T21:17:36.000Z',
      },
    },
  },
  deleteCheckoutPolicyDocument: {
    description: "Removes the organization's PDF of `policyType`; buyers then get 404 for it at checkout. The URL policy of that type, if any, stays.",
    example: { params: { organizationId: ids.organizationId, policyType: 'terms' } },
    errors: [{ status: 404, code: 'checkout_policies.document_not_found', when: 'The organization has no PDF of this type.' }],
  },
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
      'Checks a promo code against the plan and quotes the discounted amounts: the code applies to the plan line only when it is paid today (never the setup price, nor the first charge after a trial: on a plan with a trial the discount is 0), a percentage rounded half to even, an amount off at most the line. With a billing address the quote includes tax on the discounted amounts, else its tax fields are null. Nothing is charged or redeemed here: the confirm redeems the code. Refusals are checked in the order listed and their `message` can be shown to the buyer as is.',
    example: { params: { planId: ids.checkoutPlanId }, body: { code: examplePromoCode, quantity: 1, billingAddress } },
    errors: [
      ...promoRefusals,
      taxUnavailable,
      { status: 422, code: 'checkout.nothing_due_today', when: 'The code takes a plan sold once to nothing, which could not be paid.' },
    ],
  },
  confirmCheckoutPlan: {
    description:
      "Pays the session with the card token the hosted fields made (a public route never charges a saved card), redeeming the promo code if one is sent and it discounts what is due today, and charges what is due today plus tax for the billing address (the session's, or the one sent here). The same confirm again replays its answer and never charges twice; concurrent confirms of one session charge once (the others get 409). A recurring plan starts its subscription (`subscriptionId`) and saves the card for its renewals; with nothing due today (a trial without a setup price) nothing is charged and the answer has no transaction or receipt, but its `trial` says when the trial ends and what its first charge will be (price × quantity plus tax for the billing address); a promo code that takes the first period to nothing starts it with nothing charged too, redeemed, its `discount` and `promoCode` in the answer. A completed payment emits `payment.completed` (and `customer.created` for a new buyer, `subscription.created` for a subscription); a decline emits `payment.failed`.",
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
      {
        status: 409,
        code: 'checkout.price_changed',
        when: "The plan's price, setup price, billing cycle, trial or currency changed after the session began: nothing was charged; start a new session.",
      },
      { status: 422, code: 'checkout.session_expired', when: 'The session is older than its 60 minutes: start a new one.' },
      { status: 422, code: 'checkout.nothing_due_today', when: 'A plan sold once has nothing to charge today.' },
      ...promoRefusals,
      taxUnavailable,
      confirmKeyReused,
      notLive,
      ...cardRefusals,
    ],
  },
  getCheckoutPlanReceipt: {
    description:
      "The receipt of a completed checkout payment of the plan: what was paid today (lines, subtotal, discount, tax, amount), the promo code, the billing country, the card's brand and last four digits and when it was paid; never the buyer's e-mail. A refunded payment keeps its receipt: `status` becomes `partially-refunded` or `refunded`, and `refundedAmount` says what was given back. Its seller: `merchantName`, the name the checkout showed (the merchant's display name), beside `sellerOfRecord`, the platform's legal entity that sold. `receiptId` is the payment's `transactionId` (UUID v7); `receiptNumber` is the merchant's human number beside it (`R-000123`, per merchant, never given twice). The processor's `pay_…` id is still accepted until 2027-01-15, answered with `Deprecation`, `Sunset` and a `Link` to this URL. A receipt of another plan, an incomplete payment or an unknown id is 404 `checkout.receipt_not_found`.",
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
      { status: 409, code: 'checkout.payment_in_progress', when: 'Another confirm of the order is being paid: wait for its result.' },
      { status: 422, code: 'checkout.order_not_payable', when: "The order's customer invoice was voided or marked uncollectible: it can no longer be paid." },
      taxUnavailable,
      confirmKeyReused,
      notLive,
      ...cardRefusals,
    ],
  },
  getCheckoutOrderReceipt: {
    description:
      "The receipt of the order's completed payment: the lines paid, subtotal, tax, amount, billing country, card brand and last four digits and when it was paid; never the buyer's e-mail; `status` and `refundedAmount` once refunds gave part or all of it back (the receipt stays). `merchantName` (the checkout's display name) is shown beside `sellerOfRecord` (the platform, which sold). `receiptId` is the payment's `transactionId` (UUID v7), `receiptNumber` the merchant's number beside it (`R-000123`); the processor's `pay_…` id is still accepted until 2027-01-15, with `Deprecation`, `Sunset` and `Link` headers. A receipt of another order or an unknown id is 404 `checkout.receipt_not_found`.",
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
  checkoutPlanPage: {
    description:
      'The hosted checkout page of a plan, on the platform\'s own origin: an HTML shell (no table read, cacheable for 5 minutes) whose script reads the plan through the buyer checkout API and lets the buyer see the price and tax, apply a promo code, start a session and pay in the hosted card fields. Any id gets the shell; an unknown plan shows "Checkout not found". Its Content Security Policy allows nothing from another origin, and the page cannot be framed. The example below is abbreviated.',
    example: { params: { planId: ids.checkoutPlanId } },
    response: pageShell,
  },
  checkoutOrderPage: {
    description:
      'The hosted checkout page of an order: an HTML shell (no table read, cacheable for 5 minutes) whose script reads the order through the buyer checkout API, shows its lines, tax and the seller\'s policy PDFs, and lets the buyer pay in the hosted card fields; a paid order shows "Already paid". Any id gets the shell. Its Content Security Policy allows nothing from another origin, and the page cannot be framed. The example below is abbreviated.',
    example: { params: { orderId: ids.checkoutOrderId } },
    response: pageShell,
  },
  checkoutPageScript: {
    description:
      "The one script of the hosted checkout pages (bundled and minified): it reads the plan or order id from the page's path, calls the buyer checkout API on the same origin, mounts the hosted fields and sends only card tokens to the confirm. It logs and stores nothing. The example below is abbreviated.",
    example: {},
    response: '"use strict";(()=>{var me="/api/v1/checkout",…})();\n',
  },
} satisfies ModuleDocs<typeof routes>;
