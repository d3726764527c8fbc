/**
 * A webhook destination of an organization-API account (`ACCOUNT#<accountId>` / `WEBHOOK#<destId>`, listed by a
 * Query of the account's partition), with the same circuit attributes as a merchant's destination, and the count
 * item (`ACCOUNT#<accountId>` / `WEBHOOKCOUNT`) that keeps the account within its limit.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { organizationEventTypes, type OrganizationEventType } from './org-webhooks.schemas.ts';

/** Basic-auth credentials as stored: the password sealed (shared/webhooks/basic-auth.ts), never in plain text. */
export interface StoredBasicAuth {
  type: 'basic';
  username: string;
  sealedPassword: string;
}

export interface AccountWebhookDestination {
  id: string;
  accountId: string;
  url: string;
  eventTypes: OrganizationEventType[];
  auth: StoredBasicAuth | null;
  circuitState: 'closed' | 'open';
  consecutiveFailures: number;
  circuitOpenedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A webhook destination of an organization-API account (organization face), in the account's partition. */
export const accountWebhookDestinationKey = (accountId: string, destinationId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WEBHOOK#${destinationId}` });
/** Every webhook destination of an account: one Query. */
export const accountWebhookDestinationsOf = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'WEBHOOK#' });
/** How many webhook destinations an account has (the guard of its limit). */
export const accountWebhookCountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WEBHOOKCOUNT' });

export const AccountWebhookDestinationEntity = entity<AccountWebhookDestination, { accountId: string; id: string }>({
  kind: 'accountWebhookDestination',
  schema: v.object({
    id: v.string(),
    accountId: v.string(),
    url: v.string(),
    eventTypes: v.array(v.picklist(organizationEventTypes)),
    auth: orNull(v.object({ type: v.literal('basic'), username: v.string(), sealedPassword: v.string() })),
    circuitState: v.picklist(['closed', 'open']),
    consecutiveFailures: v.optional(v.number(), 0),
    circuitOpenedAt: orNull(v.string()),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (d) => accountWebhookDestinationKey(d.accountId, d.id),
});
