/** OAuth clients registered with the authorization server (RFC 7591): what they said of themselves, and a hash of their secret. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/deployments.ts';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { ClientAuthMethod, GrantType } from './oauth.rules.ts';

export interface OAuthClient {
  id: string;
  name: string | null;
  clientUri: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  /** SHA-256 of the client secret; null for a public client. */
  secretVerifier: string | null;
  grantTypes: GrantType[];
  mode: Mode;
  createdAt: string;
}

const fromItem = (item: Record<string, unknown>): OAuthClient => ({
  id: item.id as string,
  name: stringOrNull(item.name),
  clientUri: stringOrNull(item.clientUri),
  redirectUris: item.redirectUris as string[],
  authMethod: item.authMethod as ClientAuthMethod,
  secretVerifier: stringOrNull(item.secretVerifier),
  grantTypes: item.grantTypes as GrantType[],
  mode: item.mode as Mode,
  createdAt: item.createdAt as string,
});

/** A new client; ids are random, so a clash is a bug rather than a conflict. */
export async function putNewClient(client: OAuthClient): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.oauthClient(client.id), entity: 'oauthClient', ...client },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getClient(id: string): Promise<OAuthClient | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.oauthClient(id) }));
  return Item ? fromItem(Item) : null;
}
