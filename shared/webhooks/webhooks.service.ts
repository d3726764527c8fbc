/** Webhook destinations as the dashboard manages them: create, read, delete, test ping, circuit reset, history. */
import { randomBytes } from 'node:crypto';
import { config } from '../platform/config.ts';
import * as repo from './webhooks.repository.ts';
import type { WebhookDestination } from './webhook-destination.entity.ts';
import { UnprocessableError } from '../domain/errors.ts';
import { isSubMerchant, type Merchant } from '../domain/merchants.ts';
import { webhookDestinationNotFound } from '../domain/unknown-ids.ts';
import type { EventType } from '../platform/events/catalog.ts';
import { assertDeliverableUrl, normalizedWebhookUrl } from '../platform/net/url-guard.ts';
import { deliveryHeaders } from './signing.ts';
import { signingSecretOf } from './signing-key.ts';
import { postWebhook } from '../platform/net/transport.ts';
import { pageOf, paginationOf, type PageRequest } from '../platform/http/pagination.ts';
import { listMadeBy, makeAs, type SessionPrincipal, sessionMaker } from '../people/index.ts';

/** The test ping waits this long for an answer. */
export const PING_TIMEOUT_MS = 15_000;

/**
 * A destination as team members see it: never the signing secret (it is derived, not stored, and shown at
 * creation only); custom headers by name only, since their values are often the receiver's own credentials.
 */
export const destinationView = (d: WebhookDestination) => ({
  id: d.id,
  merchantId: d.merchantId,
  url: d.url,
  eventTypes: d.eventTypes,
  headerNames: Object.keys(d.headers),
  receiveSubMerchantEvents: d.receiveSubMerchantEvents,
  circuit: { state: d.circuitState, consecutiveFailures: d.consecutiveFailures, openedAt: d.circuitOpenedAt },
  createdAt: d.createdAt,
});

const newDestinationId = () => `wh_${randomBytes(12).toString('hex')}`;
export const isDestinationId = (id: string): boolean => /^wh_[0-9a-f]{24}$/.test(id);

async function destinationOf(merchant: Merchant, id: string) {
  const d = isDestinationId(id) ? await repo.getDestination(merchant.id, id) : null;
  if (!d) throw webhookDestinationNotFound();
  return d;
}

/**
 * Create a destination, added by who is signed in on the dashboard (`by`; null for none: an operator's script; a
 * session started before a takeover of the person's account adds nothing: 401); the
 * 64-hex signing secret is in this response only. The URL is stored in its WHATWG serialisation
 * (`HTTPS://Hooks.Example.COM:443/x` → `https://hooks.example.com/x`), the form the guard judged.
 */
export async function createDestination(
  merchant: Merchant,
  input: { url: string; eventTypes: EventType[]; headers?: Record<string, string>; receiveSubMerchantEvents?: boolean },
  by: SessionPrincipal | null = null,
  now = new Date().toISOString(),
) {
  if (input.receiveSubMerchantEvents && isSubMerchant(merchant)) {
    throw new UnprocessableError('webhook.sub_merchant_events_not_allowed', "Only a parent merchant's destinations can receive sub-merchant events.", {
      field: 'receiveSubMerchantEvents',
    });
  }
  await assertDeliverableUrl(input.url, { allowLoopback: config.webhookAllowLoopback });
  const destination: WebhookDestination = {
    id: newDestinationId(),
    merchantId: merchant.id,
    url: normalizedWebhookUrl(input.url),
    eventTypes: input.eventTypes,
    headers: input.headers ?? {},
    receiveSubMerchantEvents: input.receiveSubMerchantEvents ?? false,
    circuitState: 'closed',
    consecutiveFailures: 0,
    circuitOpenedAt: null,
    createdAt: now,
    madeBy: by?.userId ?? null,
  };
  const maker = by && sessionMaker(by);
  if (maker)
    await makeAs(maker, [repo.putNewDestination(destination)], { kind: 'webhookDestination', id: destination.id, merchantId: merchant.id, createdAt: now });
  else await repo.createDestination(destination);
  return { ...destinationView(destination), secret: await signingSecretOf(destination.id) };
}

export const listDestinations = async (merchant: Merchant) => (await repo.listDestinations(merchant.id)).map(destinationView);

/** One page of the merchant's destinations, as `{data, pagination}` (all of them are read, then paged). */
export const listDestinationsPage = async (merchant: Merchant, page: PageRequest) => pageOf(await listDestinations(merchant), page);

export const getDestination = async (merchant: Merchant, id: string) => destinationView(await destinationOf(merchant, id));

export async function deleteDestination(merchant: Merchant, id: string): Promise<void> {
  if (!isDestinationId(id) || !(await repo.deleteDestination(merchant.id, id))) throw webhookDestinationNotFound();
}

/** Deletes every destination `userId` added, on any merchant. */
export async function deleteDestinationsMadeBy(userId: string): Promise<void> {
  const added = await listMadeBy(userId, 'webhookDestination');
  await Promise.all(added.map((d) => repo.deleteDestination(d.merchantId, d.id)));
}

/** Close the circuit. Events skipped while it was open are not replayed. */
export async function resetCircuit(merchant: Merchant, id: string) {
  const d = isDestinationId(id) ? await repo.resetCircuit(merchant.id, id) : null;
  if (!d) throw webhookDestinationNotFound();
  return destinationView(d);
}

/** A test ping's own `X-Webhook-Id`: never an event's id (`evt_…`), different on every ping. */
const newPingId = () => `ping_${randomBytes(16).toString('hex')}`;

/**
 * Test Connection: a signed `{"type":"webhook.test","createdAt":…}` POST (`X-Webhook-Event: webhook.test`, an
 * `X-Webhook-Id` of its own), answered with what the receiver said. It writes no delivery record and leaves the
 * circuit alone.
 */
export async function pingDestination(merchant: Merchant, id: string, now = new Date()) {
  const d = await destinationOf(merchant, id);
  const body = JSON.stringify({ type: 'webhook.test', createdAt: now.toISOString() });
  const result = await postWebhook({
    url: d.url,
    headers: deliveryHeaders(d.headers, await signingSecretOf(d.id), Math.floor(now.getTime() / 1000), body, { id: newPingId(), type: 'webhook.test' }),
    body,
    timeoutMs: PING_TIMEOUT_MS,
    allowLoopback: config.webhookAllowLoopback,
  });
  const answered = result.outcome === 'response';
  return {
    delivered: answered && result.status >= 200 && result.status < 300,
    httpStatus: answered ? result.status : null,
    error: answered ? null : result.outcome === 'timeout' ? 'timeout' : result.error,
    durationMs: result.durationMs,
  };
}

/** What the delivery history is asked for: a page (from 1) of `limit` records, and the filters. */
export interface DeliveryQuery extends repo.DeliveryFilter {
  page: number;
  limit: number;
}

/** One page of a destination's delivery history, newest first, filtered, as `{data, pagination}`. */
export async function listDeliveries(merchant: Merchant, id: string, query: DeliveryQuery) {
  await destinationOf(merchant, id);
  const { page, limit, ...filter } = query;
  const found = await repo.deliveryPage(id, filter, (page - 1) * limit, limit);
  return {
    data: found.items,
    pagination: paginationOf({ page, limit }, found.totalCount),
  };
}
