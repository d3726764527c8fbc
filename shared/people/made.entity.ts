/**
 * What a person set up that outlives their sessions, listed under the person (`USER#<userId>` /
 * `MADE#<kind>#<createdAt>#<id>`): each entry is written in the same transaction as the thing, beside a check that the
 * credential it was made with still speaks for the person (`madeByItems`). A password reset that takes the account
 * over marks the person (`takenOverAt`) in its own transaction, then reads these entries with a consistent read: every
 * thing made before the mark is listed, and none is made after it with a credential issued before it.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

/** The kinds of things listed under the person who made them. */
export type MadeKind = 'apiKey' | 'webhookDestination' | 'account' | 'mcpToken' | 'oauthGrant';

/** Who makes something, and since when the credential they make it with speaks for them. */
export interface Maker {
  userId: string;
  /**
   * When the credential was issued: the session's start on the dashboard, the key's creation through the API. A
   * takeover after it refuses what it makes.
   */
  since: string;
  /** The credential: a dashboard session, or an API key. */
  via: 'session' | 'apiKey';
}

export interface Made {
  userId: string;
  kind: MadeKind;
  id: string;
  /** The merchant the thing belongs to (an account: the merchant it was made for). */
  merchantId: string;
  createdAt: string;
  /** An account's keys made with it: ended from here, not from the account's key listing (an index that may lag). */
  keyIds?: string[] | undefined;
  /** When the thing stops working by itself (an MCP token, an agent's grant): its entry goes some time after (`ttl`). */
  expiresAt?: string | undefined;
}

/** The start of the sort keys of the things of `kind` a person made. */
export const madeOf = (kind: MadeKind) => `MADE#${kind}#`;

export const MadeEntity = entity<Made, Made>({
  kind: 'made',
  schema: v.object({
    userId: v.string(),
    kind: v.picklist(['apiKey', 'webhookDestination', 'account', 'mcpToken', 'oauthGrant']),
    id: v.string(),
    merchantId: v.string(),
    createdAt: v.string(),
    keyIds: v.optional(v.array(v.string())),
    expiresAt: v.optional(v.string()),
  }),
  key: (m) => ({ pk: `USER#${m.userId}`, sk: `${madeOf(m.kind)}${m.createdAt}#${m.id}` }),
  attributes: (m) => (m.expiresAt ? { ttl: Math.ceil(Date.parse(m.expiresAt) / 1000) } : {}),
});
