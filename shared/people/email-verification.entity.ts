/**
 * A person's e-mail verification (`USER#<userId>` / `EMAILVERIFY`): the verifier of the latest link mailed to their
 * sign-in address and when it stops working. Asking again replaces it, so only the latest link works; confirming with
 * it deletes it and marks the address verified (`User.emailVerifiedAt`). Its `ttl` lets DynamoDB delete it some time
 * after it expired; expiry itself is checked on every read.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface EmailVerification {
  userId: string;
  /** The address the link was mailed to: confirming verifies it only while it is still the person's. */
  email: string;
  /** SHA-256 of the link's token (the token itself is never stored). */
  verifier: string;
  createdAt: string;
  expiresAt: string;
}

export const EmailVerificationEntity = entity<EmailVerification, { userId: string }>({
  kind: 'email-verification',
  schema: v.object({ userId: v.string(), email: v.string(), verifier: v.string(), createdAt: v.string(), expiresAt: v.string() }),
  key: (r) => ({ pk: `USER#${r.userId}`, sk: 'EMAILVERIFY' }),
  attributes: (r) => ({ ttl: Math.ceil(Date.parse(r.expiresAt) / 1000) }),
});
