/**
 * The whole OAuth flow with the official MCP SDK client as the judge: `Client` + `StreamableHTTPClientTransport`
 * with an `OAuthClientProvider`, against the local stack. The client meets the 401, discovers the protected resource
 * and the authorization server, registers itself, sends the person to the authorization endpoint (here: the sign-in
 * and consent forms posted as a browser posts them, the code read from the redirect), exchanges the code with PKCE,
 * lists the tools and calls every one; a token without a tool's scope meets the 403 and steps up through consent
 * again (once the host drops the token its refresh could not widen); an expired access token is refreshed, and the refresh token is rotated. The same client with a user MCP
 * token runs in `mcp.test.ts`.
 */
import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { agentScopes, type AgentScope } from '../../../shared/domain/agent-scopes.ts';
import { tokenIdOf } from '../../../shared/oauth/oauth.rules.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as tokenKeys from '../../../shared/oauth/token.entity.ts';
import { specToolScopes } from '../../support/agent-tools.ts';
import { solidPng } from '../../support/images.ts';
import { consentPage, formFields, merchantOwner, origin, postForm, signIn, tokenRequest } from '../../oauth/support.ts';

const mcpUrl = new URL(`${origin}/api/mcp`);

/**
 * An MCP host with no browser: where a host opens the authorization URL for its user, this one signs the person in
 * and consents (granting `grant`, or what the page preselects) by posting the pages' forms, and keeps the code the
 * redirect carries. Registration, PKCE and the token exchange are the SDK's own.
 */
class FormPostingHost implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  current: OAuthTokens | undefined;
  readonly saved: OAuthTokens[] = [];
  verifier = '';
  code = '';
  consents = 0;
  /** The `scope` of the last authorization request. */
  requestedScope: string | undefined;
  private readonly expectedState = randomBytes(16).toString('hex');

  constructor(
    private readonly person: { email: string; password: string },
    public grant: readonly AgentScope[] | null = null,
  ) {}

  get redirectUrl() {
    return 'http://127.0.0.1:9/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Form-posting MCP host',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.current;
  }
  saveTokens(tokens: OAuthTokens) {
    this.current = tokens;
    this.saved.push(tokens);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    expect(url.origin + url.pathname).toBe(`${origin}/api/v1/oauth/authorize`);
    const params = Object.fromEntries(url.searchParams);
    this.requestedScope = params.scope;
    expect(params).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: mcpUrl.href, state: this.expectedState });
    const cookie = await signIn(params, this.person);
    const page = await consentPage(params, cookie);
    const fields = formFields(page.text, 'consent');
    const answer = await postForm(
      '/api/v1/oauth/authorize',
      { ...fields, decision: 'approve', ...(this.grant ? { granted_scopes: [...this.grant] } : {}) },
      { cookie },
    );
    expect(answer.status, answer.text).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(this.redirectUrl);
    expect(location.searchParams.get('state')).toBe(this.expectedState);
    expect(location.searchParams.get('iss')).toBe(origin);
    this.code = location.searchParams.get('code')!;
    this.consents++;
  }
}

/** Connects a new SDK client through `host`: the first attempt sends the person through consent, the second connects. */
async function connectThrough(host: FormPostingHost): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: host });
  await expect(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
  await first.finishAuth(host.code);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: host });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const structured = (result: Record<string, unknown>) => result.structuredContent as Record<string, any>;

describe('the official SDK client through the whole OAuth flow', { timeout: 120_000 }, () => {
  it('registers, consents, exchanges the code with PKCE, lists the tools and calls every one', async () => {
    const owner = await merchantOwner('OAuth host shop');
    const host = new FormPostingHost(owner);
    const { client, transport } = await connectThrough(host);
    expect(host.information?.client_id).toMatch(/^oac_/);
    expect(host.consents).toBe(1);
    expect(host.current).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), access_token: expect.stringMatching(/^mor_oat_/) });
    expect(host.current?.scope?.split(' ').sort()).toEqual([...agentScopes].sort());

    const listed = await client.listTools();
    expect(Object.fromEntries(listed.tools.map((t) => [t.name, t]))).toSatisfy((byName: Record<string, unknown>) =>
      Object.keys(specToolScopes).every((name) => name in byName),
    );
    expect(listed.tools).toHaveLength(Object.keys(specToolScopes).length);

    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      return { error: Boolean(result.isError), body: structured(result) };
    };
    const called = new Set<string>();
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      called.add(name);
      const r = await call(name, args);
      expect(r.error, `${name}: ${JSON.stringify(r.body)}`).toBe(false);
      return r.body;
    };

    expect((await ok('search_payments_ai_docs', { query: 'webhook signature' })).results.length).toBeGreaterThan(0);
    expect((await ok('get_my_merchant')).id).toBe(owner.merchantId);
    expect((await ok('get_merchant_activation_status')).stepsLeft).toContain('go_live');
    called.add('go_live');
    const live = await call('go_live');
    expect(live.error).toBe(true);
    expect(live.body.error.code).toBeTruthy();
    expect((await ok('create_merchant_account', { name: 'Sub shop' })).merchant ?? {}).toBeDefined();
    const { product, plan } = await ok('create_product', { name: 'Mug', price: { amount: 12, currency: 'USD' } });
    expect(plan).not.toBeNull();
    expect((await ok('list_products', {})).data.map((p: { id: string }) => p.id)).toContain(product.id);
    expect((await ok('create_order', { currency: 'USD', lines: [{ planId: plan.id, quantity: 1 }] })).checkoutUrl).toContain(`${origin}/checkout/orders/`);
    expect(await ok('get_checkout_customization')).toMatchObject({ merchantId: owner.merchantId });
    expect(await ok('update_checkout_customization', { displayName: 'Mugs & Co' })).toMatchObject({ displayName: 'Mugs & Co' });
    const png = solidPng(24, 24, '#1D4ED8');
    expect((await ok('set_checkout_logo', { contentType: 'image/png', dataBase64: png.toString('base64') })).logo).not.toBeNull();
    const upload = await ok('create_product_image_upload', { productId: product.id, contentType: 'image/png', contentLength: png.length });
    expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: png })).ok).toBe(true);
    expect((await ok('confirm_product_image', { productId: product.id, uploadId: upload.uploadId })).images).toHaveLength(1);
    expect([...called].sort()).toEqual(Object.keys(specToolScopes).sort());

    // The access token expires: the client's next call meets 401 token_expired, refreshes, and goes on. The refresh
    // token is rotated: the spent one is refused, and its whole family with it.
    const before = host.current!;
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tokenKeys.oauthToken(tokenIdOf(before.access_token, 'access')),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await ok('get_my_merchant')).id).toBe(owner.merchantId);
    const after = host.current!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(host.consents).toBe(1);
    const reuse = await tokenRequest({ grant_type: 'refresh_token', refresh_token: before.refresh_token, client_id: host.information!.client_id });
    expect(reuse.status).toBe(400);
    expect(reuse.json).toMatchObject({ error: 'invalid_grant' });
    await client.close();
    await transport.close();
  });

  it('steps up on a 403 insufficient_scope: the person consents again, granting the missing scope, and the call goes through', async () => {
    const owner = await merchantOwner('Step-up shop');
    const host = new FormPostingHost(owner, ['merchant:read']);
    const { client, transport } = await connectThrough(host);
    expect(host.current?.scope).toBe('merchant:read');
    expect(structured(await client.callTool({ name: 'get_my_merchant', arguments: {} })).id).toBe(owner.merchantId);

    // The SDK client meets the 403 and first tries its refresh token: a refresh cannot widen a grant (RFC 6749 §6),
    // so the retry meets the same 403 and the client gives up on that token.
    await expect(client.callTool({ name: 'create_product', arguments: { name: 'Step-up lamp' } })).rejects.toThrow(
      'Server returned 403 after trying upscoping',
    );
    // The host forgets it; the next attempt sends the person through consent, who grants the missing scope.
    host.current = undefined;
    host.grant = ['merchant:read', 'product:create'];
    await expect(client.callTool({ name: 'create_product', arguments: { name: 'Step-up lamp' } })).rejects.toThrow(UnauthorizedError);
    expect(host.consents).toBe(2);
    // The request names what the client knows of (a hint: the page offers every scope, and the person chooses).
    expect(host.requestedScope?.split(' ')).toContain('product:create');
    await transport.finishAuth(host.code);
    expect(host.tokens()?.scope?.split(' ').sort()).toEqual(['merchant:read', 'product:create']);
    const created = await client.callTool({ name: 'create_product', arguments: { name: 'Step-up lamp' } });
    expect(created.isError).toBeFalsy();
    expect(structured(created).product.name).toBe('Step-up lamp');
    await client.close();
  });
});
