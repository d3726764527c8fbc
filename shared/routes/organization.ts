/**
 * The organization-scoped public API (`Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`), under
 * `/api/v1/public-api`: accounts and keys, organizations and onboarding, websites, custom fields, products,
 * plans and promo codes. Single records answer `{type:"object", data}`, lists
 * `{type:"list", totalCount, paginationMeta:{limit, offset}, data}`.
 */
import {
  accountResponse, accountSecretRequest, apiKeyRecordResponse, changeAccountSecretRequest, issuedApiKeyResponse,
} from '../organizations/accounts.schemas.ts';
import { createCustomFieldRequest, customFieldResponse, getCustomFieldQuery } from '../organizations/custom-fields.schemas.ts';
import {
  createProductRequest, deleteProductResponse, listProductsQuery, productListResponse, productResponse, updateProductRequest,
} from '../catalog/products.schemas.ts';
import {
  createWebsiteRequest, listWebsitesQuery, updateWebsiteRequest, websiteDeletedResponse, websiteListResponse, websiteResponse,
} from '../organizations/websites.schemas.ts';
import {
  linkOrganizationQuery, linkOrganizationRequest, onboardingRequest, onboardingResponse, organizationIdResponse, organizationResponse,
  ownerFlagRequest, registerOrganizationRequest,
} from '../organizations/organizations.schemas.ts';
import {
  createPlanRequest, listPlansQuery, planListResponse, planResponse, updatePlanRequest,
} from '../catalog/plans.schemas.ts';
import {
  createPromoCodeRequest, listPromoCodesQuery, promoCodeListResponse, promoCodeResponse, updatePromoCodeRequest,
} from '../catalog/promo-codes.schemas.ts';
import {
  checkoutPoliciesResponse, createPolicyUploadRequest, policyUploadResponse, updateCheckoutPoliciesRequest,
} from '../checkout/checkout-policies.schemas.ts';
import {
  createPayoutMethodRequest, listPayoutMethodsQuery, payoutMethodListResponse, payoutMethodResponse,
} from '../money/payouts.schemas.ts';
import {
  accountApiKeyNotFound, accountNotLinked, payoutMethodNotFound, planNotFound, productNotFound, promoCodeNotFound, unknownPolicyType, websiteNotFound,
} from '../domain/unknown-ids.ts';
import type { RouteDef } from './types.ts';

// Accounts and keys
export const activateAccount = {
  face: 'organization', name: 'accounts-activate', method: 'POST', path: '/api/v1/public-api/accounts/{accountId}/activate', handler: 'functions/organizations/accounts/activate-account.ts',
  auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 200, response: accountResponse,
  summary: 'Activate an account with its one-time secret.',
} as const satisfies RouteDef;

export const changeAccountSecret = {
  face: 'organization', name: 'accounts-change-secret', method: 'POST', path: '/api/v1/public-api/accounts/{accountId}/secret', handler: 'functions/organizations/accounts/change-secret.ts',
  auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: changeAccountSecretRequest, status: 200, response: accountResponse,
  summary: 'Replace the account\'s secret; the old one stops working at once.',
} as const satisfies RouteDef;

export const createOrgApiKey = {
  face: 'organization', name: 'account-api-keys-create', method: 'POST', path: '/api/v1/public-api/accounts/{accountId}/api-keys', handler: 'functions/organizations/accounts/create-api-key.ts',
  auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 201, response: issuedApiKeyResponse,
  summary: 'Issue an API key; the full key is in this response only.',
} as const satisfies RouteDef;

export const rotateOrgApiKey = {
  face: 'organization', name: 'account-api-keys-rotate', method: 'POST', path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}/rotate', handler: 'functions/organizations/accounts/rotate-api-key.ts',
  auth: 'accountSecret', group: 'organizations', table: 'readWrite', body: accountSecretRequest, status: 200, response: issuedApiKeyResponse,
  unknownId: accountApiKeyNotFound,
  summary: 'Give a key a new secret; the old full key is refused from then on.',
} as const satisfies RouteDef;

export const getOrgApiKey = {
  face: 'organization', name: 'account-api-keys-get', method: 'GET', path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}', handler: 'functions/organizations/accounts/get-api-key.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'read', status: 200, response: apiKeyRecordResponse,
  unknownId: accountApiKeyNotFound,
  summary: 'Read one of the calling account\'s API key records.',
} as const satisfies RouteDef;

export const revokeOrgApiKey = {
  face: 'organization', name: 'account-api-keys-revoke', method: 'DELETE', path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}', handler: 'functions/organizations/accounts/revoke-api-key.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', status: 200, response: apiKeyRecordResponse,
  unknownId: accountApiKeyNotFound,
  summary: 'Revoke one of the calling account\'s API keys (again: the same record).',
} as const satisfies RouteDef;

// Organizations and onboarding
export const registerOrganization = {
  face: 'organization', name: 'organizations-register', method: 'POST', path: '/api/v1/public-api/organizations', handler: 'functions/organizations/register-organization.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: registerOrganizationRequest, status: 201, response: organizationResponse,
  summary: 'Register an organization (a root merchant) with the calling account linked as its owner.',
} as const satisfies RouteDef;

export const linkOrganizationAccount = {
  face: 'organization', name: 'organizations-link', method: 'POST', path: '/api/v1/public-api/organizations/link', handler: 'functions/organizations/link-account.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', query: linkOrganizationQuery, body: linkOrganizationRequest,
  status: 201, response: organizationIdResponse,
  summary: 'Link the account `accountId` to an organization the calling account owns.',
} as const satisfies RouteDef;

export const setOwnOwnerFlag = {
  face: 'organization', name: 'organizations-owner-set', method: 'PUT', path: '/api/v1/public-api/organizations/{organizationId}/owner', handler: 'functions/organizations/set-own-owner-flag.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: ownerFlagRequest, status: 200, response: organizationIdResponse,
  summary: 'Set the calling account\'s owner flag on the organization (it keeps at least one owner).',
} as const satisfies RouteDef;

export const setAccountOwnerFlag = {
  face: 'organization', name: 'organizations-account-owner-set', method: 'PUT', path: '/api/v1/public-api/organizations/{organizationId}/accounts/{accountId}/owner',
  handler: 'functions/organizations/set-account-owner-flag.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: ownerFlagRequest, status: 200, response: organizationIdResponse,
  unknownId: accountNotLinked,
  summary: 'Set another linked account\'s owner flag (owner accounts only; the organization keeps at least one owner).',
} as const satisfies RouteDef;

export const getOrganization = {
  face: 'organization', name: 'organizations-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}', handler: 'functions/organizations/get-organization.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'read', status: 200, response: organizationResponse,
  summary: 'Read the organization.',
} as const satisfies RouteDef;

export const submitOnboarding = {
  face: 'organization', name: 'organizations-onboarding-submit', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/onboarding', handler: 'functions/organizations/submit-onboarding.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: onboardingRequest, status: 201, response: onboardingResponse,
  summary: 'Submit the organization\'s onboarding (once); answers the hosted onboarding form\'s URL.',
} as const satisfies RouteDef;

// Websites, custom fields, products
export const listWebsites = {
  face: 'organization', name: 'websites-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/websites', handler: 'functions/organizations/websites/list-websites.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', query: listWebsitesQuery, status: 200, response: websiteListResponse,
  summary: 'List the organization\'s websites (paged, sorted by createdAt or updatedAt, searchable).',
} as const satisfies RouteDef;

export const createWebsite = {
  face: 'organization', name: 'websites-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/websites', handler: 'functions/organizations/websites/create-website.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createWebsiteRequest, status: 201, response: websiteResponse,
  summary: 'Add a website to the organization.',
} as const satisfies RouteDef;

export const getWebsite = {
  face: 'organization', name: 'websites-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}', handler: 'functions/organizations/websites/get-website.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: websiteResponse,
  unknownId: websiteNotFound,
  summary: 'Read one of the organization\'s websites.',
} as const satisfies RouteDef;

export const updateWebsite = {
  face: 'organization', name: 'websites-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}', handler: 'functions/organizations/websites/update-website.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updateWebsiteRequest, status: 200, response: websiteResponse,
  unknownId: websiteNotFound,
  summary: 'Change a website\'s name or URL.',
} as const satisfies RouteDef;

export const deleteWebsite = {
  face: 'organization', name: 'websites-delete', method: 'DELETE', path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}', handler: 'functions/organizations/websites/delete-website.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', status: 200, response: websiteDeletedResponse,
  unknownId: websiteNotFound,
  summary: 'Delete a website.',
} as const satisfies RouteDef;

export const createCustomField = {
  face: 'organization', name: 'custom-fields-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/custom-fields', handler: 'functions/organizations/custom-fields/create-custom-field.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createCustomFieldRequest, status: 201, response: customFieldResponse,
  summary: 'Define a custom field for a resource (unique per resource and name).',
} as const satisfies RouteDef;

export const getCustomField = {
  face: 'organization', name: 'custom-fields-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/custom-fields', handler: 'functions/organizations/custom-fields/get-custom-field.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', query: getCustomFieldQuery, status: 200, response: customFieldResponse,
  summary: 'Read a custom field by name and resource.',
} as const satisfies RouteDef;

export const listProducts = {
  face: 'organization', name: 'products-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/products', handler: 'functions/catalog/products/list-products.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', query: listProductsQuery, status: 200, response: productListResponse,
  summary: 'List the organization\'s products (paged, sorted by createdAt or updatedAt, searchable).',
} as const satisfies RouteDef;

export const createProduct = {
  face: 'organization', name: 'products-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/products', handler: 'functions/catalog/products/create-product.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createProductRequest, status: 201, response: productResponse,
  summary: 'Create an active product.',
} as const satisfies RouteDef;

export const getProduct = {
  face: 'organization', name: 'products-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}', handler: 'functions/catalog/products/get-product.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: productResponse,
  unknownId: productNotFound,
  summary: 'Read one of the organization\'s products.',
} as const satisfies RouteDef;

export const updateProduct = {
  face: 'organization', name: 'products-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}', handler: 'functions/catalog/products/update-product.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updateProductRequest, status: 200, response: productResponse,
  unknownId: productNotFound,
  summary: 'Change the given fields of a product (its type only while it has no plans).',
} as const satisfies RouteDef;

export const deleteProduct = {
  face: 'organization', name: 'products-delete', method: 'DELETE', path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}', handler: 'functions/catalog/products/delete-product.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', status: 200, response: deleteProductResponse,
  unknownId: productNotFound,
  summary: 'Delete a product without plans ({success: true}); archive one with plans (the archived product).',
} as const satisfies RouteDef;

// Plans and promo codes
export const listPlans = {
  face: 'organization', name: 'plans-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/plans', handler: 'functions/catalog/plans/list-plans.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', query: listPlansQuery, status: 200, response: planListResponse,
  summary: 'List the organization\'s plans (paged, sorted by createdAt or updatedAt, searchable by name).',
} as const satisfies RouteDef;

export const createPlan = {
  face: 'organization', name: 'plans-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/plans', handler: 'functions/catalog/plans/create-plan.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createPlanRequest, status: 201, response: planResponse,
  summary: 'Create a plan (revision 1) on an active product of the organization.',
} as const satisfies RouteDef;

export const getPlan = {
  face: 'organization', name: 'plans-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/plans/{planId}', handler: 'functions/catalog/plans/get-plan.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: planResponse,
  unknownId: planNotFound,
  summary: 'Read one of the organization\'s plans.',
} as const satisfies RouteDef;

export const updatePlan = {
  face: 'organization', name: 'plans-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/plans/{planId}', handler: 'functions/catalog/plans/update-plan.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updatePlanRequest, status: 200, response: planResponse,
  unknownId: planNotFound,
  summary: 'Change the given fields of a plan; its revision grows by one (409 when another update won).',
} as const satisfies RouteDef;

export const listPromoCodes = {
  face: 'organization', name: 'promo-codes-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/promo-codes', handler: 'functions/catalog/promo-codes/list-promo-codes.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', query: listPromoCodesQuery, status: 200, response: promoCodeListResponse,
  summary: 'List the organization\'s promo codes (paged, sorted by createdAt or updatedAt, searchable by code).',
} as const satisfies RouteDef;

export const createPromoCode = {
  face: 'organization', name: 'promo-codes-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/promo-codes', handler: 'functions/catalog/promo-codes/create-promo-code.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: createPromoCodeRequest, status: 201, response: promoCodeResponse,
  summary: 'Create a promo code (its code unique in the organization regardless of case).',
} as const satisfies RouteDef;

export const getPromoCode = {
  face: 'organization', name: 'promo-codes-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/promo-codes/{promoCodeId}', handler: 'functions/catalog/promo-codes/get-promo-code.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'read', status: 200, response: promoCodeResponse,
  unknownId: promoCodeNotFound,
  summary: 'Read one of the organization\'s promo codes.',
} as const satisfies RouteDef;

export const updatePromoCode = {
  face: 'organization', name: 'promo-codes-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/promo-codes/{promoCodeId}', handler: 'functions/catalog/promo-codes/update-promo-code.ts',
  auth: 'orgApiKey', group: 'catalog', table: 'readWrite', body: updatePromoCodeRequest, status: 200, response: promoCodeResponse,
  unknownId: promoCodeNotFound,
  summary: 'Change whether a promo code is active, its expiry, its redemption cap or its plans.',
} as const satisfies RouteDef;

// Payout methods
export const listPayoutMethods = {
  face: 'organization', name: 'payout-methods-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/payout-methods', handler: 'functions/money/payout-methods/list-payout-methods.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'read', query: listPayoutMethodsQuery, status: 200, response: payoutMethodListResponse,
  summary: 'The organization\'s payout methods (bank accounts: last four characters only), newest first by default.',
} as const satisfies RouteDef;

export const createPayoutMethod = {
  face: 'organization', name: 'payout-methods-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/payout-methods', handler: 'functions/money/payout-methods/create-payout-method.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', body: createPayoutMethodRequest, status: 201, response: payoutMethodResponse,
  summary: 'Add a bank account to pay out to (IBAN, or a local number with a routing number); only its last four characters are kept.',
} as const satisfies RouteDef;

export const deletePayoutMethod = {
  face: 'organization', name: 'payout-methods-delete', method: 'DELETE', path: '/api/v1/public-api/organizations/{organizationId}/payout-methods/{payoutMethodId}',
  handler: 'functions/money/payout-methods/delete-payout-method.ts', auth: 'orgApiKey', group: 'organizations', table: 'readWrite', status: 204, response: null,
  unknownId: payoutMethodNotFound,
  summary: 'Remove a payout method; payouts already requested to it go on.',
} as const satisfies RouteDef;

// Checkout policies
export const getCheckoutPolicies = {
  face: 'organization', name: 'checkout-policies-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies', handler: 'functions/checkout/checkout-policies/get-policies.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'read', status: 200, response: checkoutPoliciesResponse,
  summary: 'The organization\'s checkout policies: the four URL policies buyers see at checkout and the policy PDFs uploaded.',
} as const satisfies RouteDef;

export const updateCheckoutPolicies = {
  face: 'organization', name: 'checkout-policies-update', method: 'PUT', path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies', handler: 'functions/checkout/checkout-policies/update-policies.ts',
  auth: 'orgApiKey', group: 'organizations', table: 'readWrite', policyStorage: 'read', body: updateCheckoutPoliciesRequest, status: 200,
  response: checkoutPoliciesResponse,
  summary: 'Set the URL policies (termsUrl, privacyUrl, returnPolicyUrl, eulaUrl: https URLs, null clears one, an absent one stays).',
} as const satisfies RouteDef;

export const createCheckoutPolicyUpload = {
  face: 'organization', name: 'checkout-policies-upload', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies/{policyType}/upload',
  handler: 'functions/checkout/checkout-policies/create-upload.ts', auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'write',
  body: createPolicyUploadRequest, status: 201, response: policyUploadResponse,
  unknownId: unknownPolicyType,
  summary: 'A presigned PUT (15 minutes) for a policy PDF of the given size (at most 10 MiB): terms, privacy, return-policy or eula.',
} as const satisfies RouteDef;

export const deleteCheckoutPolicyDocument = {
  face: 'organization', name: 'checkout-policies-delete', method: 'DELETE', path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/delete-document.ts', auth: 'orgApiKey', group: 'organizations', table: 'read', policyStorage: 'write',
  status: 204, response: null,
  unknownId: unknownPolicyType,
  summary: 'Remove a policy PDF; buyers then get 404 for it at checkout.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */
export const organizationRoutes = {
  activateAccount,
  changeAccountSecret,
  createOrgApiKey,
  rotateOrgApiKey,
  getOrgApiKey,
  revokeOrgApiKey,
  registerOrganization,
  linkOrganizationAccount,
  setOwnOwnerFlag,
  setAccountOwnerFlag,
  getOrganization,
  submitOnboarding,
  listWebsites,
  createWebsite,
  getWebsite,
  updateWebsite,
  deleteWebsite,
  createCustomField,
  getCustomField,
  listProducts,
  createProduct,
  getProduct,
  updateProduct,
  deleteProduct,
  listPlans,
  createPlan,
  getPlan,
  updatePlan,
  listPromoCodes,
  createPromoCode,
  getPromoCode,
  updatePromoCode,
  listPayoutMethods,
  createPayoutMethod,
  deletePayoutMethod,
  getCheckoutPolicies,
  updateCheckoutPolicies,
  createCheckoutPolicyUpload,
  deleteCheckoutPolicyDocument,
};
