/**
 * A merchant API key (`APIKEY#<keyId>` / `APIKEY`): found by key id in one read, listed per merchant through gsi1 by
 * creation (`APIKEYS#<merchantId>`), and under the person who made it, when a person did (./made.entity.ts). Only the
 * SHA-256 of the key is stored.
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';

export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  name: string;
  mode: Mode;
  /** SHA-256 of the key; the key itself is never stored. */
  verifier: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /**
   * The person behind the key: who made it on the dashboard, or, for a key made through the API, the person behind
   * the key that made it. Null for a key the platform issued (a partner's first key) or one made by such a key, and
   * for keys made before keys recorded it.
   */
  madeBy: string | null;
}

export const apiKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
/** A merchant's keys on gsi1, oldest first. */
export const apiKeysOfMerchant = (merchantId: string) => ({ gsi1pk: `APIKEYS#${merchantId}` });
export const apiKeyListing = (merchantId: string, createdAt: string, keyId: string) => ({
  gsi1pk: `APIKEYS#${merchantId}`,
  gsi1sk: `${createdAt}#${keyId}`,
});

export const ApiKeyEntity = entity<ApiKeyRecord, { id: string }>({
  kind: 'apiKey',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    name: v.string(),
    mode: v.picklist(['test', 'live']),
    verifier: v.string(),
    hint: v.string(),
    createdAt: v.string(),
    lastUsedAt: orNull(v.string()),
    revokedAt: orNull(v.string()),
    madeBy: orNull(v.string()),
  }),
  key: (k) => apiKey(k.id),
  attributes: (k) => apiKeyListing(k.merchantId, k.createdAt, k.id),
});
