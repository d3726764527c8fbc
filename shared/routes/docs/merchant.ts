/** The API reference's entries of the Merchant Public API (`shared/routes/merchant.ts`). */
import type { merchantRoutes } from '../merchant.ts';
import { exampleIds as ids } from './example-ids.ts';
import type { FaceDocs } from './types.ts';

const billingAddress = { country: 'US', state: 'CA', postalCode: '94103' };

export const merchantDocs = {
  createMerchant: {
    description:
      "Creates a sub-merchant beneath the calling key's merchant: the parent is always the key's merchant (a `parentId` in the body is refused), and only a root (partner) merchant may create them. With `ownerEmail`, the existing user who signs in with that e-mail becomes the owner at once; without it the answer carries a `joinLink` the future owner claims within 7 days. Poll `GET /merchants/{merchantId}` or listen for `merchant.owner_attached` to learn when it has been claimed.",
    example: { body: { name: 'Corner Shop', websiteUrl: 'https://corner-shop.example' } },
    errors: [
      {
        status: 409,
        code: 'merchant.parent_is_sub_merchant',
        when: "The key is a sub-merchant's: a sub-merchant cannot create merchants; use the partner's key.",
      },
      {
        status: 422,
        code: 'merchant.owner_not_found',
        when: 'No user signs in with `ownerEmail`: create the merchant without it and send its join link instead.',
      },
    ],
  },
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
      body: { email: 'buyer@example.com', quantity: 1, billingAddress },
    },
  },
  applyMerchantCheckoutPromoCode: {
    description:
      'Checks a promo code against the plan and quotes the discounted amounts for the quantity; with a billing address the quote includes tax. Nothing is charged and the code is not redeemed: it is redeemed only when a confirm pays with it, so a quote can be shown as often as needed.',
    example: {
      params: { merchantId: ids.merchantId, planId: ids.merchantPlanId },
      body: { code: 'WELCOME10', quantity: 1, billingAddress },
    },
    errors: [
      { status: 422, code: 'checkout.promo_code_not_found', when: 'No promo code of the merchant has this code.' },
      { status: 422, code: 'checkout.promo_code_inactive', when: 'The promo code was deactivated.' },
      { status: 422, code: 'checkout.promo_code_expired', when: 'The promo code has expired.' },
      { status: 422, code: 'checkout.promo_code_exhausted', when: 'The promo code has been redeemed as many times as it may be.' },
      { status: 422, code: 'checkout.promo_code_wrong_plan', when: 'The promo code is limited to other plans.' },
      { status: 422, code: 'checkout.promo_code_wrong_currency', when: "The promo code takes a fixed amount off in another currency than the plan's." },
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
      { status: 422, code: 'checkout.session_expired', when: 'The session is older than 60 minutes: start a new one.' },
      { status: 422, code: 'card_token.expired', when: 'The card token is older than 15 minutes: tokenize the card again.' },
      { status: 422, code: 'checkout.amount_over_limit', when: 'The amount due today is over 100000 in the currency.' },
      { status: 422, code: 'checkout.nothing_due_today', when: 'A plan sold once has nothing to charge.' },
      { status: 502, code: 'payment.processor_error', when: 'The processor failed: nothing was charged.' },
    ],
  },
  getMerchantCheckoutReceipt: {
    description:
      "The receipt of a paid checkout of the merchant's plan, by its transaction id (the confirm's `receiptId`): the lines paid today, discount, tax, amount and the card's brand and last four, never the buyer's e-mail; its `receiptNumber` (`R-000123`, per merchant), and the checkout's display name (`merchantName`) beside the platform as `sellerOfRecord`. A legacy `pay_…` id is still answered until 2027-01-15, with `Deprecation`, `Sunset` and a `Link` to the transaction id's URL.",
    example: { params: { merchantId: ids.merchantId, planId: ids.merchantPlanId, receiptId: ids.merchantReceiptId } },
    errors: [{ status: 410, code: 'checkout.receipt_id_retired', when: 'A legacy `pay_…` receipt id after 2027-01-15: use the transaction id.' }],
  },
  getMerchant: {
    description:
      'The merchant with `ownerAttached` and its activation checklist (`activation.steps`, matched by `key`: owner attached, website set, onboarding submitted, payout method added, gone live). A parent key reads its sub-merchants too. Poll it to learn when an owner has claimed a join link.',
    example: { params: { merchantId: ids.merchantId } },
  },
  updateMerchant: {
    description: "Sets the merchant's website URL (an https URL of at most 2048 characters), which completes the `website_set` activation step.",
    example: { params: { merchantId: ids.merchantId }, body: { websiteUrl: 'https://shop.acme.example' } },
  },
  listApiKeys: {
    description:
      "The merchant's keys: `id`, `name`, `hint` (the prefix and last four characters), `mode`, `createdAt`, `lastUsedAt` (updated at most once a minute) and `revokedAt`. A key itself is never shown again after its creation.",
    example: { params: { merchantId: ids.merchantId } },
  },
  createApiKey: {
    description:
      'Creates a key of the merchant (`mor_test_` + 64 hex on the sandbox, `mor_live_` on live). `apiKey` is in this answer only: only a hash of it is kept. A key made for a sub-merchant reaches that sub-merchant and nothing else.',
    example: { params: { merchantId: ids.merchantId }, body: { name: 'Production server' } },
  },
  revokeApiKey: {
    description:
      'Revokes a key of the merchant: it is refused with 401 from the next request on. Revoking a revoked key answers 204 again; an id that is not a key of this merchant is 404 `api_key.not_found`.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantApiKeyIdToDelete } },
  },
  mintJoinLink: {
    description:
      'Mints a new owner-claim link for a merchant that has no owner yet, valid for 7 days; every earlier link stops working. The person who opens it signs in or up on the dashboard and becomes the owner (`merchant.owner_attached` is sent).',
    example: { params: { merchantId: ids.ownerlessSubMerchantId } },
    errors: [{ status: 409, code: 'merchant.owner_already_attached', when: 'The merchant has an owner already: read the merchant instead.' }],
  },
  assignMember: {
    description:
      "Assigns a user of the parent merchant's team (by sign-in e-mail) to a sub-merchant. On a sub-merchant without an owner the user becomes its owner (no event is sent, and its join link stops working); otherwise they join with `role` (`admin` or `member`, default `member`).",
    example: { params: { merchantId: ids.memberSubMerchantId }, body: { email: 'ops.lead@acme.example', role: 'admin' } },
    errors: [
      { status: 409, code: 'member.already_assigned', when: 'The user is a member of this merchant already.' },
      { status: 422, code: 'merchant.not_a_sub_merchant', when: 'The merchant is a root merchant: members are assigned to sub-merchants only.' },
      { status: 422, code: 'member.not_in_parent_team', when: "No user of the parent merchant's team signs in with that e-mail." },
    ],
  },
  listMerchantProducts: {
    description:
      "The merchant's products (made through the organization API), newest first, with `merchantId`: filtered by `q` (part of the name or description, any case), `status`, `type` and a creation range (`dateRangeStart` ≤ `dateRangeEnd`), a page (`page` ≥ 1, `limit` 1–100) at a time.",
    example: { params: { merchantId: ids.merchantId }, query: { status: 'active', type: 'recurring', page: '1', limit: '20' } },
  },
  createProductImageUpload: {
    description:
      "The first step of adding an image to a product: a presigned `PUT` URL, valid 15 minutes, signed for the exact `contentType` (`image/png`, `image/jpeg` or `image/webp`) and `sizeBytes` (at most 5 MiB). Upload the file there with the answer's `headers`, then confirm the upload. A product holds at most 10 images.",
    example: { params: { merchantId: ids.merchantId, productId: ids.imageProductId }, body: { contentType: 'image/png', sizeBytes: 48213 } },
    // Written: a recorded answer would show the local storage server's URL, not the deployed bucket's.
    response: {
      uploadId: ids.imageUploadId,
      uploadUrl: `https://mor-sandbox-data-policybucket5e3a9c1f-1k2j3h4g5f6d.s3.eu-west-1.amazonaws.com/image-uploads/${ids.merchantId}/${ids.imageProductId}/${ids.imageUploadId}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=ASIAEXAMPLEKEYID4Q2A%2F20261130%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T101500Z&X-Amz-Expires=900&X-Amz-Signature=7d1c3e0b9a8f6e5d4c3b2a19087f6e5d4c3b2a19087f6e5d4c3b2a19087f6e5d&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost`,
      headers: { 'content-type': 'image/png', 'content-length': '48213' },
      expiresAt: '2026-11-30T10:30:00.000Z',
    },
    errors: [
      { status: 400, code: 'product_image.invalid_size', when: '`sizeBytes` is not a whole number of bytes of at least 1.' },
      { status: 409, code: 'product_image.limit_reached', when: 'The product holds 10 images already.' },
      { status: 422, code: 'product_image.unsupported_type', when: '`contentType` is not PNG, JPEG or WebP.' },
      { status: 422, code: 'product_image.too_large', when: '`sizeBytes` is over 5 MiB.' },
    ],
  },
  confirmProductImage: {
    description:
      "Checks an uploaded file (its size, and that its first bytes are a PNG, JPEG or WebP signature of the type it was uploaded as) and adds it to the product's `images`, served from the checkout's image URL; answers the product. A refused file is deleted; a second confirm of the same upload is 404 once the first has finished.",
    example: { params: { merchantId: ids.merchantId, productId: ids.imageProductId, uploadId: ids.imageUploadId } },
    errors: [
      {
        status: 404,
        code: 'product_image.upload_not_found',
        when: 'No uploaded file with this id waits for this product (never uploaded, expired or confirmed already).',
      },
      { status: 409, code: 'product_image.limit_reached', when: 'The product holds 10 images already.' },
      { status: 422, code: 'product_image.not_an_image', when: 'The file is not a PNG, JPEG or WebP image of the type it was uploaded as; it was deleted.' },
      { status: 422, code: 'product_image.too_large', when: 'The uploaded file is over 5 MiB; it was deleted.' },
    ],
  },
  listMerchantCustomers: {
    description:
      "The merchant's customers, newest first: the organization API's customer records with `merchantId`. `search` matches part of the full name, the e-mail or the customer's organization, any case; a page (`page` ≥ 1, `limit` 1–100) at a time.",
    example: { params: { merchantId: ids.merchantId }, query: { search: 'hopper', page: '1', limit: '20' } },
  },
  getMerchantCustomer: {
    description:
      "One of the merchant's customers, as the organization API shows it (lifetime revenue, primary payment instrument, address), with `merchantId`.",
    example: { params: { merchantId: ids.merchantId, id: ids.customerId } },
  },
  listMerchantInvoices: {
    description:
      "The merchant's customer invoices (made through the organization API and by subscription charges), newest first: filtered by `status` (`past_due` is an `open` invoice past its due date, computed on each read) and `search` (part of the number, the buyer's name or the customer id), a page (`page` ≥ 1, `limit` 1–100) at a time.",
    example: { params: { merchantId: ids.merchantId }, query: { status: 'paid', page: '1', limit: '20' } },
  },
  getMerchantInvoice: {
    description:
      "One of the merchant's customer invoices: number, status, dates, items with their tax, buyer, the platform as seller of record, and totals in major units.",
    example: { params: { merchantId: ids.merchantId, id: ids.issuedInvoiceId } },
  },
  downloadMerchantInvoice: {
    description:
      'The invoice as a PDF (`content-disposition: attachment; filename="<number>.pdf"`, `<id>.pdf` for a draft): the platform as seller of record, the merchant it sells for, the buyer, the dates, the items with their tax and the totals. A one-page invoice is about 11 KB.',
    example: { params: { merchantId: ids.merchantId, id: ids.issuedInvoiceId } },
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
  getBalanceSummary: {
    description:
      "The merchant's balances in major units, one entry per currency it ever had money in: `available` (payable out), `pending` (a payment's net during its 7-day hold), `reserved` (held for open disputes), `inTransit`, `paidOut` and `owed` (refunds or disputes the available funds did not cover).",
    example: { params: { merchantId: ids.merchantId } },
  },
  listMerchantPayoutMethods: {
    description:
      "The merchant's payout methods (bank accounts added through the organization API), newest first; only the last four characters of an account number are ever kept. A method is `verified` at once on the sandbox.",
    example: { params: { merchantId: ids.merchantId } },
  },
  requestPayout: {
    description:
      "Pays available funds out to a payout method, in its currency; without `amount`, everything available in that currency (at least one major unit). Only the merchant's own key may ask (a parent's key gets 403). `Idempotency-Key` is required: the same key and body answer the original withdrawal with `Idempotent-Replayed: true`. The withdrawal starts `pending`; on the sandbox it moves only through the advance route.",
    example: {
      params: { merchantId: ids.merchantId },
      headers: { 'Idempotency-Key': 'payout-2026-11-30' },
      body: { payoutMethodId: ids.eurPayoutMethodId, amount: 50, currency: 'EUR' },
    },
    errors: [
      { status: 400, code: 'request.idempotency_key_required', when: 'No `Idempotency-Key` header.' },
      { status: 400, code: 'request.invalid_idempotency_key', when: 'The `Idempotency-Key` is empty, over 255 characters or not printable ASCII.' },
      { status: 409, code: 'idempotency.in_progress', when: 'The first request with this key is still being processed.' },
      { status: 409, code: 'payout.conflict', when: 'Other writes to the same funds kept conflicting: send the same request again.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The key was used with another body.' },
      { status: 422, code: 'payout.insufficient_funds', when: 'The amount is more than available (`details.available`).' },
      { status: 422, code: 'payout.currency_mismatch', when: "`currency` is not the payout method's." },
      { status: 422, code: 'payout.unknown_payout_method', when: 'The merchant has no payout method with this id (or it was removed).' },
      { status: 422, code: 'payout.payout_method_not_verified', when: 'The payout method is still `pending` verification.' },
      { status: 422, code: 'payout.amount_below_minimum', when: 'The amount is under one major unit.' },
    ],
  },
  listMerchantPayouts: {
    description:
      "The merchant's withdrawals, newest first, with their statuses (`pending`, `in_transit`, `paid`, `failed`, `canceled`), a page (`page` ≥ 1, `limit` 1–100) at a time. A parent's key may read its sub-merchants'.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getMerchantPayout: {
    description:
      "One withdrawal of the merchant: amount, currency, the payout method and its last four, status and, once sent, the bank's reference (`externalWithdrawalId`).",
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.withdrawalId } },
  },
  advancePayout: {
    description:
      'Sandbox only (not routed on live): moves a withdrawal as the bank would — `pending` → `in_transit` (with a bank reference and the `payout.sent` event) → `paid`, or from `pending` or `in_transit` to `failed` or `canceled` (the amount goes back to available). `paid`, `failed` and `canceled` are final.',
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.pendingWithdrawalId }, body: { to: 'in_transit' } },
    errors: [
      { status: 409, code: 'payout.invalid_transition', when: "The withdrawal's status does not allow that move (`details.status`)." },
      { status: 409, code: 'payout.conflict', when: 'Other writes to the same payout kept conflicting: send the same request again.' },
    ],
  },
  listMerchantEvents: {
    description:
      "Every event of the merchant of the last 30 days (the event history's lifetime), newest first, with the exact JSON body its webhooks carried (`payload`) and, per destination subscribed to its type, what happened: `delivered` (2xx), `failed` (another status, a timeout or a network error; `error` says which), `skipped` (the circuit was open) or `pending`. Webhooks are attempted once and never re-sent: this is how a receiver that was down finds what it missed. Narrow by `type` (one or more, comma-separated) and `createdFrom` / `createdTo` (inclusive); page with `limit` (1–100) and the answer's `nextCursor`. A sub-merchant's events are listed under its own id.\n\nThe order is the order the events were written: their ids are UUID v7, and `createdAt` (real time) is the time in the id. `occurredAt` is when it happened: on the sandbox, what the organization's test clock made (a renewal, a trial's end) is dated in the clock's time, which may be days or months ahead; otherwise it is real time, `createdAt` or a moment before. No clock moves an event in the list, so a poller keeps its place by id: `after=<the last id it has>` lists only the events written after that one (newest first, paged by `nextCursor` as any list). An event written in a slow transaction can be listed a moment after a later id, so re-read a short overlap (`admin listen` keeps 30 s) and drop the ids already handled.",
    example: { params: { merchantId: ids.merchantId }, query: { type: 'payment.completed,payment.refunded', limit: '20' } },
  },
  getMerchantEvent: {
    description:
      "One event of the merchant: the id is the one every delivery of it carries in `X-Webhook-Id`, the same on every destination, so a receiver can deduplicate and look an event up. An id that is unknown, another merchant's or older than 30 days answers the same 404.",
    example: { params: { merchantId: ids.merchantId, eventId: ids.eventId } },
  },
} satisfies FaceDocs<typeof merchantRoutes>;
