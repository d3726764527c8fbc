/**
 * The Developers area of a merchant: an overview, the merchant API keys, the webhook destinations (each with its
 * test ping, circuit reset and delivery log) and the person's own MCP tokens on this deployment. Each page is a GET
 * with a POST form beside it; a secret (a key, a signing secret, a token) is shown once, in the answer to the POST
 * that made it.
 */
import { webhookDestinationNotFound } from '../../domain/unknown-ids.ts';
import { htmlPage, linkQuery } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { apiKeysFormBody, destinationFormBody, destinationPageQuery, mcpTokensFormBody, webhooksFormBody } from './developers.schemas.ts';

export const developersPage = {
  face: 'page',
  name: 'dashboard-developers',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/developers',
  handler: 'functions/dashboard/developers/developers.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The Developers area: links to the merchant's API keys, webhook destinations and the person's MCP tokens.",
} as const satisfies RouteDef;

export const apiKeysPage = {
  face: 'page',
  name: 'dashboard-developers-api-keys',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/developers/api-keys',
  handler: 'functions/dashboard/developers/api-keys.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The merchant's API keys (name, hint, created, last used; never a key), with create and revoke for owners and admins.",
} as const satisfies RouteDef;

export const apiKeysForm = {
  face: 'page',
  name: 'dashboard-developers-api-keys-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/developers/api-keys',
  handler: 'functions/dashboard/developers/api-keys-form.ts',
  auth: 'session',
  roles: managers,
  group: 'pages',
  table: 'readWrite',
  body: apiKeysFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Create an API key (the page shows it once) or revoke one (owners and admins).',
} as const satisfies RouteDef;

export const webhooksPage = {
  face: 'page',
  name: 'dashboard-developers-webhooks',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/developers/webhooks',
  handler: 'functions/dashboard/developers/webhooks.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The merchant's webhook destinations, with the form that adds one (owners and admins).",
} as const satisfies RouteDef;

export const webhooksForm = {
  face: 'page',
  name: 'dashboard-developers-webhooks-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/developers/webhooks',
  handler: 'functions/dashboard/developers/webhooks-form.ts',
  auth: 'session',
  roles: managers,
  group: 'pages',
  table: 'readWrite',
  signsWebhooks: true,
  body: webhooksFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Add a webhook destination (owners and admins): the page shows its signing secret once.',
} as const satisfies RouteDef;

export const destinationPage = {
  face: 'page',
  name: 'dashboard-developers-webhook',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/developers/webhooks/{id}',
  handler: 'functions/dashboard/developers/webhook.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: destinationPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: webhookDestinationNotFound,
  summary: 'A webhook destination: its settings and circuit, and its delivery log filtered by status, event type and response code.',
} as const satisfies RouteDef;

export const destinationForm = {
  face: 'page',
  name: 'dashboard-developers-webhook-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/developers/webhooks/{id}',
  handler: 'functions/dashboard/developers/webhook-form.ts',
  auth: 'session',
  roles: managers,
  group: 'pages',
  table: 'readWrite',
  signsWebhooks: true,
  timeoutSeconds: 20,
  body: destinationFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  unknownId: webhookDestinationNotFound,
  summary: "Send a test ping (the page shows the receiver's answer), reset the circuit or delete the destination (owners and admins).",
} as const satisfies RouteDef;

export const mcpTokensPage = {
  face: 'page',
  name: 'dashboard-developers-mcp-tokens',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/developers/mcp-tokens',
  handler: 'functions/dashboard/developers/mcp-tokens.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The person's MCP tokens on this merchant and deployment, with create and revoke.",
} as const satisfies RouteDef;

export const mcpTokensForm = {
  face: 'page',
  name: 'dashboard-developers-mcp-tokens-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/developers/mcp-tokens',
  handler: 'functions/dashboard/developers/mcp-tokens-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  body: mcpTokensFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Mint an MCP token acting as you on this merchant (the page shows it once), or revoke one of yours.',
} as const satisfies RouteDef;
