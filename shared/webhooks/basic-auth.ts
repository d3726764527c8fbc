/**
 * Basic authentication of account webhook destinations (organization face). The sender must send the password,
 * so it cannot be hashed; it is sealed instead:
 *
 *   sealed = "v1." + b64url(iv) + "." + b64url(ciphertext) + "." + b64url(tag)
 *
 * AES-256-GCM with a fresh 12-byte IV, under `basicAuthKey()` (derived from the deployment's webhook signing key
 * with the label `webhook-basic-auth:v1`), with the destination as additional authenticated data: a sealed
 * password copied onto another destination does not open. A copy of the table holds no password.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { basicAuthKey } from './signing-key.ts';

const VERSION = 'v1';

/** What a sealed password is bound to: the account and destination it belongs to. */
const aad = (owner: { accountId: string; destinationId: string }) => Buffer.from(`account-webhook:${owner.accountId}:${owner.destinationId}`, 'utf8');

/** Seals `password` for the destination `owner`. */
export async function sealPassword(password: string, owner: { accountId: string; destinationId: string }): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await basicAuthKey(), iv);
  cipher.setAAD(aad(owner));
  const ciphertext = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The password sealed for `owner`; throws when the value was altered or sealed for another destination. */
export async function openPassword(sealed: string, owner: { accountId: string; destinationId: string }): Promise<string> {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || ciphertext === undefined || !tag || rest.length) throw new Error('not a sealed webhook password');
  const decipher = createDecipheriv('aes-256-gcm', await basicAuthKey(), Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad(owner));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** `Authorization: Basic base64(username:password)` (RFC 7617, UTF-8). */
export const basicAuthorization = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
