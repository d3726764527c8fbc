import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `bytes` random bytes as lowercase hex (a 32-byte secret gives 64 characters). */
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time equality of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A lowercase UUID as `crypto.randomUUID()` writes it: merchant (organization), account and key ids. */
export const isUuid = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1: the scheme in any case, then one or more
 * spaces; trailing spaces are a header's optional whitespace); undefined for any other header or none.
 */
export const bearerToken = (authorization: string | undefined): string | undefined => /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
