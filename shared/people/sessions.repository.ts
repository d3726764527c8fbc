/** Sessions of people, keyed by a derivation of the session token (the token itself is never stored). */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryGsi1, tableName } from '../platform/db/client.ts';
import { SessionEntity, sessionsOfUser, type Session } from './session.entity.ts';

export async function createSession(s: Session): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: SessionEntity.item(s),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getSession(id: string): Promise<Session | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SessionEntity.key({ id }), ConsistentRead: true }));
  return SessionEntity.parseOrNull(Item);
}

export async function deleteSession(id: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: SessionEntity.key({ id }) }));
}

/** Ends every session of `userId`: each one its index lists (sessions expire within hours, so they are few). */
export async function deleteSessionsOf(userId: string): Promise<void> {
  const sessions = (await queryGsi1(sessionsOfUser(userId).gsi1pk)).map(SessionEntity.parse);
  await Promise.all(sessions.map((s) => deleteSession(s.id)));
}
