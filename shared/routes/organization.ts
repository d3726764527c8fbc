/**
 * The organization-scoped public API (`Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`), under
 * `/api/v1/public-api`: accounts and keys, organizations and onboarding, websites, custom fields, products,
 * plans and promo codes. Single records answer `{type:"object", data}`, lists
 * `{type:"list", totalCount, paginationMeta:{limit, offset}, data}`.
 */
import {
  accountResponse, accountSecretRequest, apiKeyRecordResponse, changeAccountSecretRequest, issuedApiKeyResponse,
} from '../schemas/accounts.ts';
import { faceRoutes } from './types.ts';

const base = '/api/v1/public-api';
const account = `${base}/accounts/{accountId}`;

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
});
