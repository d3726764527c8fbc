/**
 * The Developers area's pages and forms. Each page reads through the owning module's service (the API keys of
 * `people`, the destinations and delivery history of `webhooks`, the person's MCP tokens of `agents`); each form
 * checks what was typed, calls that service, and answers a redirect with what happened, the page again with why
 * not (a 4xx), or — for a key, a signing secret or a token — the page with the secret shown this once.
 */
import * as v from 'valibot';
import { agentScopes, type AgentScope, MCP_PATH } from '../../domain/agent-scopes.ts';
import { BadRequestError, DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { createMcpToken, listMcpTokenSummaries, revokeMcpToken } from '../../agents/index.ts';
import { createApiKey, listApiKeySummaries, revokeApiKey, type SessionPrincipal, sessionMaker } from '../../people/index.ts';
import { createOwnAccountKey, ownAccountKeys, revokeOwnAccountKey } from '../../organizations/index.ts';
import { config } from '../../platform/config.ts';
import { eventTypes, type EventType } from '../../platform/events/catalog.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { deliveryStatuses } from '../../webhooks/delivery-vocabulary.schemas.ts';
import { customHeaders } from '../../webhooks/webhooks.schemas.ts';
import { createDestination, deleteDestination, getDestination, listDeliveries, listDestinations, pingDestination, resetCircuit } from '../../webhooks/index.ts';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { firstSending, unsent } from '../kit/sent-once.ts';
import { ApiKeysPage, DevelopersPage, McpTokensPage } from './developers.tsx';
import { DestinationPage, type DeliveryFilters, WebhooksPage } from './webhooks.tsx';

/** The area's addresses. */
export const developersPath = (merchantId: string, rest = '') => merchantPath(merchantId, `/developers${rest}`);

const canManage = (role: Role) => (managers as readonly Role[]).includes(role);

/** A refusal the form can explain (a 4xx of a service): the page is shown again with it. */
const explained = (e: unknown): e is DomainError => e instanceof DomainError && e.status < 500;

/** A field of checkboxes as a list of its values (none, one or several). */
const choices = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const DELIVERIES_PER_PAGE = 20;

// Overview

export function developersPage(merchant: Merchant, role: Role, event: HttpEvent): Promise<Reply> {
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, DevelopersPage({ ctx }));
}

// API keys

interface ApiKeysState {
  done?: string | undefined;
  error?: string | undefined;
  name?: string | undefined;
  /** Which create form the name and error belong to. */
  kind?: 'merchant' | 'organization';
  created?: { name: string; apiKey: string; kind: 'merchant' | 'organization' };
}

export async function apiKeysPage(merchant: Merchant, role: Role, event: HttpEvent, state: ApiKeysState = {}, status = 200): Promise<Reply> {
  const [keys, orgKeys] = await Promise.all([listApiKeySummaries(merchant.id), ownAccountKeys(merchant)]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, ApiKeysPage({ ctx, keys, orgKeys, canManage: canManage(role), ...state }), status);
}

/** Create a key (shown once, in this answer; who is signed in is behind it) or revoke one; owners and admins (the route's roles hold it). */
export async function apiKeysForm(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  form: { action: 'create' | 'revoke' | 'create_org' | 'revoke_org'; name?: string | undefined; apiKeyId?: string | undefined; form_key?: string | undefined },
  by: SessionPrincipal,
): Promise<Reply> {
  if (form.action === 'revoke' || form.action === 'revoke_org') {
    try {
      await (form.action === 'revoke' ? revokeApiKey(merchant.id, form.apiKeyId ?? '') : revokeOwnAccountKey(merchant, form.apiKeyId ?? ''));
      return seeOther(withDone(developersPath(merchant.id, '/api-keys'), 'revoked'));
    } catch (e) {
      if (!explained(e)) throw e;
      return apiKeysPage(merchant, role, event, { error: e.message }, e.status);
    }
  }
  const kind = form.action === 'create' ? 'merchant' : 'organization';
  const name = form.name?.trim() ?? '';
  if (!name) return apiKeysPage(merchant, role, event, { kind, error: 'Enter a name for the key, like "Production server".' }, 400);
  if (!(await firstSending(merchant, kind === 'merchant' ? 'api-keys' : 'organization-api-keys', form.form_key))) {
    return apiKeysPage(merchant, role, event, { done: 'sent_before' });
  }
  const created = await (kind === 'merchant' ? createApiKey(merchant.id, name, sessionMaker(by)) : createOwnAccountKey(merchant, name, sessionMaker(by)));
  return apiKeysPage(merchant, role, event, { created: { name: created.name, apiKey: created.apiKey, kind } });
}

// Webhook destinations

interface WebhooksState {
  done?: string | undefined;
  error?: string | undefined;
  url?: string | undefined;
  /** The custom headers' text as sent, and what is wrong with it. */
  headers?: string | undefined;
  headersError?: string | undefined;
  eventTypesChosen?: readonly string[];
  receiveSubMerchantEvents?: boolean;
  created?: { id: string; url: string; secret: string };
}

export async function webhooksPage(merchant: Merchant, role: Role, event: HttpEvent, state: WebhooksState = {}, status = 200): Promise<Reply> {
  const destinations = await listDestinations(merchant);
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, WebhooksPage({ ctx, destinations, eventTypes, canManage: canManage(role), ...state }), status);
}

/** Add a destination (owners and admins; who is signed in adds it): the page then shows its signing secret once. */
export async function webhooksForm(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  form: {
    url?: string | undefined;
    eventTypes?: string | string[] | undefined;
    receiveSubMerchantEvents?: string | undefined;
    headers?: string | undefined;
    form_key?: string | undefined;
  },
  by: SessionPrincipal,
): Promise<Reply> {
  const url = form.url?.trim() ?? '';
  const chosen = [...new Set(choices(form.eventTypes))];
  const receiveSubMerchantEvents = form.receiveSubMerchantEvents === 'on';
  const headers = headersOf(form.headers ?? '');
  const again = (error: string, status: number, headersError?: string) =>
    webhooksPage(
      merchant,
      role,
      event,
      { error, url: form.url, eventTypesChosen: chosen, receiveSubMerchantEvents, headers: form.headers, headersError },
      status,
    );
  if (!url) return again('Enter the URL that receives the webhooks, like https://example.com/webhooks.', 400);
  if (chosen.length === 0) return again('Choose at least one event type.', 400);
  if (!chosen.every((t) => (eventTypes as readonly string[]).includes(t))) return again('Choose event types from the list.', 400);
  if (typeof headers === 'string') return again('Check the custom headers.', 400, headers);
  if (!(await firstSending(merchant, 'webhooks', form.form_key))) return webhooksPage(merchant, role, event, { done: 'sent_before' });
  try {
    const created = await createDestination(merchant, { url, eventTypes: chosen as EventType[], receiveSubMerchantEvents, headers }, by);
    return webhooksPage(merchant, role, event, { created: { id: created.id, url: created.url, secret: created.secret } });
  } catch (e) {
    if (!explained(e)) throw e;
    // Refused (the URL, say): nothing was added, so the same form may be sent again as it is.
    await unsent(merchant, 'webhooks', form.form_key!);
    return again(e.message, e.status);
  }
}

/**
 * The custom headers of the add form's text (one `Name: value` a line, blank lines skipped), held to the API's rules
 * (`customHeaders`); what is wrong with them as a sentence.
 */
function headersOf(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const [n, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `Line ${n + 1}: write each header on its own line as Name: value.`;
    const name = line.slice(0, colon).trim();
    if (Object.hasOwn(headers, name)) return `Line ${n + 1}: ${name} is named twice.`;
    headers[name] = line.slice(colon + 1).trim();
  }
  const checked = v.safeParse(customHeaders, headers);
  if (checked.success) return checked.output;
  const issue = checked.issues[0];
  const path = v.getDotPath(issue);
  return `${path ? `${path} ` : 'The headers '}${issue.message}.`;
}

/** The delivery log's filters and page from the page's query; a value no list offers is a 400. */
function deliveryFilters(query: { status?: string | undefined; eventType?: string | undefined; httpStatus?: string | undefined; page?: string | undefined }) {
  const status = query.status?.trim() || undefined;
  const eventType = query.eventType?.trim() || undefined;
  const httpStatus = query.httpStatus?.trim() || undefined;
  const page = query.page?.trim() || '1';
  if (status !== undefined && !(deliveryStatuses as readonly string[]).includes(status)) {
    throw new BadRequestError('request.invalid_query', `Filter by one of the statuses: ${deliveryStatuses.join(', ')}.`);
  }
  if (eventType !== undefined && !(eventTypes as readonly string[]).includes(eventType)) {
    throw new BadRequestError('request.invalid_query', 'Filter by an event type of the list.');
  }
  if (httpStatus !== undefined && !(/^\d{3}$/.test(httpStatus) && Number(httpStatus) >= 100 && Number(httpStatus) <= 599)) {
    throw new BadRequestError('request.invalid_query', 'A response code is a number from 100 to 599, like 200 or 500.');
  }
  if (!/^\d{1,6}$/.test(page) || Number(page) < 1) throw new BadRequestError('request.invalid_query', 'The page is a whole number from 1.');
  const filters: DeliveryFilters = {
    ...(status ? { status: status as DeliveryFilters['status'] } : {}),
    ...(eventType ? { eventType: eventType as EventType } : {}),
    ...(httpStatus ? { httpStatus: Number(httpStatus) } : {}),
  };
  return { filters, page: Number(page) };
}

interface DestinationState {
  done?: string | undefined;
  error?: string | undefined;
  ping?: Awaited<ReturnType<typeof pingDestination>>;
}

/** A destination and one page of its delivery log (read at once), filtered as the query says. */
export async function destinationPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  id: string,
  query: { status?: string | undefined; eventType?: string | undefined; httpStatus?: string | undefined; page?: string | undefined } = {},
  state: DestinationState = {},
  status = 200,
): Promise<Reply> {
  const { filters, page } = deliveryFilters(query);
  const [destination, deliveries] = await Promise.all([
    getDestination(merchant, id),
    listDeliveries(merchant, id, { ...filters, page, limit: DELIVERIES_PER_PAGE }),
  ]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    DestinationPage({
      ctx,
      destination,
      deliveries: deliveries.data,
      pagination: deliveries.pagination,
      filters,
      eventTypes,
      canManage: canManage(role),
      ...state,
    }),
    status,
  );
}

/** Send a test ping (its answer shown on the page; no history), reset the circuit, or delete the destination. */
export async function destinationForm(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  id: string,
  action: 'test' | 'reset_circuit' | 'delete',
): Promise<Reply> {
  try {
    if (action === 'test') {
      const ping = await pingDestination(merchant, id);
      return destinationPage(merchant, role, event, id, {}, { ping });
    }
    if (action === 'reset_circuit') {
      await resetCircuit(merchant, id);
      return seeOther(withDone(developersPath(merchant.id, `/webhooks/${id}`), 'circuit_reset'));
    }
    await deleteDestination(merchant, id);
    return seeOther(withDone(developersPath(merchant.id, '/webhooks'), 'deleted'));
  } catch (e) {
    // An unknown destination is the route's 404 page; any other refusal is said on the destination's page.
    if (!explained(e) || e.status === 404) throw e;
    return destinationPage(merchant, role, event, id, {}, { error: e.message }, e.status);
  }
}

// MCP tokens

interface McpTokensState {
  done?: string | undefined;
  error?: string | undefined;
  name?: string | undefined;
  scopes?: readonly string[];
  created?: { name: string; token: string; expiresAt: string };
}

const mcpUrl = () => `${config.publicOrigin}${MCP_PATH}`;

export async function mcpTokensPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  userId: string,
  state: McpTokensState = {},
  status = 200,
): Promise<Reply> {
  const tokens = await listMcpTokenSummaries(merchant, userId);
  const ctx = pageContext(event, merchant, role);
  return pageReply(ctx, McpTokensPage({ ctx, tokens, mcpUrl: mcpUrl(), now: new Date().toISOString(), ...state }), status);
}

/** Mint a token acting as the person on this merchant (shown once, in this answer), or revoke one of theirs. */
export async function mcpTokensForm(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  by: SessionPrincipal,
  form: {
    action: 'create' | 'revoke';
    name?: string | undefined;
    scopes?: string | string[] | undefined;
    expiresInDays?: string | undefined;
    mcpTokenId?: string | undefined;
    form_key?: string | undefined;
  },
): Promise<Reply> {
  const userId = by.userId;
  if (form.action === 'revoke') {
    try {
      await revokeMcpToken(merchant, userId, form.mcpTokenId ?? '');
      return seeOther(withDone(developersPath(merchant.id, '/mcp-tokens'), 'revoked'));
    } catch (e) {
      if (!explained(e)) throw e;
      return mcpTokensPage(merchant, role, event, userId, { error: e.message }, e.status);
    }
  }
  const name = form.name?.trim() ?? '';
  const scopes = [...new Set(choices(form.scopes))];
  const days = form.expiresInDays?.trim() || '7';
  const again = (error: string) => mcpTokensPage(merchant, role, event, userId, { error, name: form.name, scopes }, 400);
  if (!name) return again('Enter a name for the token, like "Claude on my laptop".');
  if (name.length > 100) return again('Keep the name to 100 characters.');
  if (scopes.length === 0) return again('Choose at least one scope.');
  if (!scopes.every((s) => (agentScopes as readonly string[]).includes(s))) return again('Choose scopes from the list.');
  if (!/^[1-7]$/.test(days)) return again('Choose a lifetime of 1 to 7 days.');
  if (!(await firstSending(merchant, 'mcp-tokens', form.form_key))) return mcpTokensPage(merchant, role, event, userId, { done: 'sent_before' });
  const created = await createMcpToken(merchant, by, { name, scopes: scopes as AgentScope[], expiresInDays: Number(days) });
  return mcpTokensPage(merchant, role, event, userId, { created: { name: created.name, token: created.token, expiresAt: created.expiresAt } });
}
