/**
 * The MCP endpoint, end to end through the local gateway, with the official SDK client as the judge (a user MCP
 * token in `requestInit.headers`): the handshake, the exact tool set, a call of every tool, the 403 step-up,
 * each 401 code with its exact body and challenge, tokens of the other deployment, in the URL, of a removed team
 * member, foreign origins, unsupported protocol versions and the methods the endpoint does not take.
 */
import { randomUUID } from 'node:crypto';
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { createMcpToken } from '../../../shared/agents/mcp-tokens.service.ts';
import { createCustomField } from '../../../shared/organizations/custom-fields.service.ts';
import { createCustomFieldRequest } from '../../../shared/organizations/custom-fields.schemas.ts';
import { TOKEN_EXPIRED_MESSAGE } from '../../../shared/agents/agent-errors.ts';
import { agentScopes } from '../../../shared/domain/agent-scopes.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as merchantKeys from '../../../shared/people/merchant.entity.ts';
import { membership as membershipKey } from '../../../shared/people/membership.entity.ts';
import { forbiddenToolName, specToolScopes } from '../../support/agent-tools.ts';
import { solidPng } from '../../support/images.ts';
import { call, joinTeam, person, rootMerchant, signedInAs } from '../../support/fixtures.ts';
import { agent, connect, docUrl, initializeMessage, mcpUrl, mintToken, origin, rawMcp, resourceMetadata, toolCallMessage } from '../support.ts';

/** A tool's structured answer (or its error), from the SDK client's result. */
const structured = (result: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['callTool']>>) => result.structuredContent as Record<string, any>;

describe('the MCP handshake and tool list, through the official SDK client', () => {
  it('initializes statelessly (no session id) and names the server, its tools capability and what the token acts on', async () => {
    const a = await agent();
    const client = await connect(a.token);
    expect(client.getServerVersion()).toMatchObject({ name: 'mor-payments', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false } });
    expect(client.getInstructions()).toContain(a.merchantId);
    expect(client.getInstructions()).toContain('sandbox');
    const raw = await rawMcp(a.token, initializeMessage);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('mcp-session-id')).toBeNull();
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw.json.result.protocolVersion).toBe('2025-11-25');
    await client.close();
  });

  it("lists exactly the spec's thirteen tools, each saying its scope, with JSON Schema arguments and annotations, and no payout, refund, key or webhook tool", async () => {
    const client = await connect((await agent(['merchant:read'])).token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(specToolScopes).sort());
    for (const t of tools) {
      const scope = specToolScopes[t.name as keyof typeof specToolScopes];
      expect(t.description, t.name).toContain(`Scope: ${scope}`);
      expect(t._meta, t.name).toMatchObject({ scope, securitySchemes: [{ type: 'oauth2', scopes: [scope] }] });
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
    }
    expect(tools.filter((t) => forbiddenToolName.test(t.name))).toEqual([]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.get_my_merchant!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.go_live!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.create_product!.inputSchema).toMatchObject({ required: ['name'], additionalProperties: false });
    await client.close();
  });
});

describe('the working tools, called through the SDK client', () => {
  it('search_payments_ai_docs answers passages of the documentation: title, excerpt and a link into the docs', async () => {
    const client = await connect((await agent(['docs:read'])).token);
    const answer = structured(await client.callTool({ name: 'search_payments_ai_docs', arguments: { query: 'MCP token expired 401', limit: 3 } }));
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(3);
    for (const r of answer.results) {
      expect(r.link).toMatch(new RegExp(`^${origin()}/docs(/[a-z0-9-]+)?#[a-z0-9-]+$`));
      expect(r.title.length).toBeGreaterThan(0);
      expect(r.excerpt.length).toBeGreaterThan(0);
    }
    expect(answer.results.map((r: { title: string }) => r.title).join(' ')).toMatch(/MCP|Agent/);
    await client.close();
  });

  it('get_my_merchant answers the merchant the token acts on, as GET /merchants/{id} shows it', async () => {
    const a = await agent(['merchant:read']);
    const client = await connect(a.token);
    const result = await client.callTool({ name: 'get_my_merchant', arguments: {} });
    expect(result.isError).toBeFalsy();
    const rest = await call('GET', `/v1/public-api/merchants/${a.merchantId}`, { key: a.apiKey });
    expect(structured(result)).toEqual(rest.json);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(rest.json);
    await client.close();
  });

  it('get_merchant_activation_status answers the steps, those left and what to do next', async () => {
    const client = await connect((await agent(['merchant:read'])).token);
    const status = structured(await client.callTool({ name: 'get_merchant_activation_status', arguments: {} }));
    expect(status.status).toBe('incomplete');
    expect(status.live).toBe(false);
    expect(status.stepsLeft).toEqual(['website_set', 'onboarding_submitted', 'payout_method_added', 'go_live']);
    expect(status.nextStep).toMatchObject({ key: 'website_set', nextAction: expect.stringContaining('PATCH /api/v1/public-api/merchants/{merchantId}') });
    expect(status.steps.find((s: { key: string }) => s.key === 'owner_attached')).toEqual({ key: 'owner_attached', title: expect.any(String), done: true });
    await client.close();
  });

  it('go_live refuses, naming the steps left, until every other step is done; then records going live once, however often and concurrently it is called', async () => {
    const a = await agent(['merchant:go_live', 'merchant:read']);
    const client = await connect(a.token);
    const refused = await client.callTool({ name: 'go_live', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(structured(refused).error).toMatchObject({
      code: 'merchant.activation_incomplete',
      details: { stepsLeft: ['website_set', 'onboarding_submitted', 'payout_method_added'] },
    });
    expect((refused.content as Array<{ text: string }>)[0]!.text).toMatch(
      /^merchant\.activation_incomplete: .*website_set.*onboarding_submitted.*payout_method_added/,
    );
    expect((await getMerchant(a.merchantId))!.liveAt).toBeNull();

    // The website through the merchant API; the onboarding form and a payout method as their own routes leave the merchant.
    expect((await call('PATCH', `/v1/public-api/merchants/${a.merchantId}`, { key: a.apiKey, body: { websiteUrl: 'https://shop.example.com' } })).status).toBe(
      200,
    );
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: merchantKeys.merchant(a.merchantId),
        UpdateExpression: 'SET hostedOnboardingFormStatus = :submitted, payoutMethodAdded = :yes, payoutMethodCount = :one, updatedAt = :now',
        ExpressionAttributeValues: { ':submitted': 'submitted', ':yes': true, ':one': 1, ':now': new Date().toISOString() },
      }),
    );
    const [first, second] = await Promise.all([connect(a.token), connect(a.token)]).then((clients) =>
      Promise.all(clients.map((c) => c.callTool({ name: 'go_live', arguments: {} }))),
    );
    expect(first!.isError).toBeFalsy();
    expect(second!.isError).toBeFalsy();
    const liveAt = structured(first!).activation.steps.find((s: { key: string }) => s.key === 'go_live');
    expect(liveAt.done).toBe(true);
    const stored = (await getMerchant(a.merchantId))!.liveAt;
    expect(stored).not.toBeNull();
    const again = await client.callTool({ name: 'go_live', arguments: {} });
    expect(structured(again).activation.status).toBe('complete');
    expect((await getMerchant(a.merchantId))!.liveAt).toBe(stored);
    await client.close();
  });

  it('every tool that changes the merchant needs the role owner or admin: a member is refused with a tool error and nothing is made', async () => {
    const a = await agent();
    const member = await person();
    await joinTeam(a.merchantId, a.session, member);
    const client = await connect((await mintToken(a.merchantId, member.token)).token);
    const owner = await connect(a.token);
    const { product } = structured(await owner.callTool({ name: 'create_product', arguments: { name: 'Lamp' } }));
    const calls: Record<string, Record<string, unknown>> = {
      go_live: {},
      create_merchant_account: { name: 'Sub' },
      create_product: { name: 'By a member', price: { amount: 5, currency: 'USD' } },
      create_order: { currency: 'USD', lines: [{ description: 'x', unitAmount: 1, quantity: 1 }] },
      create_product_image_upload: { productId: product.id, contentType: 'image/png', contentLength: 100 },
      confirm_product_image: { productId: product.id, uploadId: 'upl_0' },
      update_checkout_customization: { displayName: 'Mine' },
      set_checkout_logo: { contentType: 'image/png', dataBase64: 'AAAA' },
    };
    const listed = (await client.listTools()).tools;
    const writers = listed.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
    expect(writers.sort()).toEqual(Object.keys(calls).sort());
    for (const t of listed) expect(t.description, t.name).toContain(t.annotations?.readOnlyHint ? 'Scope:' : 'Needs the role owner or admin. Scope:');
    for (const [name, args] of Object.entries(calls)) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(structured(result).error, name).toMatchObject({ code: 'forbidden', message: 'This needs the role owner or admin on this merchant.' });
    }
    // The reads stay open to a member; the member made nothing.
    const products = structured(await client.callTool({ name: 'list_products', arguments: {} }));
    expect(products.data.map((p: { name: string }) => p.name)).toEqual(['Lamp']);
    await Promise.all([client.close(), owner.close()]);
  });

  it("create_merchant_account creates a sub-merchant of the token's merchant with its owner join link, by the rules of POST /merchants", async () => {
    const a = await agent(['merchant:create']);
    const client = await connect(a.token);
    const result = await client.callTool({ name: 'create_merchant_account', arguments: { name: 'Corner shop', websiteUrl: 'https://corner.example.com' } });
    expect(result.isError).toBeFalsy();
    const sub = structured(result);
    expect(sub).toMatchObject({ name: 'Corner shop', parentId: a.merchantId, mode: 'test', ownerAttached: false, websiteUrl: 'https://corner.example.com' });
    expect(sub.joinLink.url).toMatch(new RegExp(`^${origin()}/join/${sub.id}\\.[0-9a-f]{64}$`));
    expect((await call('GET', `/v1/public-api/merchants/${sub.id}`, { key: a.apiKey })).json.parentId).toBe(a.merchantId);

    // A sub-merchant's token cannot create merchants: the platform's 409, as a tool error.
    const owner = { email: a.ownerEmail, token: a.session };
    const withOwner = structured(await client.callTool({ name: 'create_merchant_account', arguments: { name: 'Owned shop', ownerEmail: owner.email } }));
    expect(withOwner).toMatchObject({ ownerAttached: true, joinLink: null });
    const subClient = await connect((await mintToken(withOwner.id, owner.token, ['merchant:create'])).token);
    const refused = await subClient.callTool({ name: 'create_merchant_account', arguments: { name: 'Grandchild' } });
    expect(refused.isError).toBe(true);
    expect(structured(refused).error.code).toBe('merchant.parent_is_sub_merchant');
    await Promise.all([client.close(), subClient.close()]);
  });

  it('create_product creates a product and, given a price, its plan; list_products lists it', async () => {
    const a = await agent(['product:create', 'product:read']);
    const client = await connect(a.token);
    const name = `Course ${randomUUID().slice(0, 8)}`;
    const made = structured(
      await client.callTool({ name: 'create_product', arguments: { name, description: 'Video course', price: { amount: 49.5, currency: 'USD' } } }),
    );
    expect(made.product).toMatchObject({ name, description: 'Video course', type: 'one-time', status: 'active', organizationId: a.merchantId });
    expect(made.plan).toMatchObject({ productId: made.product.id, currency: 'USD', pricing: { price: 49.5, formula: 'fixed-fee' }, recurringInterval: null });

    const monthly = structured(
      await client.callTool({
        name: 'create_product',
        arguments: { name: `${name} club`, type: 'recurring', price: { amount: 9, currency: 'EUR', interval: { unit: 'month', length: 1 } } },
      }),
    );
    expect(monthly.plan.recurringInterval).toMatchObject({ unit: 'month', length: 1 });
    const bare = structured(await client.callTool({ name: 'create_product', arguments: { name: `${name} extra` } }));
    expect(bare.plan).toBeNull();

    const listed = structured(await client.callTool({ name: 'list_products', arguments: { q: name, limit: 10 } }));
    expect(listed.data.map((p: { id: string }) => p.id).sort()).toEqual([made.product.id, monthly.product.id, bare.product.id].sort());
    expect(listed.pagination).toMatchObject({ page: 1, limit: 10, totalCount: 3 });

    const rest = await call('GET', `/v1/public-api/merchants/${a.merchantId}/products?q=${encodeURIComponent(name)}&limit=10`, { key: a.apiKey });
    expect(listed).toEqual(rest.json);
    // A plan the merchant's rules refuse (a required plan field the tool cannot fill): neither is made.
    await createCustomField(
      a.merchantId,
      v.parse(createCustomFieldRequest, {
        name: 'sku',
        resource: 'plans',
        description: 'Stock keeping unit',
        typeSchema: { type: 'string', additionalSchema: { required: true } },
      }),
    );
    const refused = await client.callTool({ name: 'create_product', arguments: { name: `${name} partial`, price: { amount: 5, currency: 'USD' } } });
    expect(refused.isError).toBe(true);
    expect(structured(refused).error.code).toBe('custom_field.invalid');
    expect(structured(await client.callTool({ name: 'list_products', arguments: { q: `${name} partial` } })).data).toEqual([]);
    expect((await client.callTool({ name: 'create_product', arguments: { name: `${name} partial` } })).isError).toBeFalsy();
    await client.close();
  });

  it('create_order creates an order with its hosted checkout URL, once per idempotency key', async () => {
    const a = await agent(['checkout:write']);
    const client = await connect(a.token);
    const args = { currency: 'USD', lines: [{ description: 'Consulting hour', unitAmount: 120, quantity: 2 }], idempotencyKey: randomUUID() };
    const made = structured(await client.callTool({ name: 'create_order', arguments: args }));
    expect(made.order).toMatchObject({ merchantId: a.merchantId, status: 'open', currency: 'USD', total: 240 });
    expect(made.checkoutUrl).toBe(`${origin()}/checkout/orders/${made.order.id}`);
    expect(made.replayed).toBe(false);
    const page = await fetch(made.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const again = structured(await client.callTool({ name: 'create_order', arguments: args }));
    expect(again).toEqual({ ...made, replayed: true });
    await client.close();
  });
});

describe('the checkout customization and product image tools, called through the SDK client', () => {
  it('get, update and set_checkout_logo change what the hosted checkout shows; null clears a field; a colour under 4.5:1 against white is refused', async () => {
    const client = await connect((await agent()).token);
    const before = structured(await client.callTool({ name: 'get_checkout_customization', arguments: {} }));
    expect(before).toMatchObject({ displayName: null, brandColor: null, logo: null });
    const updated = await client.callTool({ name: 'update_checkout_customization', arguments: { displayName: 'Agent Shop', brandColor: '#0F766E' } });
    expect(updated.isError).toBeFalsy();
    expect(structured(updated)).toMatchObject({ displayName: 'Agent Shop', brandColor: '#0F766E' });
    const pale = await client.callTool({ name: 'update_checkout_customization', arguments: { brandColor: '#FFFF00' } });
    expect(pale.isError).toBe(true);
    expect(structured(pale).error.code).toBe('checkout_customization.insufficient_contrast');
    const logo = await client.callTool({
      name: 'set_checkout_logo',
      arguments: { contentType: 'image/png', dataBase64: solidPng(60, 20, '#0F766E').toString('base64') },
    });
    expect(logo.isError).toBeFalsy();
    expect(structured(logo).logo).toMatchObject({ contentType: 'image/png', url: expect.stringContaining('/images/') });
    const after = structured(await client.callTool({ name: 'get_checkout_customization', arguments: {} }));
    expect(after).toMatchObject({ displayName: 'Agent Shop', brandColor: '#0F766E', logo: { contentType: 'image/png' } });
    // As in the dashboard back end: null clears a field, one left out keeps its value.
    const cleared = await client.callTool({ name: 'update_checkout_customization', arguments: { brandColor: null } });
    expect(cleared.isError, JSON.stringify(cleared.structuredContent)).toBeFalsy();
    expect(structured(cleared)).toMatchObject({ displayName: 'Agent Shop', brandColor: null });
    await client.close();
  });

  it('create_product_image_upload and confirm_product_image attach a real image; a file that is not one is refused', async () => {
    const client = await connect((await agent()).token);
    const { product } = structured(await client.callTool({ name: 'create_product', arguments: { name: 'Lamp' } }));
    const upload = async (file: Buffer, contentType: 'image/png') => {
      const answer = structured(
        await client.callTool({ name: 'create_product_image_upload', arguments: { productId: product.id, contentType, contentLength: file.length } }),
      );
      const put = await fetch(answer.uploadUrl, { method: 'PUT', headers: answer.headers, body: file });
      expect(put.ok).toBe(true);
      return client.callTool({ name: 'confirm_product_image', arguments: { productId: product.id, uploadId: answer.uploadId } });
    };
    const good = await upload(solidPng(40, 40, '#F59E0B'), 'image/png');
    expect(good.isError).toBeFalsy();
    expect(structured(good).images).toHaveLength(1);
    const text = await upload(Buffer.from('not an image at all, only text'), 'image/png');
    expect(text.isError).toBe(true);
    expect(structured(text).error.code).toBe('product_image.not_an_image');
    await client.close();
  });
});

describe('tool errors: never a crash, always the code and message', () => {
  it('refuses bad arguments with a tool error naming the argument', async () => {
    const client = await connect((await agent()).token);
    const empty = await client.callTool({ name: 'create_product', arguments: { name: '' } });
    expect(empty.isError).toBe(true);
    expect((empty.content as Array<{ text: string }>)[0]!.text).toBe('request.invalid_arguments: Invalid arguments: name: must not be empty');
    const unknown = await client.callTool({ name: 'get_my_merchant', arguments: { extra: 1 } });
    expect(structured(unknown).error).toMatchObject({
      code: 'request.invalid_arguments',
      message: 'Invalid arguments: extra: is not an argument of this tool',
    });
    const decimals = await client.callTool({ name: 'create_product', arguments: { name: 'X', price: { amount: 1.234, currency: 'USD' } } });
    expect(structured(decimals).error.message).toBe('Invalid arguments: price.amount: has more decimals than its currency allows');
    const interval = await client.callTool({ name: 'create_product', arguments: { name: 'X', type: 'recurring', price: { amount: 5, currency: 'USD' } } });
    expect(structured(interval).error.message).toBe('Invalid arguments: price.interval: is required for the price of a recurring product');
    await client.close();
  });

  it("answers a refusal of the platform's rules as a tool error with its code and message", async () => {
    const client = await connect((await agent(['checkout:write'])).token);
    const result = await client.callTool({ name: 'create_order', arguments: { currency: 'USD', lines: [{ planId: `plan_${'0'.repeat(32)}`, quantity: 1 }] } });
    expect(result.isError).toBe(true);
    expect(structured(result).error).toMatchObject({ code: 'order.plan_not_found', message: 'lines.0.planId: no plan with this id for this merchant.' });
    await client.close();
  });

  it('refuses an SVG logo as a bad argument, naming it', async () => {
    const client = await connect((await agent()).token);
    const invalid = await client.callTool({ name: 'set_checkout_logo', arguments: { contentType: 'image/svg+xml', dataBase64: 'PHN2Zz4=' } });
    expect(invalid.isError).toBe(true);
    expect(structured(invalid).error.message).toBe('Invalid arguments: contentType: must be image/png, image/jpeg, image/webp');
    await client.close();
  });

  it('answers an unknown tool with a JSON-RPC invalid-params error', async () => {
    const a = await agent();
    const res = await rawMcp(a.token, toolCallMessage('refund_payment'), { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: -32602, message: 'Unknown tool: refund_payment' });
  });
});

describe("scopes: a call without its tool's scope is a 403 step-up challenge", () => {
  it('refuses with 403 insufficient_scope, the exact body, and the challenge naming the needed and granted scopes', async () => {
    const a = await agent(['merchant:read', 'docs:read']);
    const res = await rawMcp(a.token, toolCallMessage('create_product', { name: 'X' }), { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'insufficient_scope',
      message:
        'This tool needs the scope product:create, which this token was not granted. Mint a new MCP token with product:create in the Developer Dashboard, or re-consent (reconnect with OAuth) granting product:create.',
      docUrl: docUrl(),
    });
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="product:create merchant:read docs:read", resource_metadata="${resourceMetadata()}"`,
    );
    expect(res.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    // What the SDK client steps up with.
    const params = extractWWWAuthenticateParams(new Response(null, { headers: { 'www-authenticate': res.headers.get('www-authenticate')! } }));
    expect(params).toEqual({ error: 'insufficient_scope', scope: 'product:create merchant:read docs:read', resourceMetadataUrl: new URL(resourceMetadata()) });
  });

  it('makes the SDK client fail the call with its 403 (it has no OAuth provider to step up with), while allowed tools work', async () => {
    const client = await connect((await agent(['merchant:read'])).token);
    const refused = await client.callTool({ name: 'search_payments_ai_docs', arguments: { query: 'x' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(403);
    expect((await client.callTool({ name: 'get_my_merchant', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });
});

describe('authentication: the 401 codes, each with its exact body and challenge', () => {
  const unauthorized = (code: string, message: string) => ({ statusCode: 401, error: 'Unauthorized', code, message, docUrl: docUrl() });
  const invalid = (reason: string) =>
    unauthorized(
      'invalid_token',
      `The token is not valid: ${reason}. Get a real or new token from the matching tab (Sandbox or Live) of the Developer Dashboard, or reconnect with OAuth.`,
    );

  it('missing_token: no Authorization header (or not a bearer one), with the discovery challenge exposed to browsers', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }];
    for (const headers of attempts) {
      const res = await rawMcp(undefined, initializeMessage, headers);
      expect(res.status).toBe(401);
      expect(res.json).toEqual(
        unauthorized(
          'missing_token',
          'Send your token as "Authorization: Bearer <token>" (an OAuth access token, or an MCP token from the Developer Dashboard), or connect with OAuth.',
        ),
      );
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${resourceMetadata()}"`);
      expect(res.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    }
    // The SDK client without a token finds the resource metadata to start OAuth from.
    const failed = await connect('').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StreamableHTTPError);
    expect((failed as StreamableHTTPError).code).toBe(401);
  });

  it('invalid_token: a placeholder, a malformed or unknown token, a merchant API key, an unknown OAuth token — never echoing the token', async () => {
    const { merchantId, ownerUserId, apiKey } = await rootMerchant();
    const unknown = await createMcpToken((await getMerchant(merchantId))!, signedInAs(ownerUserId), { name: 'x', scopes: ['docs:read'], expiresInDays: 1 });
    const forged = `${unknown.token.slice(0, -6)}AAAAAA`;
    const cases: Array<[string, string]> = [
      ['mor_mcp_xxx', 'it is not a complete MCP token (a placeholder such as mor_mcp_xxx, or a token cut short?)'],
      ['mor_mcp_test_<YOUR_TOKEN>', 'it is not a complete MCP token (a placeholder such as mor_mcp_xxx, or a token cut short?)'],
      [forged, 'no such token exists'],
      [apiKey, 'it is not an MCP token (a merchant API key?): the MCP endpoint takes an OAuth access token or an MCP token'],
      ['mor_oat_0123456789abcdef', 'no such OAuth access token exists (unknown, revoked, or of another deployment)'],
      ['eyJhbGciOiJIUzI1NiJ9.e30.x', 'it is not a token of this platform'],
    ];
    for (const [token, reason] of cases) {
      const res = await rawMcp(token, initializeMessage);
      expect(res.status, token).toBe(401);
      expect(res.json, token).toEqual(invalid(reason));
      expect(res.headers.get('www-authenticate'), token).toBe(`Bearer error="invalid_token", resource_metadata="${resourceMetadata()}"`);
      if (token.length > 40) expect(JSON.stringify(res.json)).not.toContain(token.slice(-12));
    }
  });

  it('invalid_token: a revoked token stops working at once', async () => {
    const a = await agent();
    expect((await rawMcp(a.token, initializeMessage)).status).toBe(200);
    expect((await call('DELETE', `/v1/dashboard/merchants/${a.merchantId}/mcp-tokens/${a.tokenId}`, { key: a.session })).status).toBe(204);
    const res = await rawMcp(a.token, initializeMessage);
    expect(res.json).toEqual(invalid('it has been revoked'));
  });

  it('token_expired: the exact message, and the SDK client is refused with 401', async () => {
    const { merchantId, ownerUserId } = await rootMerchant();
    const merchant = (await getMerchant(merchantId))!;
    const minted = await createMcpToken(
      merchant,
      signedInAs(ownerUserId),
      { name: 'old', scopes: [...agentScopes], expiresInDays: 7 },
      new Date(Date.now() - 7 * 86_400_000 - 1000),
    );
    const res = await rawMcp(minted.token, initializeMessage);
    expect(res.status).toBe(401);
    expect(res.json).toEqual(unauthorized('token_expired', 'MCP Session Expired. Please generate a new token in the Developer Dashboard.'));
    expect(TOKEN_EXPIRED_MESSAGE).toBe('MCP Session Expired. Please generate a new token in the Developer Dashboard.');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${resourceMetadata()}"`);
    const failed = await connect(minted.token).catch((e: unknown) => e);
    expect((failed as StreamableHTTPError).code).toBe(401);
  });

  it('refuses a token in the query string, even beside a good header, and never reads it', async () => {
    const a = await agent();
    for (const query of [`access_token=${a.token}`, `token=${a.token}`]) {
      const res = await rawMcp(a.token, initializeMessage, {}, `/api/mcp?${query}`);
      expect(res.status).toBe(401);
      expect(res.json).toEqual(
        invalid('tokens are never taken from the URL, where logs keep them; send it in the Authorization header, and replace it, since it was exposed'),
      );
    }
  });

  it("refuses a removed team member's token at once: the removal revoked it, and joining again brings it not back", async () => {
    const a = await agent();
    const member = await person();
    await joinTeam(a.merchantId, a.session, member);
    const client = await connect((await mintToken(a.merchantId, member.token, ['merchant:read'])).token);
    expect((await client.callTool({ name: 'get_my_merchant', arguments: {} })).isError).toBeFalsy();
    expect((await call('DELETE', `/v1/dashboard/merchants/${a.merchantId}/members/${member.userId}`, { key: a.session })).status).toBe(204);
    const refused = await client.callTool({ name: 'get_my_merchant', arguments: {} }).catch((e: unknown) => e);
    expect((refused as StreamableHTTPError).code).toBe(401);
    expect((refused as Error).message).toContain('it has been revoked');
    // Joining the team again brings none of their tokens back.
    await joinTeam(a.merchantId, a.session, member);
    const still = await client.callTool({ name: 'get_my_merchant', arguments: {} }).catch((e: unknown) => e);
    expect((still as StreamableHTTPError).code).toBe(401);
    expect((still as Error).message).toContain('it has been revoked');
    const tokens = await call('GET', `/v1/dashboard/merchants/${a.merchantId}/mcp-tokens`, { key: member.token });
    expect(
      tokens.json.data.map((t: { revokedAt: string | null }) => t.revokedAt !== null),
      tokens.text,
    ).toEqual([true]);
    await client.close();
  });

  it('refuses a token minted before its person last joined the team, even one a removal left standing', async () => {
    const a = await agent();
    const member = await person();
    const add = () => joinTeam(a.merchantId, a.session, member);
    await add();
    const client = await connect((await mintToken(a.merchantId, member.token, ['merchant:read'])).token);
    expect((await client.callTool({ name: 'get_my_merchant', arguments: {} })).isError).toBeFalsy();
    // The membership gone with no revocation after it (as when one fails), then the person added again.
    await db.send(new DeleteCommand({ TableName: tableName(), Key: membershipKey(a.merchantId, member.userId) }));
    await add();
    const refused = await client.callTool({ name: 'get_my_merchant', arguments: {} }).catch((e: unknown) => e);
    expect((refused as StreamableHTTPError).code).toBe(401);
    expect((refused as Error).message).toContain("it was minted before its person last joined the merchant's team");
    // A token minted now works.
    const fresh = await connect((await mintToken(a.merchantId, member.token, ['merchant:read'])).token);
    expect((await fresh.callTool({ name: 'get_my_merchant', arguments: {} })).isError).toBeFalsy();
    await Promise.all([client.close(), fresh.close()]);
  });
});

describe('tokens of the other deployment', () => {
  const stage = process.env.STAGE;
  afterEach(() => {
    process.env.STAGE = stage;
  });

  it('refuses a token minted on live at the sandbox endpoint, before any read, and a sandbox token at the live one', async () => {
    const { merchantId, ownerUserId } = await rootMerchant();
    const merchant = (await getMerchant(merchantId))!;
    process.env.STAGE = 'live';
    const live = await createMcpToken({ ...merchant, mode: 'live' }, signedInAs(ownerUserId), { name: 'live', scopes: ['merchant:read'], expiresInDays: 1 });
    process.env.STAGE = stage;
    expect(live.token).toMatch(/^mor_mcp_live_[A-Za-z0-9_-]{86}$/);
    expect(live.mode).toBe('live');
    const res = await rawMcp(live.token, initializeMessage);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('invalid_token');
    expect(res.json.message).toContain("it is a live token, and this is the sandbox deployment: use it with its own deployment's MCP URL");

    const sandbox = await createMcpToken(merchant, signedInAs(ownerUserId), { name: 'sandbox', scopes: ['merchant:read'], expiresInDays: 1 });
    expect((await rawMcp(sandbox.token, initializeMessage)).status).toBe(200);
    process.env.STAGE = 'live';
    const { agentPrincipalOf } = await import('../../../shared/agents/agent-auth.service.ts');
    const refused = await agentPrincipalOf(sandbox.token).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, code: 'invalid_token' });
    expect((refused as Error).message).toContain('it is a sandbox token, and this is the live deployment');
  });
});

describe('the request itself: origin, protocol version, methods', () => {
  it("refuses a foreign Origin with 403 and accepts the deployment's own, naming it for CORS", async () => {
    const a = await agent();
    const foreign = await rawMcp(a.token, initializeMessage, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'origin_not_allowed',
      message: 'Requests from this web origin may not reach the MCP endpoint (DNS-rebinding and cross-site protection).',
      docUrl: docUrl(),
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await rawMcp(a.token, initializeMessage, { origin: origin() });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(origin());
    // Without a token, the challenge still reaches a page of an allowed origin.
    const challenged = await rawMcp(undefined, initializeMessage, { origin: origin() });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get('access-control-allow-origin')).toBe(origin());
    expect(challenged.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('answers the CORS preflight of an allowed origin with the MCP headers, and refuses a foreign one', async () => {
    const preflight = (o: string) =>
      fetch(mcpUrl(), {
        method: 'OPTIONS',
        headers: { origin: o, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
    const ok = await preflight('http://localhost:6274');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(ok.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    expect(ok.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses an unsupported MCP-Protocol-Version with 400, and takes the supported ones', async () => {
    const a = await agent();
    const res = await rawMcp(a.token, toolCallMessage('get_my_merchant'), { 'mcp-protocol-version': '1999-01-01' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ statusCode: 400, code: 'unsupported_protocol_version' });
    expect(res.json.message).toContain('2025-11-25');
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      expect((await rawMcp(a.token, toolCallMessage('get_my_merchant'), { 'mcp-protocol-version': version })).status, version).toBe(200);
    }
  });

  it('answers GET and DELETE with 405 and Allow: POST, whatever the token', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcpUrl(), { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('POST');
      expect(await res.json(), method).toMatchObject({ statusCode: 405, error: 'Method Not Allowed', code: 'method_not_allowed', docUrl: docUrl() });
    }
  });

  it('answers notifications with 202 and no body, and a body that is not JSON with the JSON-RPC parse error', async () => {
    const a = await agent();
    const note = await rawMcp(a.token, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': '2025-11-25' });
    expect(note.status).toBe(202);
    expect(note.json).toBeNull();
    const garbage = await rawMcp(a.token, '{not json', { 'mcp-protocol-version': '2025-11-25' });
    expect(garbage.status).toBe(400);
    expect(garbage.json.error.code).toBe(-32700);
  });

  it('answers a request that does not accept JSON with 406, and a body not sent as JSON with 415, each a JSON-RPC error', async () => {
    const a = await agent();
    const version = { 'mcp-protocol-version': '2025-11-25' };
    const unacceptable = await rawMcp(a.token, toolCallMessage('get_my_merchant'), { ...version, accept: 'text/html' });
    expect(unacceptable.status).toBe(406);
    expect(unacceptable.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    const plain = await rawMcp(a.token, toolCallMessage('get_my_merchant'), { ...version, 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});
