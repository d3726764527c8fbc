/**
 * An OAuth client registered with the authorization server (RFC 7591), `OAUTHCLIENT#<clientId>` / `OAUTHCLIENT`:
 * what it said of itself, and a hash of its secret.
 */
import * as v from 'valibot';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { clientAuthMethods, grantTypes, type ClientAuthMethod, type GrantType } from './oauth.rules.ts';

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

/** An OAuth client registered with the authorization server (RFC 7591). */
export const oauthClient = (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'OAUTHCLIENT' });

export const OAuthClientEntity = entity<OAuthClient, { id: string }>({
  kind: 'oauthClient',
  schema: v.object({
    id: v.string(),
    name: orNull(v.string()),
    clientUri: orNull(v.string()),
    redirectUris: v.array(v.string()),
    authMethod: v.picklist(clientAuthMethods),
    secretVerifier: orNull(v.string()),
    grantTypes: v.array(v.picklist(grantTypes)),
    mode: v.picklist(['test', 'live']),
    createdAt: v.string(),
  }),
  key: (c) => oauthClient(c.id),
});
