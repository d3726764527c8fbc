/** Sessions of people, keyed by a derivation of the session token (the token itself is never stored). */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import type { ItemRead } from '../platform/db/batch-read.ts';
import { SessionEntity, type Session } from './session.entity.ts';

export async function createSession(s: Session): Promise<void> {
  await putFresh(SessionEntity.item(s));
}

export const sessionRead = (id: string): ItemRead<Session> => ({ key: SessionEntity.key({ id }), from: SessionEntity.parse });

export async function deleteSession(id: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: SessionEntity.key({ id }) }));
}
