/**
 * The organization-scoped public API (`Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`), under
 * `/api/v1/public-api`: accounts and keys, organizations and onboarding, websites, custom fields, products,
 * plans and promo codes. Single records answer `{type:"object", data}`, lists
 * `{type:"list", totalCount, paginationMeta:{limit, offset}, data}`.
 */
import {
  accountResponse, accountSecretRequest, apiKeyRecordResponse, changeAccountSecretRequest, issuedApiKeyResponse,
} from '../schemas/accounts.ts';
import { createCustomFieldRequest, customFieldResponse, getCustomFieldQuery } from '../schemas/custom-fields.ts';
import {
  createProductRequest, deleteProductResponse, listProductsQuery, productListResponse, productResponse, updateProductRequest,
} from '../schemas/products.ts';
import {
  createWebsiteRequest, listWebsitesQuery, updateWebsiteRequest, websiteDeletedResponse, websiteListResponse, websiteResponse,
} from '../schemas/websites.ts';
import {
  linkOrganizationQuery, linkOrganizationRequest, onboardingRequest, onboardingResponse, organizationIdResponse, organizationResponse,
  ownerFlagRequest, registerOrganizationRequest,
} from '../schemas/organizations.ts';
import {
  createPlanRequest, listPlansQuery, planListResponse, planResponse, updatePlanRequest,
} from '../schemas/plans.ts';
import {
  createPromoCodeRequest, listPromoCodesQuery, promoCodeListResponse, promoCodeResponse, updatePromoCodeRequest,
} from '../schemas/promo-codes.ts';
import {
  checkoutPoliciesResponse, createPolicyUploadRequest, policyUploadResponse, updateCheckoutPoliciesRequest,
} from '../schemas/checkout-policies.ts';
import {
  createPayoutMethodRequest, listPayoutMethodsQuery, payoutMethodListResponse, payoutMethodResponse,
} from '../schemas/payouts.ts';
import { faceRoutes } from './types.ts';

const base = '/api/v1/public-api';
const account = `${base}/accounts/{accountId}`;
const organization = `${base}/organizations/{organizationId}`;

export const organizationRoutes = faceRoutes('organization', {
  // Accounts and keys
  activateAccount: {
    name: 'accounts-activate', method: 'POST', path: `${account}/activate`, handler: 'functions/accounts/activate-account.ts',
    auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 200, response: accountResponse,
    summary: 'Activate an account with its one-time secret.',
  },
  changeAccountSecret: {
    name: 'accounts-change-secret', method: 'POST', path: `${account}/secret`, handler: 'functions/accounts/change-secret.ts',
    auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: changeAccountSecretRequest, status: 200, response: accountResponse,
    summary: 'Replace the account\'s secret; the old one stops working at once.',
  },
  createOrgApiKey: {
    name: 'account-api-keys-create', method: 'POST', path: `${account}/api-keys`, handler: 'functions/accounts/create-api-key.ts',
    auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 201, response: issuedApiKeyResponse,
    summary: 'Issue an API key; the full key is in this response only.',
  },
  rotateOrgApiKey: {
    name: 'account-api-keys-rotate', method: 'POST', path: `${account}/api-keys/{apiKeyId}/rotate`, handler: 'functions/accounts/rotate-api-key.ts',
    auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 200, response: issuedApiKeyResponse,
    summary: 'Give a key a new secret; the old full key is refused from then on.',
  },
  getOrgApiKey: {
    name: 'account-api-keys-get', method: 'GET', path: `${account}/api-keys/{apiKeyId}`, handler: 'functions/accounts/get-api-key.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'read', status: 200, response: apiKeyRecordResponse,
    summary: 'Read one of the calling account\'s API key records.',
  },
  revokeOrgApiKey: {
    name: 'account-api-keys-revoke', method: 'DELETE', path: `${account}/api-keys/{apiKeyId}`, handler: 'functions/accounts/revoke-api-key.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', status: 200, response: apiKeyRecordResponse,
    summary: 'Revoke one of the calling account\'s API keys (again: the same record).',
  },
  // Organizations and onboarding
  registerOrganization: {
    name: 'organizations-register', method: 'POST', path: `${base}/organizations`, handler: 'functions/organizations/register-organization.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: registerOrganizationRequest, status: 201, response: organizationResponse,
    summary: 'Register an organization (a root merchant) with the calling account linked as its owner.',
  },
  linkOrganizationAccount: {
    name: 'organizations-link', method: 'POST', path: `${base}/organizations/link`, handler: 'functions/organizations/link-account.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', query: linkOrganizationQuery, body: linkOrganizationRequest,
    status: 201, response: organizationIdResponse,
    summary: 'Link the account `accountId` to an organization the calling account owns.',
  },
  setOwnOwnerFlag: {
    name: 'organizations-owner-set', method: 'PUT', path: `${organization}/owner`, handler: 'functions/organizations/set-own-owner-flag.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: ownerFlagRequest, status: 200, response: organizationIdResponse,
    summary: 'Set the calling account\'s owner flag on the organization (it keeps at least one owner).',
  },
  setAccountOwnerFlag: {
    name: 'organizations-account-owner-set', method: 'PUT', path: `${organization}/accounts/{accountId}/owner`,
    handler: 'functions/organizations/set-account-owner-flag.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: ownerFlagRequest, status: 200, response: organizationIdResponse,
    summary: 'Set another linked account\'s owner flag (owner accounts only; the organization keeps at least one owner).',
  },
  getOrganization: {
    name: 'organizations-get', method: 'GET', path: organization, handler: 'functions/organizations/get-organization.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'read', status: 200, response: organizationResponse,
    summary: 'Read the organization.',
  },
  submitOnboarding: {
    name: 'organizations-onboarding-submit', method: 'POST', path: `${organization}/onboarding`, handler: 'functions/organizations/submit-onboarding.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: onboardingRequest, status: 201, response: onboardingResponse,
    summary: 'Submit the organization\'s onboarding (once); answers the hosted onboarding form\'s URL.',
  },

  // Websites, custom fields, products
  listWebsites: {
    name: 'websites-list', method: 'GET', path: `${organization}/websites`, handler: 'functions/websites/list-websites.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', query: listWebsitesQuery, status: 200, response: websiteListResponse,
    summary: 'List the organization\'s websites (paged, sorted by createdAt or updatedAt, searchable).',
  },
  createWebsite: {
    name: 'websites-create', method: 'POST', path: `${organization}/websites`, handler: 'functions/websites/create-website.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createWebsiteRequest, status: 201, response: websiteResponse,
    summary: 'Add a website to the organization.',
  },
  getWebsite: {
    name: 'websites-get', method: 'GET', path: `${organization}/websites/{websiteId}`, handler: 'functions/websites/get-website.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: websiteResponse,
    summary: 'Read one of the organization\'s websites.',
  },
  updateWebsite: {
    name: 'websites-update', method: 'PATCH', path: `${organization}/websites/{websiteId}`, handler: 'functions/websites/update-website.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updateWebsiteRequest, status: 200, response: websiteResponse,
    summary: 'Change a website\'s name or URL.',
  },
  deleteWebsite: {
    name: 'websites-delete', method: 'DELETE', path: `${organization}/websites/{websiteId}`, handler: 'functions/websites/delete-website.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', status: 200, response: websiteDeletedResponse,
    summary: 'Delete a website.',
  },
  createCustomField: {
    name: 'custom-fields-create', method: 'POST', path: `${organization}/custom-fields`, handler: 'functions/custom-fields/create-custom-field.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createCustomFieldRequest, status: 201, response: customFieldResponse,
    summary: 'Define a custom field for a resource (unique per resource and name).',
  },
  getCustomField: {
    name: 'custom-fields-get', method: 'GET', path: `${organization}/custom-fields`, handler: 'functions/custom-fields/get-custom-field.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', query: getCustomFieldQuery, status: 200, response: customFieldResponse,
    summary: 'Read a custom field by name and resource.',
  },
  listProducts: {
    name: 'products-list', method: 'GET', path: `${organization}/products`, handler: 'functions/products/list-products.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', query: listProductsQuery, status: 200, response: productListResponse,
    summary: 'List the organization\'s products (paged, sorted by createdAt or updatedAt, searchable).',
  },
  createProduct: {
    name: 'products-create', method: 'POST', path: `${organization}/products`, handler: 'functions/products/create-product.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createProductRequest, status: 201, response: productResponse,
    summary: 'Create an active product.',
  },
  getProduct: {
    name: 'products-get', method: 'GET', path: `${organization}/products/{productId}`, handler: 'functions/products/get-product.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: productResponse,
    summary: 'Read one of the organization\'s products.',
  },
  updateProduct: {
    name: 'products-update', method: 'PATCH', path: `${organization}/products/{productId}`, handler: 'functions/products/update-product.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updateProductRequest, status: 200, response: productResponse,
    summary: 'Change the given fields of a product (its type only while it has no plans).',
  },
  deleteProduct: {
    name: 'products-delete', method: 'DELETE', path: `${organization}/products/{productId}`, handler: 'functions/products/delete-product.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', status: 200, response: deleteProductResponse,
    summary: 'Delete a product without plans ({success: true}); archive one with plans (the archived product).',
  },
  // Plans and promo codes
  listPlans: {
    name: 'plans-list', method: 'GET', path: `${base}/organizations/{organizationId}/plans`, handler: 'functions/plans/list-plans.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', query: listPlansQuery, status: 200, response: planListResponse,
    summary: 'List the organization\'s plans (paged, sorted by createdAt or updatedAt, searchable by name).',
  },
  createPlan: {
    name: 'plans-create', method: 'POST', path: `${base}/organizations/{organizationId}/plans`, handler: 'functions/plans/create-plan.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createPlanRequest, status: 201, response: planResponse,
    summary: 'Create a plan (revision 1) on an active product of the organization.',
  },
  getPlan: {
    name: 'plans-get', method: 'GET', path: `${base}/organizations/{organizationId}/plans/{planId}`, handler: 'functions/plans/get-plan.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: planResponse,
    summary: 'Read one of the organization\'s plans.',
  },
  updatePlan: {
    name: 'plans-update', method: 'PATCH', path: `${base}/organizations/{organizationId}/plans/{planId}`, handler: 'functions/plans/update-plan.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updatePlanRequest, status: 200, response: planResponse,
    summary: 'Change the given fields of a plan; its revision grows by one (409 when another update won).',
  },
  listPromoCodes: {
    name: 'promo-codes-list', method: 'GET', path: `${base}/organizations/{organizationId}/promo-codes`, handler: 'functions/promo-codes/list-promo-codes.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', query: listPromoCodesQuery, status: 200, response: promoCodeListResponse,
    summary: 'List the organization\'s promo codes (paged, sorted by createdAt or updatedAt, searchable by code).',
  },
  createPromoCode: {
    name: 'promo-codes-create', method: 'POST', path: `${base}/organizations/{organizationId}/promo-codes`, handler: 'functions/promo-codes/create-promo-code.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createPromoCodeRequest, status: 201, response: promoCodeResponse,
    summary: 'Create a promo code (its code unique in the organization regardless of case).',
  },
  getPromoCode: {
    name: 'promo-codes-get', method: 'GET', path: `${base}/organizations/{organizationId}/promo-codes/{promoCodeId}`, handler: 'functions/promo-codes/get-promo-code.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: promoCodeResponse,
    summary: 'Read one of the organization\'s promo codes.',
  },
  updatePromoCode: {
    name: 'promo-codes-update', method: 'PATCH', path: `${base}/organizations/{organizationId}/promo-codes/{promoCodeId}`, handler: 'functions/promo-codes/update-promo-code.ts',
    auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updatePromoCodeRequest, status: 200, response: promoCodeResponse,
    summary: 'Change whether a promo code is active, its expiry, its redemption cap or its plans.',
  },

  // Payout methods
  listPayoutMethods: {
    name: 'payout-methods-list', method: 'GET', path: `${organization}/payout-methods`, handler: 'functions/payout-methods/list-payout-methods.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'read', query: listPayoutMethodsQuery, status: 200, response: payoutMethodListResponse,
    summary: 'The organization\'s payout methods (bank accounts: last four characters only), newest first by default.',
  },
  createPayoutMethod: {
    name: 'payout-methods-create', method: 'POST', path: `${organization}/payout-methods`, handler: 'functions/payout-methods/create-payout-method.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: createPayoutMethodRequest, status: 201, response: payoutMethodResponse,
    summary: 'Add a bank account to pay out to (IBAN, or a local number with a routing number); only its last four characters are kept.',
  },
  deletePayoutMethod: {
    name: 'payout-methods-delete', method: 'DELETE', path: `${organization}/payout-methods/{payoutMethodId}`,
    handler: 'functions/payout-methods/delete-payout-method.ts', auth: 'orgApiKey', group: 'organizations', table: 'readWrite', status: 204, response: null,
    summary: 'Remove a payout method; payouts already requested to it go on.',
  },

  // Checkout policies
  getCheckoutPolicies: {
    name: 'checkout-policies-get', method: 'GET', path: `${organization}/checkout-policies`, handler: 'functions/checkout-policies/get-policies.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'read', status: 200, response: checkoutPoliciesResponse,
    summary: 'The organization\'s checkout policies: the four URL policies buyers see at checkout and the policy PDFs uploaded.',
  },
  updateCheckoutPolicies: {
    name: 'checkout-policies-update', method: 'PUT', path: `${organization}/checkout-policies`, handler: 'functions/checkout-policies/update-policies.ts',
    auth: 'orgApiKey', group: 'organizations', table: 'readWrite', policyStorage: 'read', body: updateCheckoutPoliciesRequest, status: 200,
    response: checkoutPoliciesResponse,
    summary: 'Set the URL policies (termsUrl, privacyUrl, returnPolicyUrl, eulaUrl: https URLs, null clears one, an absent one stays).',
  },
  createCheckoutPolicyUpload: {
    name: 'checkout-policies-upload', method: 'POST', path: `${organization}/checkout-policies/{policyType}/upload`,
    handler: 'functions/checkout-policies/create-upload.ts', auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'write',
    body: createPolicyUploadRequest, status: 201, response: policyUploadResponse,
    summary: 'A presigned PUT (15 minutes) for a policy PDF of the given size (at most 10 MiB): terms, privacy, return-policy or eula.',
  },
  deleteCheckoutPolicyDocument: {
    name: 'checkout-policies-delete', method: 'DELETE', path: `${organization}/checkout-policies/{policyType}`,
    handler: 'functions/checkout-policies/delete-document.ts', auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'write',
    status: 204, response: null,
    summary: 'Remove a policy PDF; buyers then get 404 for it at checkout.',
  },
});
