/** The API reference's entries of the catalog routes (`shared/catalog/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import {
  customFieldInvalid,
  planInvalidForProduct,
  promoPlanNotFound,
  promoCurrencyMismatch,
  promoNothingToCharge,
} from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const catalogDocs = {
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
  listProducts: {
    description:
      "Lists the organization's products, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`). `search` is a case-insensitive substring of the name or the description; `updatedFrom`/`updatedTo` bound `updatedAt`. Archived products are listed too.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'seat', sortBy: 'updatedAt', limit: '20' } },
  },
  createProduct: {
    description:
      "Creates an `active` product; only `name` is required and `type` defaults to `one-time` (`recurring` products take plans with a billing interval). `customFields` are checked against the organization's fields for `products`, and defaults are filled in. The same product is listed by the merchant API (the organization is the merchant).",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        product: {
          name: 'Pro seat',
          unitLabel: 'seat',
          description: 'One seat of the Pro plan, billed per user.',
          type: 'recurring',
          customFields: { tier: 'gold' },
        },
      },
    },
    errors: [customFieldInvalid('products')],
  },
  getProduct: {
    description: "Reads one of the organization's products. An unknown id, a malformed one and another organization's product all get 404 `product.not_found`.",
    example: { params: { organizationId: ids.organizationId, productId: ids.productId } },
  },
  updateProduct: {
    description:
      'Changes only the fields given in `product` (at least one); `null` clears an optional field, and `recognition` and `customFields` are replaced as a whole. `status` may archive a product (`archived`) or bring it back. `type` cannot change once the product has plans.',
    example: {
      params: { organizationId: ids.organizationId, productId: ids.productId },
      body: { product: { description: 'One seat of the Pro plan, with priority support.', accountingCode: '4000-SAAS' } },
    },
    errors: [customFieldInvalid('products'), { status: 409, code: 'product.type_locked', when: '`type` would change on a product that has plans.' }],
  },
  deleteProduct: {
    description:
      'Deletes a product that has no plans and answers `{"success": true}`; a product with plans is archived instead and answered: its plans stay, but checkout no longer sells them and no new plan can be made on it. Archiving an archived product changes nothing.',
    example: { params: { organizationId: ids.organizationId, productId: ids.productIdToDelete } },
  },
  listPlans: {
    description:
      "Lists the organization's plans, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`); `search` is a case-insensitive substring of the plan's name, `updatedFrom`/`updatedTo` bound `updatedAt`. Prices are in major units.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'monthly', limit: '20' } },
  },
  createPlan: {
    description:
      "Creates a plan (revision 1) on an active product of the organization: what buyer checkout sells and subscriptions bill. Prices are major units with no more decimals than `currency` has. A recurring product's plan needs `recurringInterval` (at most three years); a one-time product's plan takes neither an interval nor a trial. `currency` and `productId` never change afterwards.",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        name: 'Pro monthly',
        currency: 'USD',
        productId: ids.productId,
        pricing: { price: 19.99, formula: 'fixed-fee' },
        recurringInterval: { unit: 'month', length: 1 },
        trial: { unit: 'day', length: 14 },
      },
    },
    errors: [
      { status: 404, code: 'product.not_found', when: '`productId` is not a product of this organization.' },
      { status: 422, code: 'plan.product_archived', when: 'The product is archived: plans can only be made on active products.' },
      planInvalidForProduct,
      customFieldInvalid('plans'),
      { status: 409, code: 'plan.product_changed', when: "The product's type changed while the plan was being created; read the product and retry." },
      { status: 409, code: 'plan.product_busy', when: 'Other plans were being created on the same product at that moment; retry.' },
    ],
  },
  getPlan: {
    description:
      "Reads one of the organization's plans, with its current `revision`. An unknown, malformed or another organization's id is 404 `plan.not_found`.",
    example: { params: { organizationId: ids.organizationId, planId: ids.planId } },
  },
  updatePlan: {
    description:
      "Changes the given fields (at least one) and raises `revision` by one. Send the `revision` you read for optimistic concurrency: of two concurrent updates one wins and the other gets 409, so no change is lost. `customFields` merge into the plan's values (`null` removes one). Plans are never deleted: set `isActive: false`.",
    example: { params: { organizationId: ids.organizationId, planId: ids.planId }, body: { pricing: { price: 24.99 }, revision: 1 } },
    errors: [
      {
        status: 409,
        code: 'plan.revision_conflict',
        when: "The body's `revision` is not the current one, or another update won; `details` gives the current revision.",
      },
      planInvalidForProduct,
      customFieldInvalid('plans'),
    ],
  },
  listPromoCodes: {
    description:
      "Lists the organization's promo codes, newest first by default (`sortBy`, `sortDirection`, `limit` 0–100, `offset`); `search` matches the code in any case, `updatedFrom`/`updatedTo` bound `updatedAt`. `timesRedeemed` shows how often checkout has redeemed each.",
    example: { params: { organizationId: ids.organizationId }, query: { search: 'summer' } },
  },
  createPromoCode: {
    description:
      'Creates a promo code with exactly one discount: `percentOff` (more than 0, at most 100, at most two decimals), or `amountOff` with its `currency` (major units). The code is unique in the organization regardless of case. `planIds` limits it to some plans (empty: every plan); a 100 % code may list no plan sold once without a setup fee, since it would take every purchase of it to nothing and checkout cannot take a payment of nothing (an amount off that would take a one-time purchase to nothing is refused by checkout, 422 `checkout.nothing_due_today`, where the buyer types the code). `expiresAt` and `maxRedemptions` are optional. The code and its discount never change afterwards.',
    example: {
      params: { organizationId: ids.organizationId },
      body: { code: 'EARLYBIRD30', percentOff: 30, planIds: [ids.planId], expiresAt: '2030-09-01T00:00:00Z', maxRedemptions: 500 },
    },
    errors: [
      { status: 409, code: 'promo_code.code_taken', when: 'The organization has this code already, in any case.' },
      promoPlanNotFound,
      promoCurrencyMismatch,
      promoNothingToCharge,
    ],
  },
  getPromoCode: {
    description:
      "Reads one of the organization's promo codes, with `timesRedeemed`. An unknown, malformed or another organization's id is 404 `promo_code.not_found`.",
    example: { params: { organizationId: ids.organizationId, promoCodeId: ids.promoCodeId } },
  },
  updatePromoCode: {
    description:
      'Changes `isActive`, `expiresAt`, `maxRedemptions` or `planIds` (at least one); `null` clears `expiresAt` and `maxRedemptions`, and `planIds` replaces the list with the same checks as on create. The code and its discount cannot change: deactivate it and create another.',
    example: {
      params: { organizationId: ids.organizationId, promoCodeId: ids.promoCodeId },
      body: { maxRedemptions: 1000, expiresAt: '2030-12-31T23:59:59Z' },
    },
    errors: [
      { status: 409, code: 'promo_code.below_redemptions', when: '`maxRedemptions` is below the redemptions made already.' },
      promoPlanNotFound,
      promoCurrencyMismatch,
      promoNothingToCharge,
    ],
  },
} satisfies ModuleDocs<typeof routes>;
