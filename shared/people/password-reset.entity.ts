/**
 * A person's password reset (`USER#<userId>` / `PASSWORDRESET`): the verifier of the latest link mailed to them and
 * when it stops working. Asking again replaces it, so only the latest link works; setting a password with it deletes
 * it, so it works once. Its `ttl` lets DynamoDB delete it some time after it expired; expiry itself is checked on
 * every read.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface PasswordReset {
  userId: string;
  /** The address the link was mailed to (absent on links asked for before it was kept): setting the password proves it. */
  email?: string | undefined;
  /** SHA-256 of the link's token (the token itself is never stored). */
  verifier: string;
  createdAt: string;
  expiresAt: string;
}

export const PasswordResetEntity = entity<PasswordReset, { userId: string }>({
  kind: 'password-reset',
  schema: v.object({ userId: v.string(), email: v.optional(v.string()), verifier: v.string(), createdAt: v.string(), expiresAt: v.string() }),
  key: (r) => ({ pk: `USER#${r.userId}`, sk: 'PASSWORDRESET' }),
  attributes: (r) => ({ ttl: Math.ceil(Date.parse(r.expiresAt) / 1000) }),
});
