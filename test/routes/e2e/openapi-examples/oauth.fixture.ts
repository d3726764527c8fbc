/**
 * The records the request examples of the OAuth list (the `oauth` list of `shared/routes/docs/index.ts`) name: a public client registered
 * with the examples' redirect URI, and a grant the owner approved for it (its refresh token for the token example, its
 * access token for the revocation's).
 */
import { authorize, exchange, pkce, registerClient } from '../../../oauth/support.ts';
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function oauthFixture(base: BaseFixture): Promise<FixtureIds> {
  const registered = await registerClient({
    client_name: 'Example agent',
    redirect_uris: ['http://127.0.0.1:8765/callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  if (registered.status !== 201) throw new Error(`client registration: ${registered.status} ${registered.text}`);
  const client = { clientId: registered.json.client_id as string, redirectUri: registered.json.redirect_uris[0] as string };
  const { verifier, challenge } = pkce();
  const { code } = await authorize(client, { email: base.ownerEmail, password: base.ownerPassword }, challenge);
  const tokens = await exchange(client, code, verifier);
  if (tokens.status !== 200) throw new Error(`code exchange: ${tokens.status} ${tokens.text}`);
  return {
    oauthClientId: client.clientId,
    oauthRefreshToken: tokens.json.refresh_token as string,
    oauthAccessTokenToRevoke: tokens.json.access_token as string,
  };
}
