/**
 * Merchant API key format: `mor_test_<64 lowercase hex>` on sandbox, `mor_live_<64 lowercase hex>` on live.
 *
 * Only derivations of a key are stored: its public id (`ak_` + 24 hex of SHA-256 over a labelled input) and its
 * verifier (SHA-256 of the key). Neither reveals the key, and the id lets a request find its record in one read.
 */
import type { Mode } from '../domain/deployments.ts';
import { randomHex, sha256Hex } from '../domain/secrets.ts';

export const KEY_PREFIX = 'mor';
const pattern = /^mor_(test|live)_([0-9a-f]{64})$/;

export function generateApiKey(mode: Mode): string {
  return `${KEY_PREFIX}_${mode}_${randomHex(32)}`;
}

/** The mode a well-formed key belongs to, or null when the string is not a key of ours. */
export function modeOfApiKey(token: string): Mode | null {
  const match = pattern.exec(token);
  return match ? (match[1] as Mode) : null;
}

export const apiKeyIdOf = (token: string): string => `ak_${sha256Hex(`api-key-id:${token}`).slice(0, 24)}`;
export const isApiKeyId = (id: string): boolean => /^ak_[0-9a-f]{24}$/.test(id);
export const apiKeyVerifierOf = (token: string): string => sha256Hex(token);
/** A short, non-secret reminder of which key this is: prefix and the last four characters. */
export const apiKeyHintOf = (token: string): string => `${token.slice(0, 9)}…${token.slice(-4)}`;
