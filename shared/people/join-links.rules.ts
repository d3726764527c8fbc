/**
 * Owner-claim join links. The token is `<merchantId>.<64 hex>`: the merchant id finds the record in one read,
 * the secret part is verified against the stored verifier. Minting a new link replaces the verifier, so every
 * earlier link stops working.
 */
import { randomHex, sha256Hex } from '../domain/secrets.ts';

const pattern = /^([0-9a-f-]{36})\.([0-9a-f]{64})$/;

export const generateJoinToken = (merchantId: string): string => `${merchantId}.${randomHex(32)}`;
export const joinTokenVerifierOf = (token: string): string => sha256Hex(token);

/** The merchant id a join token names, or null when the string is not a join token. */
export const merchantIdOfJoinToken = (token: string): string | null => pattern.exec(token)?.[1] ?? null;
