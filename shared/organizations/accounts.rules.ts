/**
 * Organization API accounts and their keys.
 *
 * The key a caller sends is `<accountId>_<apiKey>_<apiKeyId>`: the account's UUID, a 64-hex secret and the key
 * record's UUID, joined by underscores (none of the parts contains one). Only derivations of the secret are
 * stored: its SHA-256 verifier. The key id finds the record in one read; rotating a key replaces its secret
 * (and verifier) under the same id, so the old value stops working at once.
 *
 * An account's own secret (for activation, changing the secret, and issuing keys) is stored as a scrypt hash,
 * because a caller may choose it.
 */
import { randomHex, sha256Hex } from '../domain/secrets.ts';

const uuidPart = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const fullKeyPattern = new RegExp(`^(${uuidPart})_([0-9a-f]{64})_(${uuidPart})$`);

export interface OrgApiKeyParts {
  accountId: string;
  secret: string;
  apiKeyId: string;
}

/** The three parts of a full key, or null when the string is not one. */
export function parseOrgApiKey(value: string): OrgApiKeyParts | null {
  const match = fullKeyPattern.exec(value);
  return match ? { accountId: match[1]!, secret: match[2]!, apiKeyId: match[3]! } : null;
}

export const joinOrgApiKey = (p: OrgApiKeyParts): string => `${p.accountId}_${p.secret}_${p.apiKeyId}`;
export const newOrgApiKeySecret = (): string => randomHex(32);
export const orgApiKeyVerifierOf = (secret: string): string => sha256Hex(`org-api-key:${secret}`);

/** An account's first secret, shown once by the operator CLI: 64 hex. */
export const newAccountSecret = (): string => randomHex(32);

/** Chosen secrets: long enough that guessing one is hopeless even at the throttled rate. */
export const MIN_ACCOUNT_SECRET_LENGTH = 24;
export const MAX_ACCOUNT_SECRET_LENGTH = 128;

/** What an account is for. Accounts made by the operator CLI are `service` accounts (backend integrations). */
export type AccountUserType = 'service';
