import { accountApiKeyNotFound, accountNotLinked, websiteNotFound } from '../domain/unknown-ids.ts';
import { managers, type RouteDef } from '../platform/http/route-def.ts';
import { checkoutCustomization, setCheckoutLogoRequest, updateCheckoutCustomizationRequest } from './customization.schemas.ts';
import { accountResponse, accountSecretRequest, apiKeyRecordResponse, changeAccountSecretRequest, issuedApiKeyResponse } from './accounts.schemas.ts';
import { createCustomFieldRequest, customFieldResponse, getCustomFieldQuery } from './custom-fields.schemas.ts';
import {
  linkOrganizationQuery,
  linkOrganizationRequest,
  onboardingRequest,
  onboardingResponse,
  organizationIdResponse,
  organizationResponse,
  ownerFlagRequest,
  registerOrganizationRequest,
} from './organizations.schemas.ts';
import {
  createWebsiteRequest,
  listWebsitesQuery,
  updateWebsiteRequest,
  websiteDeletedResponse,
  websiteListResponse,
  websiteResponse,
} from './websites.schemas.ts';

// Accounts and keys
export const activateAccount = {
  face: 'organization',
  name: 'accounts-activate',
  method: 'POST',
  path: '/api/v1/public-api/accounts/{accountId}/activate',
  handler: 'functions/organizations/accounts/activate-account.ts',
  auth: 'accountSecret',
  group: 'organizations',
  table: 'readWrite',
  body: accountSecretRequest,
  status: 200,
  response: accountResponse,
  summary: 'Activate an account with its one-time secret.',
} as const satisfies RouteDef;

export const changeAccountSecret = {
  face: 'organization',
  name: 'accounts-change-secret',
  method: 'POST',
  path: '/api/v1/public-api/accounts/{accountId}/secret',
  handler: 'functions/organizations/accounts/change-secret.ts',
  auth: 'accountSecret',
  group: 'organizations',
  table: 'readWrite',
  body: changeAccountSecretRequest,
  status: 200,
  response: accountResponse,
  summary: "Replace the account's secret; the old one stops working at once.",
} as const satisfies RouteDef;

export const createOrgApiKey = {
  face: 'organization',
  name: 'account-api-keys-create',
  method: 'POST',
  path: '/api/v1/public-api/accounts/{accountId}/api-keys',
  handler: 'functions/organizations/accounts/create-api-key.ts',
  auth: 'accountSecret',
  group: 'organizations',
  table: 'readWrite',
  body: accountSecretRequest,
  status: 201,
  response: issuedApiKeyResponse,
  summary: 'Issue an API key; the full key is in this response only.',
} as const satisfies RouteDef;

export const rotateOrgApiKey = {
  face: 'organization',
  name: 'account-api-keys-rotate',
  method: 'POST',
  path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}/rotate',
  handler: 'functions/organizations/accounts/rotate-api-key.ts',
  auth: 'accountSecret',
  group: 'organizations',
  table: 'readWrite',
  body: accountSecretRequest,
  status: 200,
  response: issuedApiKeyResponse,
  unknownId: accountApiKeyNotFound,
  summary: 'Give a key a new secret; the old full key is refused from then on.',
} as const satisfies RouteDef;

export const getOrgApiKey = {
  face: 'organization',
  name: 'account-api-keys-get',
  method: 'GET',
  path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}',
  handler: 'functions/organizations/accounts/get-api-key.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  status: 200,
  response: apiKeyRecordResponse,
  unknownId: accountApiKeyNotFound,
  summary: "Read one of the calling account's API key records.",
} as const satisfies RouteDef;

export const revokeOrgApiKey = {
  face: 'organization',
  name: 'account-api-keys-revoke',
  method: 'DELETE',
  path: '/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}',
  handler: 'functions/organizations/accounts/revoke-api-key.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  status: 200,
  response: apiKeyRecordResponse,
  unknownId: accountApiKeyNotFound,
  summary: "Revoke one of the calling account's API keys (again: the same record).",
} as const satisfies RouteDef;

// Organizations and onboarding
export const registerOrganization = {
  face: 'organization',
  name: 'organizations-register',
  method: 'POST',
  path: '/api/v1/public-api/organizations',
  handler: 'functions/organizations/register-organization.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  body: registerOrganizationRequest,
  status: 201,
  response: organizationResponse,
  summary: 'Register an organization (a root merchant) with the calling account linked as its owner.',
} as const satisfies RouteDef;

export const linkOrganizationAccount = {
  face: 'organization',
  name: 'organizations-link',
  method: 'POST',
  path: '/api/v1/public-api/organizations/link',
  handler: 'functions/organizations/link-account.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  query: linkOrganizationQuery,
  body: linkOrganizationRequest,
  status: 201,
  response: organizationIdResponse,
  summary: 'Link the account `accountId` to an organization the calling account owns.',
} as const satisfies RouteDef;

export const setOwnOwnerFlag = {
  face: 'organization',
  name: 'organizations-owner-set',
  method: 'PUT',
  path: '/api/v1/public-api/organizations/{organizationId}/owner',
  handler: 'functions/organizations/set-own-owner-flag.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  body: ownerFlagRequest,
  status: 200,
  response: organizationIdResponse,
  summary: "Set the calling account's owner flag on the organization (it keeps at least one owner).",
} as const satisfies RouteDef;

export const setAccountOwnerFlag = {
  face: 'organization',
  name: 'organizations-account-owner-set',
  method: 'PUT',
  path: '/api/v1/public-api/organizations/{organizationId}/accounts/{accountId}/owner',
  handler: 'functions/organizations/set-account-owner-flag.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  body: ownerFlagRequest,
  status: 200,
  response: organizationIdResponse,
  unknownId: accountNotLinked,
  summary: "Set another linked account's owner flag (owner accounts only; the organization keeps at least one owner).",
} as const satisfies RouteDef;

export const getOrganization = {
  face: 'organization',
  name: 'organizations-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}',
  handler: 'functions/organizations/get-organization.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  status: 200,
  response: organizationResponse,
  summary: 'Read the organization.',
} as const satisfies RouteDef;

export const submitOnboarding = {
  face: 'organization',
  name: 'organizations-onboarding-submit',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/onboarding',
  handler: 'functions/organizations/submit-onboarding.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  body: onboardingRequest,
  status: 201,
  response: onboardingResponse,
  summary: "Submit the organization's onboarding (once); answers the hosted onboarding form's URL.",
} as const satisfies RouteDef;

// Websites, custom fields, products
export const listWebsites = {
  face: 'organization',
  name: 'websites-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/websites',
  handler: 'functions/organizations/websites/list-websites.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  query: listWebsitesQuery,
  status: 200,
  response: websiteListResponse,
  summary: "List the organization's websites (paged, sorted by createdAt or updatedAt, searchable).",
} as const satisfies RouteDef;

export const createWebsite = {
  face: 'organization',
  name: 'websites-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/websites',
  handler: 'functions/organizations/websites/create-website.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: createWebsiteRequest,
  status: 201,
  response: websiteResponse,
  summary: 'Add a website to the organization.',
} as const satisfies RouteDef;

export const getWebsite = {
  face: 'organization',
  name: 'websites-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}',
  handler: 'functions/organizations/websites/get-website.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  status: 200,
  response: websiteResponse,
  unknownId: websiteNotFound,
  summary: "Read one of the organization's websites.",
} as const satisfies RouteDef;

export const updateWebsite = {
  face: 'organization',
  name: 'websites-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}',
  handler: 'functions/organizations/websites/update-website.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: updateWebsiteRequest,
  status: 200,
  response: websiteResponse,
  unknownId: websiteNotFound,
  summary: "Change a website's name or URL.",
} as const satisfies RouteDef;

export const deleteWebsite = {
  face: 'organization',
  name: 'websites-delete',
  method: 'DELETE',
  path: '/api/v1/public-api/organizations/{organizationId}/websites/{websiteId}',
  handler: 'functions/organizations/websites/delete-website.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  status: 200,
  response: websiteDeletedResponse,
  unknownId: websiteNotFound,
  summary: 'Delete a website.',
} as const satisfies RouteDef;

export const createCustomField = {
  face: 'organization',
  name: 'custom-fields-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/custom-fields',
  handler: 'functions/organizations/custom-fields/create-custom-field.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: createCustomFieldRequest,
  status: 201,
  response: customFieldResponse,
  summary: 'Define a custom field for a resource (unique per resource and name).',
} as const satisfies RouteDef;

export const getCustomField = {
  face: 'organization',
  name: 'custom-fields-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/custom-fields',
  handler: 'functions/organizations/custom-fields/get-custom-field.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  query: getCustomFieldQuery,
  status: 200,
  response: customFieldResponse,
  summary: 'Read a custom field by name and resource.',
} as const satisfies RouteDef;

// Checkout customization: how the merchant appears to buyers (dashboard back end, session auth)

export const getCheckoutCustomization = {
  face: 'dashboard-api',
  name: 'checkout-customization-get',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/checkout-customization',
  handler: 'functions/organizations/customization/get-customization.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  status: 200,
  response: checkoutCustomization,
  summary: "The merchant's checkout customization: display name, brand and accent colours, logo (any member).",
} as const satisfies RouteDef;

export const updateCheckoutCustomization = {
  face: 'dashboard-api',
  name: 'checkout-customization-update',
  method: 'PUT',
  path: '/api/v1/dashboard/merchants/{merchantId}/checkout-customization',
  handler: 'functions/organizations/customization/update-customization.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: updateCheckoutCustomizationRequest,
  status: 200,
  response: checkoutCustomization,
  summary: 'Set the display name and colours (#RRGGBB; null clears one); a brand colour under 4.5:1 against white is 422.',
} as const satisfies RouteDef;

export const setCheckoutLogo = {
  face: 'dashboard-api',
  name: 'checkout-customization-logo',
  method: 'PUT',
  path: '/api/v1/dashboard/merchants/{merchantId}/checkout-customization/logo',
  handler: 'functions/organizations/customization/set-logo.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  imageStorage: 'write',
  body: setCheckoutLogoRequest,
  status: 200,
  response: checkoutCustomization,
  summary: 'Set the checkout logo: {contentType, data} with a base64 PNG, JPEG or WebP of at most 512 KiB (no SVG), checked by its bytes.',
} as const satisfies RouteDef;
