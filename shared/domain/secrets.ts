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
