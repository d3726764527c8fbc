/**
 * A session of a person (`SESSION#<sessionId>` / `SESSION`), keyed by a derivation of the session token (the token
 * itself is never stored), with the stamp of the password it was started with (./passwords.rules.ts). Its `ttl` lets
 * DynamoDB delete the item some time after expiry; expiry itself is checked on every read.
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity } from '../platform/db/entity.ts';

/** Where a session was started, and so the only place it works: the dashboard, or the OAuth authorization pages. */
export type SessionPurpose = 'dashboard' | 'oauth';

export interface Session {
  id: string;
  userId: string;
  purpose: SessionPurpose;
  mode: Mode;
  /** `passwordStampOf` the person's password hash when the session started: it works only while that is theirs. */
  passwordStamp: string;
  createdAt: string;
  expiresAt: string;
}

export const session = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' });

export const SessionEntity = entity<Session, { id: string }>({
  kind: 'session',
  schema: v.object({
    id: v.string(),
    userId: v.string(),
    // A session stored before purposes existed is a dashboard session.
    purpose: v.optional(v.picklist(['dashboard', 'oauth']), 'dashboard'),
    mode: v.picklist(['test', 'live']),
    // A session stored before stamps existed matches no password: it is over.
    passwordStamp: v.optional(v.string(), ''),
    createdAt: v.string(),
    expiresAt: v.string(),
  }),
  key: (s) => session(s.id),
  attributes: (s) => ({ ttl: Math.ceil(Date.parse(s.expiresAt) / 1000) }),
});
