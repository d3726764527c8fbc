/** API keys: issue, list, revoke, and authenticate a request's bearer key. */
import { config } from '../platform/config.ts';
import type { Mode } from '../domain/deployments.ts';
import { createApiKeyRecord, getApiKey, getApiKeyAndMerchant, listApiKeys, putNewApiKey, revokeApiKeyRecord, touchApiKey } from './api-keys.repository.ts';
import type { ApiKeyRecord } from './api-key.entity.ts';
import type { Maker } from './made.entity.ts';
import { listMadeBy } from './made.repository.ts';
import { makeAs } from './made.service.ts';
import { apiKeyHintOf, apiKeyIdOf, apiKeyVerifierOf, generateApiKey, isApiKeyId, modeOfApiKey } from './api-keys.rules.ts';
import { UnauthorizedError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { bearerToken, safeEqual } from '../domain/secrets.ts';
import { merchantApiKeyNotFound } from '../domain/unknown-ids.ts';

export interface ApiKeyPrincipal {
  kind: 'apiKey';
  keyId: string;
  merchantId: string;
  mode: Mode;
  /**
   * The person behind the key (`ApiKeyRecord.madeBy`), behind the keys it makes too, and since when the key speaks for
   * them (its creation); null for a key the platform issued.
   */
  maker: Maker | null;
}

/** `PublicApiApiKeySummary`: everything about a key except the key. */
export interface ApiKeySummary {
  id: string;
  name: string;
  hint: string;
  mode: Mode;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const toSummary = (k: ApiKeyRecord): ApiKeySummary => ({
  id: k.id,
  name: k.name,
  hint: k.hint,
  mode: k.mode,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

/**
 * A new key and the record that stores only its derivations, `madeBy` the person behind it (null: the platform). The
 * key is returned to the caller once.
 */
export function newApiKey(merchantId: string, name: string, mode: Mode, madeBy: string | null, now: string): { record: ApiKeyRecord; apiKey: string } {
  const apiKey = generateApiKey(mode);
  const record: ApiKeyRecord = {
    id: apiKeyIdOf(apiKey),
    merchantId,
    name,
    mode,
    verifier: apiKeyVerifierOf(apiKey),
    hint: apiKeyHintOf(apiKey),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
    madeBy,
  };
  return { record, apiKey };
}

/**
 * `PublicApiCreateApiKeyResponse`: the summary plus `apiKey`, shown in this response only. `maker`: the person behind
 * it (who is signed in on the dashboard, or the person behind the calling key). A session or key issued before a
 * takeover of the person's account makes nothing: 401, as the credential itself is about to be.
 */
export async function createApiKey(merchantId: string, name: string, maker: Maker | null, now = new Date().toISOString()) {
  const { record, apiKey } = newApiKey(merchantId, name, config.mode, maker?.userId ?? null, now);
  if (maker) await makeAs(maker, [putNewApiKey(record)], { kind: 'apiKey', id: record.id, merchantId, createdAt: now });
  else await createApiKeyRecord(record);
  return { ...toSummary(record), apiKey };
}

export const listApiKeySummaries = async (merchantId: string): Promise<ApiKeySummary[]> => (await listApiKeys(merchantId)).map(toSummary);

/** Revoke; revoking an already revoked key succeeds again. Another merchant's key id is not found. */
export async function revokeApiKey(merchantId: string, keyId: string, now = new Date().toISOString()): Promise<void> {
  const outcome = isApiKeyId(keyId) ? await revokeApiKeyRecord(merchantId, keyId, now) : 'not_found';
  if (outcome === 'not_found') throw merchantApiKeyNotFound();
}

/**
 * Revokes every key `userId` is behind, on any merchant (keys made through the API by such a key included: they carry
 * the same person). For when the account's first proof of its address takes it over from whoever made it.
 */
export async function revokeApiKeysMadeBy(userId: string, now = new Date().toISOString()): Promise<void> {
  await Promise.all((await listMadeBy(userId, 'apiKey')).map((k) => revokeApiKeyRecord(k.merchantId, k.id, now)));
}

/**
 * Who is calling, from `Authorization: Bearer <key>`. Unknown, malformed, revoked and other-mode keys are all
 * refused with 401; only the message differs, and it never echoes the key.
 *
 * With `merchantId` (the merchant a request's path names), that merchant is read in the same call as the key and
 * returned as found (null: no such merchant) — NOT scope-checked: that is the caller's next step.
 */
export async function authenticateApiKey(
  authorization: string | undefined,
  merchantId?: string,
  now = new Date(),
): Promise<{ principal: ApiKeyPrincipal; merchant?: Merchant | null }> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('auth.missing_api_key', 'Send your API key as "Authorization: Bearer <key>".');
  const mode = modeOfApiKey(token);
  if (!mode) throw new UnauthorizedError('auth.invalid_api_key', 'The API key is not valid.');
  if (mode !== config.mode) {
    throw new UnauthorizedError('auth.invalid_api_key', `This is a ${mode} key; this deployment accepts ${config.mode} keys only.`);
  }
  const { key: record, merchant } =
    merchantId === undefined ? { key: await getApiKey(apiKeyIdOf(token)), merchant: undefined } : await getApiKeyAndMerchant(apiKeyIdOf(token), merchantId);
  if (!record || !safeEqual(record.verifier, apiKeyVerifierOf(token)) || record.mode !== config.mode) {
    throw new UnauthorizedError('auth.invalid_api_key', 'The API key is not valid.');
  }
  if (record.revokedAt) throw new UnauthorizedError('auth.invalid_api_key', 'The API key has been revoked.');
  await touchApiKey(record, now);
  const maker: Maker | null = record.madeBy ? { userId: record.madeBy, since: record.createdAt, via: 'apiKey' } : null;
  const principal: ApiKeyPrincipal = { kind: 'apiKey', keyId: record.id, merchantId: record.merchantId, mode: record.mode, maker };
  return merchantId === undefined ? { principal } : { principal, merchant };
}
