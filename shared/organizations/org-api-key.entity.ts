/**
 * An API key of an organization API account (`ORGKEY#<apiKeyId>` / `ORGKEY`), listed per account through gsi1 by
 * creation (`ORGKEYS#<accountId>`). Only the verifier of its secret is stored; rotation replaces it under the same id.
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';

export interface OrgApiKeyRecord {
  id: string;
  accountId: string;
  mode: Mode;
  /** Verifier of the current secret; rotation replaces it. */
  verifier: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  revokedAt: string | null;
  rotatedAt: string | null;
}

export const orgApiKey = (apiKeyId: string) => ({ pk: `ORGKEY#${apiKeyId}`, sk: 'ORGKEY' });
export const orgApiKeyListing = (accountId: string, createdAt: string, apiKeyId: string) => ({
  gsi1pk: `ORGKEYS#${accountId}`,
  gsi1sk: `${createdAt}#${apiKeyId}`,
});

export const OrgApiKeyEntity = entity<OrgApiKeyRecord, { id: string }>({
  kind: 'orgApiKey',
  schema: v.object({
    id: v.string(),
    accountId: v.string(),
    mode: v.picklist(['test', 'live']),
    verifier: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
    deletedAt: orNull(v.string()),
    revokedAt: orNull(v.string()),
    rotatedAt: orNull(v.string()),
  }),
  key: (k) => orgApiKey(k.id),
  attributes: (k) => orgApiKeyListing(k.accountId, k.createdAt, k.id),
});
