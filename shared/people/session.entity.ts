/**
 * A session of a person (`SESSION#<sessionId>` / `SESSION`, on gsi1 as `SESSIONS#<userId>` by creation), keyed by a
 * derivation of the session token (the token itself is never stored). Its `ttl` lets DynamoDB delete the item some time after expiry; expiry itself is checked
 * on every read.
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
  createdAt: string;
  expiresAt: string;
}

export const session = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' });
/** The gsi1 partition of a person's sessions. */
export const sessionsOfUser = (userId: string) => ({ gsi1pk: `SESSIONS#${userId}` });

export const SessionEntity = entity<Session, { id: string }>({
  kind: 'session',
  schema: v.object({
    id: v.string(),
    userId: v.string(),
    // A session stored before purposes existed is a dashboard session.
    purpose: v.optional(v.picklist(['dashboard', 'oauth']), 'dashboard'),
    mode: v.picklist(['test', 'live']),
    createdAt: v.string(),
    expiresAt: v.string(),
  }),
  key: (s) => session(s.id),
  // On gsi1 under its person, so a password reset finds and ends every session of theirs.
  attributes: (s) => ({ ttl: Math.ceil(Date.parse(s.expiresAt) / 1000), ...sessionsOfUser(s.userId), gsi1sk: s.createdAt }),
});
