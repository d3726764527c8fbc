/**
 * Password hashing with scrypt (N=2^15, r=8, p=1, 32-byte salt, 64-byte key), stored as
 * `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so parameters can be raised later without breaking old hashes.
 * N is `config.passwordHashCost` (2^15; only a local stack may set it lower).
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from '../platform/config.ts';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

const r = 8;
const p = 1;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(32);
  const N = 2 ** config.passwordHashCost;
  const key = await scrypt(password, salt, 64, { N, r, p, maxmem });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem,
  });
  return timingSafeEqual(key, expected);
}

let decoy: Promise<string> | undefined;
/** A hash of a random password, verified against when the e-mail is unknown so both paths take equally long. */
export const decoyPasswordHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(16).toString('hex')));

/**
 * The stamp of a password hash that a session keeps: the session works only while its person's password is the one it
 * was started with, so setting a new password ends every session at once, however many there are.
 */
export const passwordStampOf = (passwordHash: string): string => createHash('sha256').update(passwordHash).digest('hex').slice(0, 32);
