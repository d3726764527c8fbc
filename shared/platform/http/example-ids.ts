/**
 * The ids the API reference's examples use. They look like real ones; the example test
 * (`test/routes/e2e/openapi-examples.test.ts`) creates a fixture and swaps each for the id of the fixture's record of that
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
  // Organization API: accounts and keys, linked accounts, websites, catalog, payout methods
  orgApiKeyId: '62a086eb-959f-48d1-87e5-0f6fe96f37c1',
  orgApiKeyIdToRotate: '54941cb5-3821-4856-8b81-754444fb7565',
  orgApiKeyIdToDelete: 'ef2e7541-0a8b-4132-8639-5ae358728794',
  accountIdToActivate: '6be08478-942d-45ba-ae25-262e49c7cc88',
  accountIdForNewSecret: 'c8978c88-3d56-4ddb-a095-d26f80e07c41',
  linkedAccountId: '6b8cb907-8aae-459f-ad6c-62e85250e470',
  accountIdToLink: '6b65add4-7a4e-49ca-8487-fb5bd85356e1',
  websiteId: 'web_3d8ab43e9ce417bf6c2a81ab9f27bdc9',
  websiteIdToDelete: 'web_2c3a804cfd2b40068681c7b1f512cfe2',
  productIdToDelete: 'prod_d2f73af1326fbe1d54220273240fab25',
  promoCodeId: 'promo_242bdf2d262967d1ebb6e84137cd26f6',
  payoutMethodIdToDelete: 'pom_54e98e52044f23184782101ee536e710',
  /** A card token of the organization (read; using it up is `tokenIdToAttach`'s). */
  tokenId: 'tok_96vX7yCCfoPkxnGEmagZtuyw',
  /** An unused card token: attaching it uses it up. */
  tokenIdToAttach: 'tok_nZC0z6OCdI223ahPLPTXIbS9',
  /** A card saved for the customer `customerId`. */
  paymentInstrumentId: 'inst_1e5cbd12c3556c7fb15a4292cd6387b3',
  /** A captured payment that the refund examples give part of back. */
  transactionIdToRefund: '0193a6f3-2b3c-7d4e-9f50-6a7b8c9d0e1f',
  /** A captured payment without a dispute or refunds: the dispute create example disputes it. */
  transactionIdToDispute: '0193a6f3-4d5e-7f60-8a1b-2c3d4e5f6a7b',
  /** A dispute the organization reported under its own id. */
  disputeId: 'cb-2026-0001',
  /** A dispute id the organization has not used yet (the create example records it). */
  disputeIdToCreate: 'cb-2026-0002',
  /** Customer invoices: a draft (read), a draft to issue, a draft to void, an open one to mark uncollectible. */
  customerInvoiceId: 'inv_739e6a5b43c3a7465d73b1112bfa8464',
  customerInvoiceIdToIssue: 'inv_a695269733b2f00fa92cfabb06b945ca',
  customerInvoiceIdToVoid: 'inv_c4635ca878d4be30163ec5d4981f0f07',
  customerInvoiceIdToMarkUncollectible: 'inv_cfc155ed4bc3c92fab4699ad49c05f82',
  /** Webhook destinations of the calling account. */
  webhookDestinationId: 'whd_b4b753450216e894a8963f031b5858ea',
  webhookDestinationIdToDelete: 'whd_68da037bbf9221e7e8178f499920bcf9',
  // The merchant API (the merchant face)
  ownerlessSubMerchantId: '0193a6f2-7d20-7e51-8b6c-9d8e7f6a5b4c',
  memberSubMerchantId: '0193a6f2-8e31-7f62-9c7d-2b3c4d5e6f70',
  merchantApiKeyIdToDelete: 'ak_9f8e7d6c5b4a39281706f5e4',
  merchantPlanId: 'plan_4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d',
  merchantCheckoutSessionId: 'cs_3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b',
  merchantReceiptId: '0193a6f4-2b3c-7d4e-9f5a-6b7c8d9e0f1a',
  buyerPaymentInstrumentId: 'inst_6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d',
  imageProductId: 'prod_8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a',
  imageUploadId: 'upl_0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  issuedInvoiceId: 'inv_1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f',
  eurPayoutMethodId: 'pom_5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e',
  pendingWithdrawalId: 'po_7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b',
  // Subscriptions (the subscriptions list)
  subscriberCustomerId: 'cus_3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e',
  subscriberPaymentInstrumentId: 'inst_2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c',
  subscriptionPlanId: 'plan_2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a',
  subscriptionUpgradePlanId: 'plan_9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b',
  subscriptionId: '0193a6f5-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
  subscriptionIdToCancel: '0193a6f5-4d5e-7f6a-9b7c-8d9e0f1a2b3c',
  subscriptionIdToPause: '0193a6f5-5e6f-7a7b-8c8d-9e0f1a2b3c4d',
  subscriptionIdToReactivate: '0193a6f5-6f7a-7b8c-9d9e-0f1a2b3c4d5e',
  subscriptionCancellationId: '0193a6f6-7a8b-7c9d-8e0f-1a2b3c4d5e6f',
  subscriptionPauseId: '0193a6f6-8b9c-7d0e-9f1a-2b3c4d5e6f7a',
  subscriptionPauseIdToDelete: '0193a6f6-9c0d-7e1f-8a2b-3c4d5e6f7a8b',
  subscriptionReactivationId: '0193a6f7-0d1e-7f2a-9b3c-4d5e6f7a8b9c',
  // Buyer checkout (the checkout face): a plan and an open order of the merchant, each with an unused
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
  // Dashboard back end (the dashboard back end)
  /** A session of its own, which the sign-out example ends (the examples' session is the owner's). */
  sessionTokenToEnd: 'mor_sess_6f1c2a90-4b7e-4d21-9c3a-58e0f4b2d7a1.491d26bcbd5d89c66cfed76c104db379679907602c13e3201ef8e3b2673143e2',
  /** The owner-claim join link of a sub-merchant without an owner (`<merchantId>.<64 hex>`). */
  joinLinkToken: '0193a6f5-0c1d-7e2f-8a3b-4c5d6e7f8a9b.c7f5cee0400464f35a3f046e8675dd1f2c7fb3f26c8e131e135ebf022c0d3bd0',
  /** An invitation mailed to the examples' owner, to another merchant's team (`inv_<merchantId>.<inviteId>.<40 hex>`). */
  invitationToken: 'inv_0193a6f5-3e4d-7c2b-9a18-6f5e4d3c2b1a.5c0f9e8d7a6b4c3d.9f8e7d6c5b4a39281706f5e4d3c2b1a098f7e6d5',
  teamMemberUserId: '3f1e2d4c-5b6a-4978-8a1b-2c3d4e5f6a7b',
  teamMemberUserIdToDelete: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968',
  merchantWebhookDestinationId: 'wh_5dcde5375becc075b796ba41',
  merchantWebhookDestinationIdToDelete: 'wh_10dcd0541644824e47e0761e',
  /** A completed card payment the dashboard's refund example refunds part of. */
  refundableTransactionId: '0193a6f3-9b8c-7d6e-8f5a-4b3c2d1e0f9a',
  payoutId: 'po_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a',
  /** An event of the merchant (a payment's `payment.completed`). */
  eventId: 'evt_0193a6f4a1b27c3d8e4f5a6b7c8d9e0f',
} as const;

/** The origin of the deployment in the examples (the recorded answers name the local stack's origin as this one). */
export const exampleOrigin = 'https://api.example.com';

export type ExampleIdName = keyof typeof exampleIds;
