/**
 * Webhook destinations of the organization face: an account's own destinations (`/api/v1/webhook-destinations`),
 * which receive `transaction-processed` and `transaction-declined` of every organization the account is linked
 * to; and what their deliveries carry (the event types they map from, and the body's envelope).
 */
import { v7 as uuidv7 } from 'uuid';
import { config } from '../platform/config.ts';
import { listAccountLinksOfOrganization, type OrgApiKeyPrincipal, orgApiKeyStillLive } from '../organizations/index.ts';
import * as repo from './org-webhooks.repository.ts';
import type { AccountWebhookDestination, StoredBasicAuth } from './account-webhook-destination.entity.ts';
import { ConflictError, UnauthorizedError, UnprocessableError } from '../domain/errors.ts';
import { accountWebhookDestinationNotFound } from '../domain/unknown-ids.ts';
import type { EventType } from '../platform/events/catalog.ts';
import type { OutboxEvent } from '../platform/events/event.entity.ts';
import { ORG_WEBHOOK_LIMITS, organizationEventTypes, type OrganizationEventType } from './org-webhooks.schemas.ts';
import { basicAuthorization, openPassword, sealPassword } from './basic-auth.ts';
import { signingSecretOf } from './signing-key.ts';
import { assertDeliverableUrl, normalizedWebhookUrl } from '../platform/net/url-guard.ts';

/** The catalog event each organization-face type is made from. */
const sourceOf: Readonly<Record<OrganizationEventType, EventType>> = {
  'transaction-processed': 'payment.completed',
  'transaction-declined': 'payment.failed',
};

/** The organization-face type an outbox event becomes, or null when this face has none for it. */
export const organizationEventTypeOf = (type: EventType): OrganizationEventType | null => organizationEventTypes.find((t) => sourceOf[t] === type) ?? null;

/**
 * A destination as the API shows it: never the password (nor the signing secret, shown at creation only).
 * `circuit` says whether deliveries are paused after repeated failures.
 */
export const destinationView = (d: AccountWebhookDestination) => ({
  id: d.id,
  url: d.url,
  auth: d.auth ? { type: d.auth.type, username: d.auth.username } : null,
  eventTypes: d.eventTypes,
  circuit: { state: d.circuitState, consecutiveFailures: d.consecutiveFailures, openedAt: d.circuitOpenedAt },
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** `whd_` + the 32 hex digits of a UUID v7 (so ids sort by creation time). */
const newDestinationId = () => `whd_${uuidv7().replaceAll('-', '')}`;

interface BasicAuthInput {
  type: 'basic';
  username: string;
  password: string;
}

const sealed = async (auth: BasicAuthInput, accountId: string, destinationId: string): Promise<StoredBasicAuth> => ({
  type: 'basic',
  username: auth.username,
  sealedPassword: await sealPassword(auth.password, { accountId, destinationId }),
});

/** The URL as stored (WHATWG serialisation), once the SSRF guard let it through (422 `webhook.url_forbidden`). */
async function deliverableUrl(url: string): Promise<string> {
  await assertDeliverableUrl(url, { allowLoopback: config.webhookAllowLoopback });
  return normalizedWebhookUrl(url);
}

/**
 * Create a destination of the calling account; the 64-hex signing secret is in this response only. Steps: the
 * URL guard (422 `webhook.url_forbidden`), the password sealed under the destination's id, then one transaction
 * that writes the destination and counts it (422 `webhook.destination_limit_reached` past the limit), on the
 * condition that the calling key is still live: a key revoked while the request ran (by its account, or by a takeover
 * of the person who made the account, which then deletes the account's destinations) makes none, 401
 * `auth.invalid_api_key`.
 */
export async function createDestination(
  caller: Pick<OrgApiKeyPrincipal, 'accountId' | 'apiKeyId'>,
  input: { url: string; auth?: BasicAuthInput | undefined; eventTypes?: OrganizationEventType[] | undefined },
  now = new Date().toISOString(),
) {
  const { accountId } = caller;
  const url = await deliverableUrl(input.url);
  const id = newDestinationId();
  const destination: AccountWebhookDestination = {
    id,
    accountId,
    url,
    eventTypes: input.eventTypes ?? [...organizationEventTypes],
    auth: input.auth ? await sealed(input.auth, accountId, id) : null,
    circuitState: 'closed',
    consecutiveFailures: 0,
    circuitOpenedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await repo.createAccountDestination(destination, ORG_WEBHOOK_LIMITS.destinations, orgApiKeyStillLive(accountId, caller.apiKeyId));
  if (outcome === 'key_revoked') throw new UnauthorizedError('auth.invalid_api_key', 'The API key has been revoked.');
  if (outcome === 'limit_reached') {
    throw new UnprocessableError(
      'webhook.destination_limit_reached',
      `An account can have at most ${ORG_WEBHOOK_LIMITS.destinations} webhook destinations; delete one first.`,
    );
  }
  if (outcome === 'busy')
    throw new ConflictError('webhook.destinations_busy', 'Other destinations of this account were being created at the same moment; try again.');
  return { ...destinationView(destination), secret: await signingSecretOf(id) };
}

/** One page of the account's destinations, by creation time (one Query of the account's partition). */
export async function listDestinations(accountId: string, q: { limit: number; offset: number; sortDirection: 'asc' | 'desc' }) {
  const all = (await repo.listAccountDestinations(accountId, { consistent: true })).sort((a, b) =>
    a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt),
  );
  if (q.sortDirection === 'desc') all.reverse();
  return { totalCount: all.length, data: all.slice(q.offset, q.offset + q.limit).map(destinationView) };
}

async function destinationOf(accountId: string, id: string) {
  const d = repo.isAccountWebhookDestinationId(id) ? await repo.getAccountDestination(accountId, id) : null;
  if (!d) throw accountWebhookDestinationNotFound();
  return d;
}

/** The account's destination; 404 `webhook.not_found` for unknown, malformed and other accounts' ids. */
export const getDestination = async (accountId: string, id: string) => destinationView(await destinationOf(accountId, id));

/**
 * Change `url`, `auth` (replaced as a whole; null removes it) and `eventTypes`. A new URL passes the same guard
 * as on create. Any update also closes the destination's circuit (there is no separate reset on this face).
 */
export async function updateDestination(
  accountId: string,
  id: string,
  input: { url?: string | undefined; auth?: BasicAuthInput | null | undefined; eventTypes?: OrganizationEventType[] | undefined },
  now = new Date().toISOString(),
) {
  if (!repo.isAccountWebhookDestinationId(id)) throw accountWebhookDestinationNotFound();
  const changes: repo.AccountWebhookDestinationChanges = {};
  if (input.url !== undefined) changes.url = await deliverableUrl(input.url);
  if (input.eventTypes !== undefined) changes.eventTypes = input.eventTypes;
  if (input.auth !== undefined) changes.auth = input.auth === null ? null : await sealed(input.auth, accountId, id);
  const updated = await repo.updateAccountDestination(accountId, id, changes, now);
  if (!updated) throw accountWebhookDestinationNotFound();
  return destinationView(updated);
}

/** Delete the account's destination; answers what was deleted. 404 `webhook.not_found`. */
export async function deleteDestination(accountId: string, id: string) {
  const deleted = repo.isAccountWebhookDestinationId(id) ? await repo.deleteAccountDestination(accountId, id) : null;
  if (!deleted) throw accountWebhookDestinationNotFound();
  return destinationView(deleted);
}

/** Deletes every destination of the accounts `accountIds`. */
export async function deleteDestinationsOfAccounts(accountIds: readonly string[]): Promise<void> {
  const destinations = (await Promise.all(accountIds.map((id) => repo.listAccountDestinations(id, { consistent: true })))).flat();
  await Promise.all(destinations.map((d) => repo.deleteAccountDestination(d.accountId, d.id)));
}

// Delivery

/** How `accountSubscribersOf` reads: directly, or through the fan-out's memo of one stream batch. */
export interface AccountLookups {
  /** The ids of the accounts linked to the organization. */
  accountsLinkedTo(organizationId: string): Promise<string[]>;
  destinationsOfAccount(accountId: string): Promise<AccountWebhookDestination[]>;
}

const directLookups: AccountLookups = {
  accountsLinkedTo: async (organizationId) => (await listAccountLinksOfOrganization(organizationId)).map((l) => l.accountId),
  destinationsOfAccount: (accountId) => repo.listAccountDestinations(accountId),
};

/**
 * The destinations an outbox event goes to on this face: for `payment.completed` / `payment.failed` of
 * organization X, the destinations of every account linked to X that subscribe to the mapped type. One Query of
 * X's links, then one Query per linked account, all at once (each once per stream batch with the fan-out's
 * `lookups`).
 */
export async function accountSubscribersOf(event: OutboxEvent, lookups: AccountLookups = directLookups): Promise<AccountWebhookDestination[]> {
  const type = organizationEventTypeOf(event.type);
  if (!type) return [];
  const accountIds = await lookups.accountsLinkedTo(event.merchantId);
  const perAccount = await Promise.all(accountIds.map((id) => lookups.destinationsOfAccount(id)));
  return perAccount.flat().filter((d) => d.eventTypes.includes(type));
}

/**
 * The body of a delivery to an account destination:
 * `{id, type, createdAt, organizationId, data: {transactionId, externalTransactionId, status, amount, currency,
 * declineReason, customerId, orderId, subscriptionId}}`. Amount, currency and decline reason come from the
 * event's `extra` when it has one (`PaymentEventExtra`), else from the catalog payload (`payment.failed` has no
 * amount: null). Null when the event has no type on this face.
 */
export function organizationDeliveryBody(event: OutboxEvent): string | null {
  const type = organizationEventTypeOf(event.type);
  if (!type) return null;
  const p = event.payload;
  const extra = event.extra ?? {};
  const amount = typeof extra.amount === 'number' ? extra.amount : typeof p.amount === 'number' ? p.amount : null;
  const currency = typeof extra.currency === 'string' ? extra.currency : typeof p.currency === 'string' ? p.currency : null;
  return JSON.stringify({
    id: event.id,
    type,
    createdAt: event.occurredAt,
    organizationId: event.merchantId,
    data: {
      transactionId: p.transactionId,
      externalTransactionId: p.externalTransactionId ?? null,
      status: type === 'transaction-processed' ? 'completed' : 'declined',
      amount,
      currency: currency === null ? null : currency.toUpperCase(),
      declineReason: type === 'transaction-declined' && typeof extra.declineReason === 'string' ? extra.declineReason : null,
      customerId: p.customerId ?? null,
      orderId: p.orderId ?? null,
      subscriptionId: p.subscriptionId ?? null,
    },
  });
}

/** The destination's own headers on a delivery: `Authorization: Basic …` when it has credentials. */
export async function destinationHeaders(d: AccountWebhookDestination): Promise<Record<string, string>> {
  if (!d.auth) return {};
  const password = await openPassword(d.auth.sealedPassword, { accountId: d.accountId, destinationId: d.id });
  return { Authorization: basicAuthorization(d.auth.username, password) };
}
