/**
 * Client ID Metadata Documents: a client that names itself by the URL of its metadata document, fetched through the
 * platform's SSRF guard. The run's stack allows loopback targets (`WEBHOOK_ALLOW_LOOPBACK=1`, as for its webhook
 * receivers), so the documents here are served on 127.0.0.1; without that setting — every deployed stack — the same
 * URLs are refused before any connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyOAuthAccessToken } from '../../../shared/oauth/access-tokens.service.ts';
import { clientOfMetadataDocument } from '../../../shared/oauth/client-metadata-documents.service.ts';
import { METADATA_DOCUMENT_MAX_BYTES } from '../../../shared/oauth/oauth.rules.ts';
import { authorizationParams, authorize, authorizePath, documentServer, exchange, merchantOwner, pkce, request } from '../support.ts';

const redirectUri = 'http://127.0.0.1:45999/callback';

describe('a client named by its metadata document URL', () => {
  let server: Awaited<ReturnType<typeof documentServer>>;
  /** What each path serves: a function of the URL it is served at. */
  const documents: Record<string, (url: string) => { status?: number; type?: string; body: string }> = {
    '/client.json': (url) => ({
      body: JSON.stringify({
        client_id: url,
        client_name: 'Metadata agent',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    }),
    '/other-id.json': () => ({ body: JSON.stringify({ client_id: 'https://someone-else.example/client.json', redirect_uris: [redirectUri] }) }),
    '/confidential.json': (url) => ({
      body: JSON.stringify({ client_id: url, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_basic' }),
    }),
    '/html.json': (url) => ({ type: 'text/html', body: JSON.stringify({ client_id: url, redirect_uris: [redirectUri] }) }),
    '/missing.json': () => ({ status: 404, body: '{}' }),
    '/at-limit.json': (url) => ({ body: padded({ client_id: url, redirect_uris: [redirectUri] }, METADATA_DOCUMENT_MAX_BYTES) }),
    '/past-limit.json': (url) => ({ body: padded({ client_id: url, redirect_uris: [redirectUri] }, METADATA_DOCUMENT_MAX_BYTES + 1) }),
  };
  /** `doc` as JSON of exactly `bytes` bytes (an ignored field makes up the difference). */
  const padded = (doc: Record<string, unknown>, bytes: number) => {
    const bare = JSON.stringify({ ...doc, padding: '' });
    return JSON.stringify({ ...doc, padding: 'x'.repeat(bytes - bare.length) });
  };

  beforeAll(async () => {
    server = await documentServer((url) => {
      const path = new URL(url).pathname;
      return (documents[path] ?? (() => ({ status: 404, body: '{}' })))(url);
    });
  });
  afterAll(() => server?.close());

  it('goes through sign-in and consent (the page names the client and its document host), and its tokens work', async () => {
    const client = { clientId: server.url('/client.json'), redirectUri };
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const page = await request('GET', authorizePath(authorizationParams(client, challenge)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Metadata agent');
    const { code } = await authorize(client, owner, challenge);
    const tokens = await exchange(client, code, verifier);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.json.refresh_token).toBeDefined();
    expect(await verifyOAuthAccessToken(tokens.json.access_token)).toMatchObject({ clientId: client.clientId, merchantId: owner.merchantId });
  });

  it('refuses (a page, never a redirect) a redirect URI its document does not list', async () => {
    const res = await request(
      'GET',
      authorizePath(authorizationParams({ clientId: server.url('/client.json'), redirectUri: 'http://127.0.0.1:45998/elsewhere' }, pkce().challenge)),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it.each([
    ['/other-id.json', 'its client_id is not the URL it was fetched from'],
    ['/confidential.json', 'only public clients'],
    ['/html.json', 'it is not application/json'],
    ['/missing.json', 'answered 404'],
    ['/past-limit.json', `larger than ${METADATA_DOCUMENT_MAX_BYTES} bytes`],
  ])('refuses the document at %s with a page that says why', async (path, why) => {
    const res = await request('GET', authorizePath(authorizationParams({ clientId: server.url(path), redirectUri }, pkce().challenge)));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.text).toContain(why);
  });

  it('takes a document of exactly the size limit', async () => {
    const res = await request('GET', authorizePath(authorizationParams({ clientId: server.url('/at-limit.json'), redirectUri }, pkce().challenge)));
    expect(res.status, res.text).toBe(200);
  });

  it('keeps a document it fetched for a few minutes instead of fetching it on every request', async () => {
    const clientId = server.url('/client.json?cached');
    const first = await clientOfMetadataDocument(clientId);
    expect(first).toHaveProperty('client');
    const hits = server.hits();
    await clientOfMetadataDocument(clientId);
    expect(server.hits()).toBe(hits);
    await clientOfMetadataDocument(clientId, { now: new Date(Date.now() + 301_000) });
    expect(server.hits()).toBe(hits + 1);
  });

  it('is refused by the SSRF guard without the local loopback allowance: loopback, private addresses, plain http', async () => {
    const refusals = await Promise.all(
      [
        server.url('/client.json'),
        'https://127.0.0.1/client.json',
        'https://10.0.0.8/client.json',
        'https://[::1]/client.json',
        'http://client.example/client.json',
      ].map((url) => clientOfMetadataDocument(url, { allowLoopback: false })),
    );
    for (const refusal of refusals) expect(refusal).toEqual({ problem: expect.stringMatching(/https|not a public internet address/) });
    // A name that resolves to a private address is refused when dialled (DNS rebinding), not only when written.
    const rebinding = await clientOfMetadataDocument('https://agent.example/client.json', { allowLoopback: false, lookup: async () => ['192.168.1.20'] });
    expect(rebinding).toEqual({ problem: expect.stringContaining('not a public internet address') });
  });

  it.each([
    ['https://agent.example', 'must have a path'],
    ['https://agent.example/a/../client.json', '. or .. path segments'],
    ['https://agent.example/client.json#x', 'fragment'],
    ['https://user:pw@agent.example/client.json', 'user name or password'],
  ])('refuses the client_id URL %s before fetching anything', async (url, why) => {
    expect(await clientOfMetadataDocument(url, { allowLoopback: false, lookup: async () => ['192.0.2.1'] })).toEqual({ problem: expect.stringContaining(why) });
  });
});
