/** Sessions of people, keyed by a derivation of the session token (the token itself is never stored). */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/deployments.ts';
import { db, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';

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

export async function createSession(s: Session): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      // `ttl` lets DynamoDB delete the item some time after expiry; expiry itself is checked on every read.
      Item: { ...keys.session(s.id), entity: 'session', ...s, ttl: Math.ceil(Date.parse(s.expiresAt) / 1000) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getSession(id: string): Promise<Session | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.session(id), ConsistentRead: true }));
  if (!Item) return null;
  // A session stored before purposes existed is a dashboard session.
  return { id: Item.id, userId: Item.userId, purpose: Item.purpose ?? 'dashboard', mode: Item.mode, createdAt: Item.createdAt, expiresAt: Item.expiresAt };
}

export async function deleteSession(id: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.session(id) }));
}
