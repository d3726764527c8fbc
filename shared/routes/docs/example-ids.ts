/**
 * The ids the API reference's examples use. They look like real ones; the example test
 * (`test/e2e/openapi-examples.test.ts`) creates a fixture and swaps each for the id of the fixture's record of that
 * kind, so every example is sent as written, only with live ids. An example that destroys what it names (a DELETE, a
 * revoke) uses an id of its own (`…ToDelete`), so the fixture gives it a record no other example needs.
 */
export const exampleIds = {
  merchantId: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70',
  subMerchantId: '0193a6f2-7d20-7e51-8b6c-1a2b3c4d5e6f',
  organizationId: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70',
  accountId: '6d0c3b2a-91f4-4e57-8c2d-3b9a7e1f0c55',
  productId: 'prod_5f3b9c2a7d1e4f60a8b2c3d4e5f60718',
  planId: 'plan_8c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f',
  orderId: 'ord_2b7e1f9c3d4a5b6c7d8e9f0a1b2c3d4e',
  customerId: 'cus_7a1b2c3d4e5f60718293a4b5c6d7e8f9',
  transactionId: '0193a6f3-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  withdrawalId: 'po_4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f',
  /** The e-mail address of the merchant's owner (the person whose session and OAuth sign-in the examples use). */
  ownerEmail: 'ada.lovelace@example.com',
  /** A registered public OAuth client, its redirect URI `http://127.0.0.1:8765/callback`. */
  oauthClientId: 'oac_3e9f1c7a5b2d4e6f8091a2b3c4d5e6f7',
  oauthRefreshToken: 'mor_ort_test_otf_9a8b7c6d5e4f3a2b1c0d9e8f_5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
  oauthAccessTokenToRevoke: 'mor_oat_test_otf_1f2e3d4c5b6a79880f1e2d3c_7b52009b64fd0a2a49e6d8a939753077792b0554d8a9f6e3c1b2a3d4e5f60718',
  mcpTokenIdToDelete: 'mcp_0a1b2c3d4e5f6a7b8c9d0e1f',
  // Buyer checkout (shared/routes/docs/checkout.ts): a plan and an open order of the merchant, each with an unused
  // card token to pay it with (and the plan with an open session), a paid order, two receipts, an open invoice, an image.
  checkoutPlanId: 'plan_fccdcbbd36fc22d0220c03149468dc3f',
  buyerCheckoutSessionId: 'cs_5d28c83138870f931b2e2ffc76ff02eb',
  planConfirmTokenId: 'tok_8Hq3ZkP2mW7xR4vN1cT6yB9d',
  planReceiptId: '0193a6f4-2b3c-7d4e-9f50-6a7b8c9d0e1f',
  checkoutOrderId: 'ord_466a94fb33dfeb6694616b63440d0342',
  orderConfirmTokenId: 'tok_3Lm9QwE5rT2yU8iO4pA7sD1f',
  paidOrderId: 'ord_a36ce43661074f41cecfaf9bcc94036a',
  orderReceiptId: '0193a6f4-8c9d-7e0f-a1b2-3c4d5e6f7a8b',
  payableInvoiceId: 'inv_ff3783cfd3b45ecd7e3e4180c0028a29',
  productImageId: 'img_7b7645fd94ddc62e951243a836aa4f59',
  // Dashboard back end (shared/routes/docs/dashboard.ts)
  /** A session of its own, which the sign-out example ends (the examples' session is the owner's). */
  sessionTokenToEnd: 'mor_sess_491d26bcbd5d89c66cfed76c104db379679907602c13e3201ef8e3b2673143e2',
  /** The owner-claim join link of a sub-merchant without an owner (`<merchantId>.<64 hex>`). */
  joinLinkToken: '0193a6f5-0c1d-7e2f-8a3b-4c5d6e7f8a9b.c7f5cee0400464f35a3f046e8675dd1f2c7fb3f26c8e131e135ebf022c0d3bd0',
  teamMemberUserId: '3f1e2d4c-5b6a-4978-8a1b-2c3d4e5f6a7b',
  teamMemberUserIdToDelete: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968',
  merchantWebhookDestinationId: 'wh_5dcde5375becc075b796ba41',
  merchantWebhookDestinationIdToDelete: 'wh_10dcd0541644824e47e0761e',
  /** A completed card payment the dashboard's refund example refunds part of. */
  refundableTransactionId: '0193a6f3-9b8c-7d6e-8f5a-4b3c2d1e0f9a',
  payoutId: 'po_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a',
} as const;

/** The origin of the deployment in the examples (the recorded answers name the local stack's origin as this one). */
export const exampleOrigin = 'https://api.example.com';

export type ExampleIdName = keyof typeof exampleIds;
