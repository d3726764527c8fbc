/**
 * The production tokenization host, end to end: a second local stack that behaves as the live deployment (its
 * tokenization host on a gateway of its own, vaulting with the sandbox processor as a local live stack may) and
 * the run's sandbox stack. The live stack's functions run in this worker, which then talks to the live stack's
 * DynamoDB: this file makes no call to the sandbox stack other than through HTTP. The admin CLI runs against the
 * live stack too, named by its ports, to show it takes the stage from the stack.
 *
 * Every answer is checked like the run's (test/support/contract.ts): the main API's against its route table,
 * the host's against the host's routes, every error in the organization face's shape.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routeMatcher } from '../../../shared/platform/http/route-match.ts';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.ts';
import { routesFor } from '../../../shared/routes/index.ts';
import { createAccount } from '../../../shared/organizations/accounts.service.ts';
import { CARD_TOKEN_LIFETIME_MINUTES } from '../../../shared/customers/card-tokens.service.ts';
import { createRootMerchant } from '../../../shared/people/merchants.service.ts';
import { userIdByEmail } from '../../../shared/people/users.repository.ts';
import { auditCardData } from '../../support/card-data-audit.ts';
import { checkContract } from '../../support/contract.ts';
import { http, type HttpAnswer } from '../../support/http.ts';
import { adminCliWithEnv, call, NO_TAX_PLACE, orgPath, PASSWORD, uniqueEmail } from '../../support/fixtures.ts';

let live: LocalStack;

beforeAll(async () => {
  live = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    sqsPort: 0,
    tokenizationPort: 0,
    handleSignals: false,
    env: { STAGE: 'live', LIVE_USES_SANDBOX_PROCESSOR: '1', POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL || 'INFO' },
  });
});

afterAll(async () => {
  await live?.stop();
});

type CallOptions = { fullKey?: string; organizationId?: string; body?: unknown; headers?: Record<string, string> };

const headersOf = (opts: CallOptions): Record<string, string> => ({
  ...(opts.fullKey ? { authorization: `ApiKey ${opts.fullKey}` } : {}),
  ...(opts.organizationId ? { 'x-organization-id': opts.organizationId } : {}),
  ...opts.headers,
});

/** A call to the live stack's main API (`path` relative to `/api`), checked against the route table. */
async function liveApi(method: string, path: string, opts: CallOptions = {}): Promise<HttpAnswer> {
  const res = await http(method, path, { baseUrl: live.baseUrl, body: opts.body, headers: headersOf(opts) });
  checkContract(method, path, res.status, res.json, res.text);
  return res;
}

const hostMatcher = routeMatcher(routesFor('live', 'tokenization'));
const organizationError = v.strictObject({ errorCode: v.string(), statusCode: v.number(), message: v.string(), details: v.string() });

/** A call to the live stack's tokenization host (`path` from its root, e.g. `/tokens`), checked against the host's routes. */
async function host(method: string, path: string, opts: CallOptions = {}): Promise<HttpAnswer> {
  const res = await http(method, path, { baseUrl: live.tokenizationUrl!, body: opts.body, headers: headersOf(opts) });
  if (res.status >= 400) {
    expect(v.safeParse(organizationError, res.json).success, `error body of ${method} ${path}: ${res.text}`).toBe(true);
    expect(res.json.statusCode).toBe(res.status);
  } else {
    const match = hostMatcher.match(method, path);
    expect(match, `${method} ${path} answered ${res.status} without a route`).not.toBeNull();
    expect(res.status).toBe(match!.route.status);
    const parsed = v.safeParse(match!.route.response!, res.json);
    expect(parsed.success, parsed.success ? '' : v.summarize(parsed.issues)).toBe(true);
  }
  return res;
}

/** A live organization (a live root merchant) with an activated live account linked as owner and its key, minted on the live stack. */
async function liveOrganization(name = 'Live org') {
  const merchant = await createRootMerchant({ name, ownerEmail: uniqueEmail('owner'), ownerPassword: PASSWORD, mode: 'live' });
  const account = await createAccount({ name: `${name} backend`, mode: 'live', organizationId: merchant.merchantId });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  const activated = await liveApi('POST', `${base}/activate`, { body: { secret: account.secret } });
  expect(activated.status).toBe(200);
  const key = await liveApi('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  expect(key.status).toBe(201);
  return { organizationId: merchant.merchantId, accountId: account.accountId, fullKey: key.json.data.apiKey as string };
}

const PAN = '4242424242424242';
const CVV = '737';

/** A complete host body for a test card; `card` and `address` override fields. */
function tokenBody(card: Record<string, unknown> = {}, address: Record<string, unknown> = {}) {
  return {
    method: 'payment-card',
    paymentInstrument: {
      primaryAccountNumber: PAN,
      cardVerificationValue: CVV,
      expirationMonth: 12,
      expirationYear: new Date().getUTCFullYear() + 3,
      cardholderName: 'Ada Lovelace',
      ...card,
    },
    billingAddress: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '12 St James Square',
      city: 'London',
      zip: 'SW1Y 4JH',
      country: 'GB',
      ...address,
    },
  };
}

/** How many tokens the organization has, read through the live public API. */
async function tokenCount(org: { organizationId: string; fullKey: string }): Promise<number> {
  const res = await liveApi('GET', `${orgPath(org.organizationId)}/payment-instruments/tokens?limit=0`, { fullKey: org.fullKey });
  expect(res.status).toBe(200);
  return res.json.totalCount as number;
}

describe('the live stage before a merchant goes live', () => {
  it('refuses its payments, 403 merchant.not_live, charging nothing: a merchant takes real money once its checklist is done', async () => {
    const org = await liveOrganization('Not live yet');
    const token = await host('POST', '/tokens', { fullKey: org.fullKey, organizationId: org.organizationId, body: tokenBody() });
    expect(token.status).toBe(201);
    const paid = await liveApi('POST', '/transactions', {
      fullKey: org.fullKey,
      body: { idempotencyKey: randomUUID(), amount: 10, currency: 'USD', token: token.json.data.id, billingAddress: NO_TAX_PLACE },
    });
    expect(paid.status, paid.text).toBe(403);
    expect(paid.json.errorCode).toBe('merchant.not_live');
    const listed = await liveApi('GET', `${orgPath(org.organizationId)}/transactions`, { fullKey: org.fullKey });
    expect(listed.json.totalCount).toBe(0);
  });
});

describe('POST /tokens on the tokenization host', () => {
  it('tokenizes a card for the organization named by X-Organization-Id: 201 with the token record, readable on the public API', async () => {
    const org = await liveOrganization();
    const res = await host('POST', '/tokens', {
      fullKey: org.fullKey,
      organizationId: org.organizationId,
      body: {
        ...tokenBody({ primaryAccountNumber: '4242 4242 4242 4242' }),
        riskMetadata: { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0', acceptLanguage: 'en-GB' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    const token = res.json.data;
    expect(token.id).toMatch(/^tok_/);
    expect(Date.parse(token.expiratedAt) - Date.parse(token.createdAt)).toBe(CARD_TOKEN_LIFETIME_MINUTES * 60_000);
    expect(res.text).not.toContain('4242');
    expect(res.text).not.toContain(CVV);

    // The token belongs to that organization: the public API reads it back, and counts it.
    const read = await liveApi('GET', `${orgPath(org.organizationId)}/payment-instruments/tokens/${token.id}`, { fullKey: org.fullKey });
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(token);
    expect(await tokenCount(org)).toBe(1);
  });

  it('takes X-Organization-Id in any letter case of the header name', async () => {
    const org = await liveOrganization();
    const res = await host('POST', '/tokens', { fullKey: org.fullKey, headers: { 'X-ORGANIZATION-ID': org.organizationId }, body: tokenBody() });
    expect(res.status).toBe(201);
  });

  it('answers a missing, malformed, unknown or unlinked X-Organization-Id with the same 403, and keeps nothing', async () => {
    const org = await liveOrganization();
    const other = await liveOrganization('Other live org');
    const refusals = await Promise.all([
      host('POST', '/tokens', { fullKey: org.fullKey, body: tokenBody() }),
      host('POST', '/tokens', { fullKey: org.fullKey, organizationId: 'not-an-organization', body: tokenBody() }),
      host('POST', '/tokens', { fullKey: org.fullKey, organizationId: randomUUID(), body: tokenBody() }),
      host('POST', '/tokens', { fullKey: org.fullKey, organizationId: other.organizationId, body: tokenBody() }),
      host('POST', '/tokens', { fullKey: org.fullKey, headers: { 'x-organization-id': '' }, body: tokenBody() }),
    ]);
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.json).toEqual(refusals[0]!.json);
    }
    expect(refusals[0]!.json.errorCode).toBe('forbidden');
    expect(await tokenCount(org)).toBe(0);
    expect(await tokenCount(other)).toBe(0);
  });

  it('refuses a request without a valid ApiKey with 401, before looking at the organization', async () => {
    const org = await liveOrganization();
    const missing = await host('POST', '/tokens', { organizationId: org.organizationId, body: tokenBody() });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('ApiKey');
    const wrong = await host('POST', '/tokens', {
      fullKey: `${org.accountId}_${'a'.repeat(40)}_${randomUUID()}`,
      organizationId: org.organizationId,
      body: tokenBody(),
    });
    expect(wrong.status).toBe(401);
    expect(await tokenCount(org)).toBe(0);
  });

  it('checks the nested body: 400 naming the field, never repeating card data, and keeps nothing', async () => {
    const org = await liveOrganization();
    const send = (body: unknown) => host('POST', '/tokens', { fullKey: org.fullKey, organizationId: org.organizationId, body });
    const { paymentInstrument: _card, ...withoutCard } = tokenBody();
    const { billingAddress: _address, ...withoutAddress } = tokenBody();
    const cases: Array<[unknown, string, string]> = [
      [{ ...tokenBody(), method: 'ach' }, 'request.validation_failed', 'method'],
      [withoutCard, 'request.validation_failed', 'paymentInstrument'],
      [withoutAddress, 'request.validation_failed', 'billingAddress'],
      [{ ...tokenBody(), organizationId: org.organizationId }, 'request.validation_failed', 'organizationId'],
      [tokenBody({ cardholderName: '' }), 'request.validation_failed', 'paymentInstrument.cardholderName'],
      [tokenBody({ cardholderName: 'x'.repeat(101) }), 'request.validation_failed', 'paymentInstrument.cardholderName'],
      [tokenBody({ expirationMonth: '12' }), 'request.validation_failed', 'paymentInstrument.expirationMonth'],
      [tokenBody({ primaryAccountNumber: '4'.repeat(33) }), 'request.validation_failed', 'paymentInstrument.primaryAccountNumber'],
      [tokenBody({}, { country: 'UK' }), 'request.validation_failed', 'billingAddress.country'],
      [tokenBody({}, { lastName: 'x'.repeat(46) }), 'request.validation_failed', 'billingAddress.lastName'],
      [{ ...tokenBody(), riskMetadata: { ipAddress: 'not an ip' } }, 'request.validation_failed', 'riskMetadata.ipAddress'],
      [tokenBody({ primaryAccountNumber: '4242424242424241' }), 'card.invalid_number', 'paymentInstrument.primaryAccountNumber'],
      [tokenBody({ expirationYear: 2020 }), 'card.expired', 'paymentInstrument.expirationYear'],
      [tokenBody({ expirationMonth: 13 }), 'card.invalid_expiry', 'paymentInstrument.expirationMonth'],
      [tokenBody({ cardVerificationValue: '12' }), 'card.invalid_cvc', 'paymentInstrument.cardVerificationValue'],
    ];
    for (const [body, errorCode, field] of cases) {
      const res = await send(body);
      expect(res.status, `${errorCode} ${field}`).toBe(400);
      expect(res.json.errorCode, field).toBe(errorCode);
      expect(`${res.json.message}\n${res.json.details}`, errorCode).toContain(field);
      expect(res.text).not.toMatch(/4242424242424241|4{33}/);
    }
    // Limits hold at the limit: a 100-character cardholder name and 45-character names are taken.
    const atLimit = await send(tokenBody({ cardholderName: 'x'.repeat(100) }, { firstName: 'y'.repeat(45), lastName: 'z'.repeat(45) }));
    expect(atLimit.status).toBe(201);
    expect(await tokenCount(org)).toBe(1);
  });

  it('refuses with 503 payments.processor_unavailable when the live deployment has no processor, and keeps nothing', async () => {
    const org = await liveOrganization();
    const setting = process.env.LIVE_USES_SANDBOX_PROCESSOR;
    delete process.env.LIVE_USES_SANDBOX_PROCESSOR; // the host's functions run in this process
    try {
      const res = await host('POST', '/tokens', { fullKey: org.fullKey, organizationId: org.organizationId, body: tokenBody() });
      expect(res.status).toBe(503);
      expect(res.json.errorCode).toBe('payments.processor_unavailable');
    } finally {
      process.env.LIVE_USES_SANDBOX_PROCESSOR = setting;
    }
    expect(await tokenCount(org)).toBe(0);
  });

  it('keeps no card number or verification value in any item of the live table', async () => {
    const org = await liveOrganization();
    const res = await host('POST', '/tokens', {
      fullKey: org.fullKey,
      organizationId: org.organizationId,
      body: tokenBody({ primaryAccountNumber: '5555 5555 5555 4444' }),
    });
    expect(res.status).toBe(201);
    const empty = mkdtempSync(path.join(os.tmpdir(), 'mor-tokenization-audit-'));
    try {
      const audit = await auditCardData({
        endpoint: live.dynamoEndpoint,
        region: live.settings.region,
        tableName: live.settings.tableName,
        captureDir: empty,
        sesEndpoint: live.sesEndpoint,
      });
      expect(audit.itemsScanned).toBeGreaterThan(0);
      expect(audit.findings).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('mixing the two ways of naming the organization', () => {
  const misplacedPaths = (organizationId: string) => [
    `/organizations/${organizationId}/tokens`,
    `/v1/public-api/organizations/${organizationId}/payment-instruments/tokens`,
    `/api/v1/public-api/organizations/${organizationId}/payment-instruments/tokens`,
  ];

  it('answers an organization id in the path on the host with 400 request.organization_id_misplaced, with or without credentials, and keeps nothing', async () => {
    const org = await liveOrganization();
    for (const p of misplacedPaths(org.organizationId)) {
      for (const opts of [{ fullKey: org.fullKey, organizationId: org.organizationId, body: tokenBody() }, { body: tokenBody() }, {}]) {
        const res = await host('POST', p, opts);
        expect(res.status, p).toBe(400);
        expect(res.json.errorCode, p).toBe('request.organization_id_misplaced');
        expect(res.json.message).toMatch(/X-Organization-Id header/);
      }
    }
    expect(await tokenCount(org)).toBe(0);
  });

  it('answers an X-Organization-Id header on the live public API with 400 request.organization_id_misplaced before anything else, and changes nothing', async () => {
    const org = await liveOrganization();
    const products = `${orgPath(org.organizationId)}/products`;
    const created = await liveApi('POST', products, { fullKey: org.fullKey, organizationId: org.organizationId, body: { product: { name: 'Mixed' } } });
    expect(created.status).toBe(400);
    expect(created.json.errorCode).toBe('request.organization_id_misplaced');
    expect(created.json.message).toMatch(/in the path/);
    // Before authentication and validation: no key, and a body that would fail.
    const bare = await liveApi('POST', products, { organizationId: org.organizationId, body: { nonsense: true } });
    expect(bare.json.errorCode).toBe('request.organization_id_misplaced');
    // Also on routes without an organization in the path (the account's own keys).
    const keys = await liveApi('GET', `/v1/public-api/accounts/${org.accountId}/api-keys/${randomUUID()}`, {
      fullKey: org.fullKey,
      organizationId: org.organizationId,
    });
    expect(keys.status).toBe(400);
    expect(keys.json.errorCode).toBe('request.organization_id_misplaced');

    const list = await liveApi('GET', `${products}?limit=0`, { fullKey: org.fullKey });
    expect(list.status).toBe(200);
    expect(list.json.totalCount).toBe(0);
  });

  it('answers an X-Organization-Id header on the sandbox public API with the same 400', async () => {
    const organizationId = randomUUID();
    const res = await call('POST', `${orgPath(organizationId)}/products`, {
      headers: { 'x-organization-id': organizationId },
      body: { product: { name: 'Mixed' } },
    });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.organization_id_misplaced');
    const tokens = await call('POST', `${orgPath(organizationId)}/payment-instruments/tokens`, { headers: { 'x-organization-id': organizationId }, body: {} });
    expect(tokens.json.errorCode).toBe('request.organization_id_misplaced');
  });
});

describe('the tokenization host answers nothing else', () => {
  it('answers other paths with 404 and other methods with 405, in the organization face', async () => {
    const organizationId = randomUUID();
    const cases: Array<[string, string, number]> = [
      ['GET', '/tokens', 405],
      ['PUT', '/tokens', 405],
      ['POST', '/tokens/extra', 404],
      ['POST', '/health', 404],
      ['GET', '/api/health', 404],
      ['GET', '/api/v1/openapi.json', 404],
      ['POST', '/api/v1/public-api/merchants', 404],
      ['GET', `/api/v1/public-api/organizations/${organizationId}/payment-instruments/tokens`, 405],
      ['GET', '/', 404],
    ];
    for (const [method, p, status] of cases) {
      const res = await host(method, p, { headers: { 'x-organization-id': organizationId } });
      expect(res.status, `${method} ${p}`).toBe(status);
      expect(res.json.errorCode).toBe(status === 404 ? 'route.not_found' : 'route.method_not_allowed');
    }
  });

  it('is not served by the live main API', async () => {
    const org = await liveOrganization();
    const atApi = await http('POST', '/tokens', {
      baseUrl: live.baseUrl,
      headers: headersOf({ fullKey: org.fullKey, organizationId: org.organizationId }),
      body: tokenBody(),
    });
    expect(atApi.status).toBe(404);
    const atRoot = await http('POST', '/tokens', {
      baseUrl: live.baseUrl.replace(/\/api$/, ''),
      headers: headersOf({ fullKey: org.fullKey, organizationId: org.organizationId }),
      body: tokenBody(),
    });
    expect(atRoot.status).toBe(404);
    expect(await tokenCount(org)).toBe(0);
  });

  it('does not exist on the sandbox stage: no host routes, and the sandbox gateway routes no /tokens', async () => {
    expect(routesFor('sandbox', 'tokenization')).toEqual([]);
    expect(routesFor('live', 'tokenization').map((r) => `${r.method} ${r.path}`)).toContain('POST /tokens');
    const sandboxRoot = inject('baseUrl').replace(/\/api$/, '');
    for (const p of ['/tokens', '/api/tokens']) {
      const res = await http('POST', p, { baseUrl: sandboxRoot, body: tokenBody() });
      expect(res.status, p).toBe(404);
    }
  });
});

describe('the admin CLI on a live local stack', () => {
  /**
   * `npm run -s admin -- …` against the live stack, named by its ports as a developer would name it, with no STAGE
   * (unless `extra` sets one): the stage must come from the stack itself.
   */
  function liveAdmin(extra: Record<string, string>, ...args: string[]) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(live.settings.port),
      DYNAMODB_PORT: String(live.settings.dynamoPort),
      SQS_PORT: String(live.settings.sqsPort),
      S3_PORT: String(live.settings.s3Port),
      MOR_OWNER_PASSWORD: PASSWORD,
    };
    // This worker's environment is the live stack's (STAGE=live included): a caller's shell has none of it.
    for (const name of ['STAGE', 'MOR_STACKS_DIR']) delete env[name];
    return adminCliWithEnv({ ...env, ...extra }, ...args);
  }
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

  it('create-merchant with no STAGE makes a live merchant with a mor_live_ key, which the live API accepts', async () => {
    const { stdout } = await liveAdmin({}, 'create-merchant', '--name', 'Live by ports', '--owner-email', uniqueEmail('cli'), '--json');
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ mode: 'live', apiKey: expect.stringMatching(/^mor_live_[0-9a-f]{64}$/) });
    const read = await liveApi('GET', `/v1/public-api/merchants/${out.merchantId}`, { headers: { authorization: `Bearer ${out.apiKey}` } });
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ id: out.merchantId, name: 'Live by ports' });
  });

  it("refuses a STAGE that names the other stage, by ports or through npm start's record, and writes nothing", async () => {
    const byPorts = uniqueEmail('cli');
    const refused = await failure(liveAdmin({ STAGE: 'sandbox' }, 'create-merchant', '--name', 'Wrong stage', '--owner-email', byPorts, '--json'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The local stack at http://localhost:${live.settings.port}/api runs live; STAGE=sandbox names the other stage`);
    expect(refused.stderr).toContain('Unset STAGE');
    expect(refused.stdout).toBe('');

    // Found through a record of `npm start` (its own STAGE live) while the caller's shell says sandbox.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mor-stacks-'));
    const byRecord = uniqueEmail('cli');
    try {
      const { port, dynamoPort, sqsPort, s3Port } = live.settings;
      const record = { pid: process.pid, baseUrl: live.baseUrl, port, dynamoPort, sqsPort, s3Port, stage: 'live', startedAt: new Date().toISOString() };
      writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record));
      const env: NodeJS.ProcessEnv = { ...process.env, MOR_STACKS_DIR: dir, STAGE: 'sandbox', MOR_OWNER_PASSWORD: PASSWORD };
      for (const name of ['PORT', 'DYNAMODB_PORT', 'SQS_PORT', 'S3_PORT']) delete env[name];
      const viaRecord = await failure(adminCliWithEnv(env, 'create-merchant', '--name', 'Wrong stage', '--owner-email', byRecord, '--json'));
      expect(viaRecord.code).toBe(1);
      expect(viaRecord.stderr).toContain('runs live; STAGE=sandbox names the other stage');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await userIdByEmail(byPorts)).toBeNull();
    expect(await userIdByEmail(byRecord)).toBeNull();
  });

  it('refuses an --as-of later than now for release-funds and reconcile, as live', async () => {
    const [release, reconcile] = await Promise.all([
      failure(liveAdmin({}, 'release-funds', '--as-of', tomorrow(), '--json')),
      failure(liveAdmin({}, 'reconcile', '--as-of', tomorrow(), '--json')),
    ]);
    for (const refused of [release, reconcile]) {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('may not be later than now on live');
    }
  });

  it("refuses the sandbox processor's and bank's commands: advance-payout and decline-instrument", async () => {
    const [payout, decline] = await Promise.all([
      failure(liveAdmin({}, 'advance-payout', `po_${'0'.repeat(32)}`, '--to', 'failed')),
      failure(liveAdmin({}, 'decline-instrument', '--organization', randomUUID(), '--instrument', `inst_${'0'.repeat(32)}`)),
    ]);
    expect(payout).toMatchObject({ code: 1, stderr: expect.stringContaining('advance-payout works on the sandbox deployment only') });
    expect(decline).toMatchObject({ code: 1, stderr: expect.stringContaining('decline-instrument works on the sandbox deployment only') });
  });
});
