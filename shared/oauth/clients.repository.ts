/** OAuth clients registered with the authorization server (RFC 7591): what they said of themselves, and a hash of their secret. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import { OAuthClientEntity, type OAuthClient } from './client.entity.ts';

/** A new client; ids are random, so a clash is a bug rather than a conflict. */
export async function putNewClient(client: OAuthClient): Promise<void> {
  await putFresh(OAuthClientEntity.item(client));
}

export async function getClient(id: string): Promise<OAuthClient | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: OAuthClientEntity.key({ id }) }));
  return OAuthClientEntity.parseOrNull(Item);
}
