/** The spec's thirteen MCP tools and the scope each needs (merchant-api.md, "Scopes and tools"): what the tests hold the endpoint to. */
export const specToolScopes = {
  search_payments_ai_docs: 'docs:read',
  create_merchant_account: 'merchant:create',
  get_my_merchant: 'merchant:read',
  get_merchant_activation_status: 'merchant:read',
  go_live: 'merchant:go_live',
  create_product: 'product:create',
  create_product_image_upload: 'product:create',
  confirm_product_image: 'product:create',
  list_products: 'product:read',
  get_checkout_customization: 'checkout:read',
  update_checkout_customization: 'checkout:write',
  set_checkout_logo: 'checkout:write',
  create_order: 'checkout:write',
} as const;

/** What no tool may do (the spec: "MCP offers no payout, refund, key revoke or webhook-secret tools"). */
export const forbiddenToolName = /payout|refund|revoke|secret|webhook|key/i;
