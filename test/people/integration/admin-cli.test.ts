import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getAccount, getOrgApiKey } from '../../../shared/organizations/accounts.repository.ts';
import { getApiKey } from '../../../shared/people/api-keys.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { attemptsIn, takeAttemptSlot } from '../../../shared/people/throttle.repository.ts';
import { userIdByEmail } from '../../../shared/people/users.repository.ts';
import { getEvent } from '../../../shared/platform/events/outbox.ts';
import { sendMail } from '../../../shared/platform/mail/mailer.ts';
import { OutgoingMailEntity } from '../../../shared/platform/mail/mail.entity.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { queuesFor } from '../../../infra/consumers.ts';
import { mailsArrived } from '../../support/mails.ts';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import type { RouteDef } from '../../../shared/platform/http/route-def.ts';
import { accountSecretLimits, counterOf, ipThrottleKey } from '../../../shared/people/throttle.service.ts';
import { inOneWindow } from '../../support/dates.ts';
import { bundleOperatorCli } from '../../support/operator-cli-bundle.ts';
import { buildHttpApiEvent } from '../../../infra/local/apigw-event.ts';
import { invokeHandler, lambdaContext, loadHandler } from '../../../infra/local/lambda.ts';
import { testCards } from '../../support/cards.ts';
import { checkContract } from '../../support/contract.ts';
import {
  adminCliWithEnv,
  call,
  NO_TAX_PLACE,
  cardToken,
  operatorCli,
  organizationAccount,
  orgCall,
  orgPath,
  rootMerchant,
  uniqueEmail,
  PASSWORD,
} from '../../support/fixtures.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const portOf = (url: string) => Number(new URL(url).port);
const runPorts = () => ({ port: portOf(inject('baseUrl')), dynamoPort: portOf(inject('dynamoEndpoint')), sqsPort: portOf(inject('sqsEndpoint')) });

/** The environment of a local tool started from a shell with none of the port settings. */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['PORT', 'DYNAMODB_PORT', 'SQS_PORT', 'MOR_OWNER_PASSWORD', 'MOR_STACKS_DIR']) delete env[name];
  return { ...env, ...extra };
}

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mor-stacks-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** The operator CLI bundled once for this file (test/support/operator-cli-bundle.ts). */
const cliBundle = path.join(tempDir(), 'cli.mjs');
const { withEnv: cliWithEnv, onStack: cli } = operatorCli(cliBundle);
beforeAll(async () => {
  // No import left out (a side-effect import of a package without side effects) or otherwise changed.
  expect(await bundleOperatorCli(cliBundle)).toEqual([]);
}, 60_000);

/** `npm run admin -- …` against the run's local stack, named by PORT / DYNAMODB_PORT / SQS_PORT (no MOR_OWNER_PASSWORD, no MOR_STACKS_DIR). */
const admin = (...args: string[]) => cli({ MOR_OWNER_PASSWORD: undefined, MOR_STACKS_DIR: undefined }, ...args);

/** A record like the one `npm start` writes, for the stack of this run. */
const record = (pid: number, ports: { port: number; dynamoPort: number; sqsPort: number }, startedAt = new Date().toISOString()) => ({
  pid,
  baseUrl: `http://localhost:${ports.port}/api`,
  ...ports,
  stage: 'sandbox',
  startedAt,
});

/** A route's function called the way the gateway calls it, from `sourceIp` (the local gateway only sees 127.0.0.1). */
async function invokeFrom(sourceIp: string, route: RouteDef, params: Record<string, string>, body: unknown) {
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
  const event = buildHttpApiEvent({
    method: route.method,
    rawPath,
    routeKey: `${route.method} ${route.path}`,
    sourceIp,
    pathParameters: params,
    headers: [['content-type', 'application/json']],
    body: JSON.stringify(body),
  });
  const handler = await loadHandler(route.handler);
  const result = (await invokeHandler(handler, event, lambdaContext({ name: route.name, timeoutMs: 10_000, region: 'us-east-1' }), 10_000)) as {
    statusCode: number;
    headers: Record<string, string>;
    body?: string;
  };
  const text = result.body ?? '';
  const json = text ? JSON.parse(text) : null;
  checkContract(route.method, rawPath.slice('/api'.length), result.statusCode, json, text);
  return { status: result.statusCode, headers: result.headers, json, text };
}

/** A documentation IPv6 address in a /64 of its own. */
const freshIp = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

// Each case spawns the CLI (a Node process start of under a second, more on a busy machine).
describe('operator CLI', { timeout: 60_000 }, () => {
  it('creates a root merchant with its owner and prints a working sandbox key as JSON', async () => {
    const email = uniqueEmail('cli');
    const { stdout } = await admin('create-merchant', '--name', 'CLI Partner', '--owner-email', email, '--owner-password', PASSWORD, '--json');
    const out = JSON.parse(stdout);
    expect(out.apiKey).toMatch(/^mor_test_[0-9a-f]{64}$/);
    expect(out.merchantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.ownerUserId).toMatch(/^[0-9a-f-]{36}$/);

    const merchant = await getMerchant(out.merchantId);
    expect(merchant).toMatchObject({ name: 'CLI Partner', parentId: null, ownerUserId: out.ownerUserId });
    const stored = await getApiKey(out.apiKeyId);
    expect(JSON.stringify(stored)).not.toContain(out.apiKey.slice(9));

    const read = await call('GET', `/v1/public-api/merchants/${out.merchantId}`, { key: out.apiKey });
    expect(read.status).toBe(200);
    expect(read.json.ownerAttached).toBe(true);

    const signIn = await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } });
    expect(signIn.status).toBe(201);
  });

  it('mints a live key with --mode live, which this sandbox deployment refuses', async () => {
    const { stdout } = await admin(
      'create-merchant',
      '--name',
      'Live',
      '--owner-email',
      uniqueEmail('cli'),
      '--owner-password',
      PASSWORD,
      '--mode',
      'live',
      '--json',
    );
    const out = JSON.parse(stdout);
    expect(out.apiKey).toMatch(/^mor_live_[0-9a-f]{64}$/);
    expect((await call('GET', `/v1/public-api/merchants/${out.merchantId}`, { key: out.apiKey })).status).toBe(401);
  });

  it('emits a valid catalog event with sample values, merging a given payload, and refuses an invalid one', async () => {
    const { stdout } = await admin('create-merchant', '--name', 'Emitter', '--owner-email', uniqueEmail('cli'), '--owner-password', PASSWORD, '--json');
    const { merchantId } = JSON.parse(stdout);
    const emitted = await admin('emit-event', 'payout.sent', '--merchant', merchantId, '--payload', '{"amount":12.5}', '--json');
    const event = JSON.parse(emitted.stdout);
    expect(event).toMatchObject({ type: 'payout.sent', merchantId, payload: { amount: 12.5, currency: 'usd', status: 'in_transit' } });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(Object.keys(event.payload).sort()).toEqual(['amount', 'currency', 'externalWithdrawalId', 'payoutId', 'status']);
    expect(await getEvent(event.id)).toMatchObject({ type: 'payout.sent', payload: event.payload });

    await expect(admin('emit-event', 'payout.sent', '--merchant', merchantId, '--payload', '{"amount":"lots"}')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('amount'),
    });
    await expect(admin('emit-event', 'invoice.paid', '--merchant', merchantId)).rejects.toMatchObject({ code: 1 });
  });

  it('prints the mail the local stack kept, its text beneath each heading, and as JSON', async () => {
    const to = uniqueEmail('mail');
    await sendMail({ to, subject: 'Hello', text: 'Body with https://example.com/link' });
    const plain = (await admin('emails')).stdout;
    expect(plain).toMatch(new RegExp(`  ${to.replace(/[.+]/g, '\\$&')}  Hello\n    Body with https://example.com/link\n`));
    const { stdout } = await admin('emails', '--json');
    const mails = JSON.parse(stdout) as Array<Record<string, string>>;
    const mine = mails.filter((m) => m.to === to);
    expect(mine).toHaveLength(1);
    expect(Object.keys(mine[0]!).sort()).toEqual(['sentAt', 'subject', 'text', 'to']);
    expect(mine[0]).toMatchObject({ subject: 'Hello', text: 'Body with https://example.com/link' });
  });

  it('counts what each consumer gave up on, and redrives a dead-letter queue to its consumer, which takes it again', async () => {
    const to = uniqueEmail('parked');
    // A mail the sender gave up on: its record on the mails dead-letter queue. Its item is kept off the relay, so that
    // only the redrive brings it to the sender.
    const now = new Date().toISOString();
    const id = randomUUID();
    const data = { merchantName: 'Parked shop', destinationId: 'wd_parked', host: 'parked.example', failures: 5 };
    const item = { ...OutgoingMailEntity.item({ id, to, template: 'webhooks.circuit-opened', data, at: now, createdAt: now, sentAt: null }), entity: 'parked' };
    await db.send(new PutCommand({ TableName: tableName(), Item: item }));
    const record = { eventID: id, eventName: 'INSERT', dynamodb: { Keys: marshall(OutgoingMailEntity.key({ id })), NewImage: marshall(item) } };
    const sqs = new SQSClient({});
    const dlq = `${process.env.TABLE_NAME}-mails-dlq`;
    await sqs.send(
      new SendMessageCommand({ QueueUrl: (await sqs.send(new GetQueueUrlCommand({ QueueName: dlq }))).QueueUrl, MessageBody: JSON.stringify(record) }),
    );

    const parked = JSON.parse((await admin('dead-letters', '--json')).stdout) as Array<{ queue: string; parkedOn: string; messages: number }>;
    expect(parked.map((p) => p.queue).sort()).toEqual([...queuesFor('sandbox'), 'stream-failures'].sort());
    expect(parked.find((p) => p.queue === 'mails')).toEqual({ queue: 'mails', parkedOn: dlq, messages: 1 });

    expect(JSON.parse((await admin('dead-letters', '--redrive', 'mails', '--json')).stdout)).toEqual({ queue: 'mails', moved: 1 });
    expect((await mailsArrived(to, 'parked.example')).map((m) => m.subject)).toEqual(['Webhook deliveries to parked.example are paused']);
    const after = JSON.parse((await admin('dead-letters', '--json')).stdout) as typeof parked;
    expect(after.find((p) => p.queue === 'mails')?.messages).toBe(0);
    // Only a queue of the stage is redriven; the stream-failure queue names batches, not records.
    await expect(admin('dead-letters', '--redrive', 'stream-failures')).rejects.toMatchObject({ code: 1 });
    await expect(admin('dead-letters', '--redrive', 'nowhere')).rejects.toMatchObject({ code: 1 });
  });

  it('takes the owner password from MOR_OWNER_PASSWORD instead of the command line', async () => {
    const email = uniqueEmail('cli');
    const { stdout } = await cli(
      { MOR_OWNER_PASSWORD: PASSWORD, MOR_STACKS_DIR: undefined },
      'create-merchant',
      '--name',
      'Env Password',
      '--owner-email',
      email,
      '--json',
    );
    expect(JSON.parse(stdout).apiKey).toMatch(/^mor_test_[0-9a-f]{64}$/);
    expect((await call('POST', '/v1/dashboard/sessions', { body: { email, password: PASSWORD } })).status).toBe(201);
    await expect(admin('create-merchant', '--name', 'X', '--owner-email', uniqueEmail())).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--owner-password (or MOR_OWNER_PASSWORD) is required'),
    });
  });

  it('refuses missing or bad arguments with a usage message and a non-zero exit', async () => {
    await expect(admin('create-merchant', '--name', 'X', '--owner-email', 'not-an-email', '--owner-password', PASSWORD)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Usage'),
    });
    await expect(admin('create-merchant', '--owner-email', uniqueEmail(), '--owner-password', PASSWORD)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--name is required'),
    });
    await expect(admin('no-such-command')).rejects.toMatchObject({ code: 2 });
  });
});

describe('create-account', () => {
  it('prints an account whose secret activates it, and whose first key reaches its key record and its organization', async () => {
    const merchant = JSON.parse(
      (await admin('create-merchant', '--name', 'Org Partner', '--owner-email', uniqueEmail('cli'), '--owner-password', PASSWORD, '--json')).stdout,
    );
    const { stdout } = await admin('create-account', '--name', 'Org backend', '--organization', merchant.merchantId, '--json');
    const out = JSON.parse(stdout);
    expect(Object.keys(out).sort()).toEqual(['accountId', 'organizationId', 'secret']);
    expect(out.organizationId).toBe(merchant.merchantId);
    expect(out.secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await getAccount(out.accountId);
    expect(stored).toMatchObject({ name: 'Org backend', mode: 'test', activatedAt: null });
    expect(JSON.stringify(stored)).not.toContain(out.secret);

    const base = `/v1/public-api/accounts/${out.accountId}`;
    const activated = await call('POST', `${base}/activate`, { body: { secret: out.secret } });
    expect(activated.status).toBe(200);
    expect(activated.json.data).toMatchObject({ id: out.accountId, name: 'Org backend' });
    const issued = await call('POST', `${base}/api-keys`, { body: { secret: out.secret } });
    expect(issued.status).toBe(201);
    const { apiKey, id: apiKeyId } = issued.json.data;

    const read = await orgCall('GET', `${base}/api-keys/${apiKeyId}`, { fullKey: apiKey });
    expect(read.status).toBe(200);
    expect(read.json.data).toMatchObject({ id: apiKeyId, accountId: out.accountId, revokedAt: null });
    // Linked as an owner of the merchant it was made for.
    const organization = await orgCall('GET', `/v1/public-api/organizations/${merchant.merchantId}`, { fullKey: apiKey });
    expect(organization.status).toBe(200);
  });

  it('makes an account without an organization, and refuses an unknown or malformed merchant id (releasing funds too)', async () => {
    const { stdout } = await admin('create-account', '--name', 'Loose', '--json');
    const out = JSON.parse(stdout);
    expect(out.organizationId).toBeNull();
    expect(await getAccount(out.accountId)).not.toBeNull();
    await expect(admin('create-account', '--name', 'X', '--organization', '6b1f3c2e-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No merchant 6b1f3c2e-0000-4000-8000-000000000000'),
    });
    await expect(admin('create-account', '--name', 'X', '--organization', 'acme')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Usage') });
    // Funds are released for a merchant of this stack only (an unknown one was "released 0").
    await expect(admin('release-funds', '--merchant', '6b1f3c2e-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No merchant 6b1f3c2e-0000-4000-8000-000000000000'),
    });
    await expect(admin('create-account')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--name is required') });
  });

  it('answers revoking an organization key again with the same record and its first revokedAt, also when raced', async () => {
    const { stdout } = await admin('create-account', '--name', 'Revoker', '--json');
    const { accountId, secret } = JSON.parse(stdout);
    const base = `/v1/public-api/accounts/${accountId}`;
    await call('POST', `${base}/activate`, { body: { secret } });
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push((await call('POST', `${base}/api-keys`, { body: { secret } })).json.data);
    const [k1, k2, k3] = keys as Array<{ id: string; apiKey: string }>;

    const first = await orgCall('DELETE', `${base}/api-keys/${k2!.id}`, { fullKey: k1!.apiKey });
    expect(first.status).toBe(200);
    expect(first.json.data.revokedAt).not.toBeNull();
    const again = await orgCall('DELETE', `${base}/api-keys/${k2!.id}`, { fullKey: k1!.apiKey });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(first.json.data);

    const answers = await Promise.all(Array.from({ length: 20 }, () => orgCall('DELETE', `${base}/api-keys/${k3!.id}`, { fullKey: k1!.apiKey })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const stored = (await getOrgApiKey(k3!.id))!.revokedAt;
    expect(new Set(answers.map((a) => a.json.data.revokedAt))).toEqual(new Set([stored]));
  });
});

// Each test may first wait up to 15 s for a throttle window to begin (inOneWindow).
describe('account secret throttling', { timeout: 45_000 }, () => {
  const activate = organizationRoutes.activateAccount;

  it('answers 429 with Retry-After after 10 wrong secrets for an account, even to the right one, and activates nothing', async () => {
    const { accountId, secret } = JSON.parse((await admin('create-account', '--name', 'Guessed', '--json')).stdout);
    const from = freshIp();
    // Twelve attempts in one fixed window, never straddling its end.
    await inOneWindow(accountSecretLimits.account.windowSeconds);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await invokeFrom(from, activate, { accountId }, { secret: `wrong secret number ${i}` }));
    const right = await invokeFrom(from, activate, { accountId }, { secret });

    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    expect(answers[0]!.json.errorCode).toBe('auth.invalid_secret');
    for (const refused of [answers[10]!, right]) {
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ errorCode: 'auth.too_many_attempts', statusCode: 429 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(accountSecretLimits.account.windowSeconds);
    }
    expect((await getAccount(accountId))!.activatedAt).toBeNull();
  });

  it('locks an account id that does not exist exactly like one that does', async () => {
    const unknown = '0d8e4c1a-5b6f-4a7e-9c3d-2f1e0a9b8c7d'.replace(/^.{8}/, randomBytes(4).toString('hex'));
    const from = freshIp();
    await inOneWindow(accountSecretLimits.account.windowSeconds);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await invokeFrom(from, activate, { accountId: unknown }, { secret: 'not the secret' }));
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
  });

  it('answers 429 to every account from an address past 50 failures, and counts a success as no failure', async () => {
    const [a, b] = await Promise.all([admin('create-account', '--name', 'A', '--json'), admin('create-account', '--name', 'B', '--json')]);
    const first = JSON.parse(a.stdout);
    const second = JSON.parse(b.stdout);
    const from = freshIp();
    await inOneWindow(accountSecretLimits.ip.windowSeconds);
    const counter = counterOf(accountSecretLimits.ip, ipThrottleKey(from), new Date());
    // 48 failures from this address already in this window.
    for (let i = 0; i < 48; i++) expect(await takeAttemptSlot(counter, accountSecretLimits.ip.limit)).toBe(true);

    expect((await invokeFrom(from, activate, { accountId: first.accountId }, { secret: first.secret })).status).toBe(200);
    expect((await invokeFrom(from, activate, { accountId: first.accountId }, { secret: 'wrong' })).status).toBe(401);
    expect((await invokeFrom(from, activate, { accountId: first.accountId }, { secret: 'wrong again' })).status).toBe(401);
    const refused = await invokeFrom(from, activate, { accountId: second.accountId }, { secret: second.secret });
    const elsewhere = await invokeFrom(freshIp(), activate, { accountId: second.accountId }, { secret: second.secret });

    expect(refused.status).toBe(429);
    expect(refused.json.errorCode).toBe('auth.too_many_attempts');
    expect(elsewhere.status).toBe(200);
    expect(await attemptsIn(counter)).toBe(50);
  });
});

describe('decline-instrument', () => {
  type Org = Awaited<ReturnType<typeof organizationAccount>>;

  /** A customer of `org` with a card attached through the organization API (the card that succeeds unless said otherwise). */
  async function cardOnFile(org: Org, number: string = testCards.succeeds) {
    const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('buyer') } });
    expect(customer.status).toBe(201);
    const customerId = customer.json.data.id as string;
    const attached = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: await cardToken(org, number) },
    });
    expect(attached.status).toBe(201);
    return { customerId, paymentInstrumentId: attached.json.data.id as string };
  }

  /** A charge of the instrument through `POST /api/transactions`, under a new idempotency key. */
  const charge = (org: Org, paymentInstrumentId: string) =>
    orgCall('POST', '/transactions', {
      fullKey: org.fullKey,
      body: { idempotencyKey: randomUUID(), amount: 9.99, currency: 'USD', paymentInstrumentId, billingAddress: NO_TAX_PLACE },
    });

  const expectDeclined = (res: Awaited<ReturnType<typeof charge>>, code: string) => {
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ errorCode: 'payment.declined', statusCode: 402 });
    expect(res.json.details).toContain(`declineCode: ${code}`);
  };

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );

  it('makes a saved card that was charged decline every charge from now on, and --restore makes its charges succeed again', async () => {
    const org = await organizationAccount('Renewals');
    const { customerId, paymentInstrumentId } = await cardOnFile(org);
    const flags = ['--organization', org.organizationId, '--instrument', paymentInstrumentId];
    expect((await charge(org, paymentInstrumentId)).status).toBe(201);

    const declining = JSON.parse((await admin('decline-instrument', ...flags, '--code', 'insufficient_funds', '--json')).stdout);
    expect(declining).toEqual({
      organizationId: org.organizationId,
      paymentInstrumentId,
      customerId,
      brand: 'visa',
      last4: '4242',
      behaviour: 'decline:insufficient_funds',
    });
    expectDeclined(await charge(org, paymentInstrumentId), 'insufficient_funds');
    expectDeclined(await charge(org, paymentInstrumentId), 'insufficient_funds');

    // Without --code: a generic decline.
    const generic = await admin('decline-instrument', ...flags);
    expect(generic.stdout).toContain(`${paymentInstrumentId} (visa …4242) declines every charge from now on: generic_decline`);
    expectDeclined(await charge(org, paymentInstrumentId), 'generic_decline');

    const restored = JSON.parse((await admin('decline-instrument', ...flags, '--restore', '--json')).stdout);
    expect(restored).toMatchObject({ paymentInstrumentId, behaviour: 'succeed' });
    expect((await charge(org, paymentInstrumentId)).status).toBe(201);
  }, 60_000);

  it('refuses live, an unknown or foreign instrument and bad flags, and changes nothing', async () => {
    const [org, other] = await Promise.all([organizationAccount('Decline refusals'), organizationAccount('Other')]);
    const { paymentInstrumentId } = await cardOnFile(org);
    const flags = ['--organization', org.organizationId, '--instrument', paymentInstrumentId];
    const [onLiveFlag, otherStage, unknown, foreign, badCode, both, missing] = await Promise.all([
      failure(admin('decline-instrument', ...flags, '--stage', 'live')),
      // STAGE=live against this sandbox stack (live's own refusal: test/customers/integration/tokenization-host.test.ts, on a live stack).
      failure(cli({ STAGE: 'live', MOR_STACKS_DIR: undefined }, 'decline-instrument', ...flags)),
      failure(admin('decline-instrument', '--organization', org.organizationId, '--instrument', `inst_${'0'.repeat(32)}`)),
      failure(admin('decline-instrument', '--organization', other.organizationId, '--instrument', paymentInstrumentId)),
      failure(admin('decline-instrument', ...flags, '--code', 'stolen_card')),
      failure(admin('decline-instrument', ...flags, '--code', 'expired_card', '--restore')),
      failure(admin('decline-instrument', '--organization', org.organizationId)),
    ]);
    expect(onLiveFlag).toMatchObject({ code: 1, stderr: expect.stringContaining('--stage must be sandbox') });
    expect(otherStage).toMatchObject({ code: 1, stderr: expect.stringContaining('runs sandbox; STAGE=live names the other stage') });
    for (const notFound of [unknown, foreign])
      expect(notFound).toMatchObject({ code: 1, stderr: expect.stringContaining('No payment instrument with this id') });
    expect(badCode).toMatchObject({ code: 1, stderr: expect.stringContaining('--code must be generic_decline, insufficient_funds, expired_card') });
    expect(both).toMatchObject({ code: 1, stderr: expect.stringContaining('--code and --restore do not go together') });
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('--instrument is required') });
    expect((await charge(org, paymentInstrumentId)).status).toBe(201);
  }, 60_000);

  it('the test card that attaches then declines: attaches to a customer, and every charge of it is declined', async () => {
    const org = await organizationAccount('Attach then decline');
    const { paymentInstrumentId } = await cardOnFile(org, testCards.declinesAfterAttaching);
    expectDeclined(await charge(org, paymentInstrumentId), 'generic_decline');
    expectDeclined(await charge(org, paymentInstrumentId), 'generic_decline');
  });
});

describe('local tools and the running stack', { timeout: 60_000 }, () => {
  it('print their usage and exit 0 with --help', async () => {
    const runs = await Promise.all([
      adminCliWithEnv(process.env, '--help'),
      ...['create-merchant', 'create-account', 'emit-event', 'emails', 'dead-letters'].map((c) => adminCliWithEnv(process.env, c, '--help')),
      run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', '--help']),
      run(process.execPath, ['--import', 'tsx', 'infra/local/start.ts', '--help']),
    ]);
    for (const { stdout } of runs) expect(stdout).toMatch(/^Usage: /);
    expect(runs[0]!.stdout).toContain('create-account');
    expect(runs[2]!.stdout).toContain('--organization <merchantId>');
    // Every function with a sample event can be invoked, the stream relay too; start names every setting it reads.
    expect(runs.at(-2)!.stdout).toMatch(/Functions: .*\bstream-relay\b/s);
    expect(runs.at(-1)!.stdout).toContain('MOR_STACKS_DIR');
  });

  it("invoke: a sample answered 401 says how to mint a key, and MOR_API_KEY with MOR_MERCHANT_ID take the sample credentials' place", async () => {
    const { port, dynamoPort, sqsPort } = runPorts();
    const env = { ...bareEnv({ POWERTOOLS_LOG_LEVEL: 'SILENT' }), PORT: String(port), DYNAMODB_PORT: String(dynamoPort), SQS_PORT: String(sqsPort) };
    const placeholder = await run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', 'merchants-get'], { cwd: repoRoot, env });
    expect(JSON.parse(placeholder.stdout)).toMatchObject({ statusCode: 401 });
    expect(placeholder.stderr).toContain('placeholder API key');
    expect(placeholder.stderr).toContain('MOR_API_KEY=<apiKey> MOR_MERCHANT_ID=<merchantId>');
    // The command it prints mints a merchant and its key, as written.
    const printed = /`npm run -s admin -- (.*?)`/.exec(placeholder.stderr)![1]!;
    const minted = await admin(
      ...[...printed.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).map((a) => (a === 'you@example.com' ? uniqueEmail('minted') : a)),
    );
    expect(JSON.parse(minted.stdout)).toMatchObject({ apiKey: expect.stringMatching(/^mor_test_/) });
    // A setting that is wrong is one line and exit 2, no stack trace.
    const wrong = await run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', 'health'], { cwd: repoRoot, env: { ...env, PORT: 'abc' } }).catch(
      (e) => e,
    );
    expect(wrong).toMatchObject({ code: 2 });
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    const merchant = await rootMerchant('Invoked');
    const own = await run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', 'merchants-get'], {
      cwd: repoRoot,
      env: { ...env, MOR_API_KEY: merchant.apiKey, MOR_MERCHANT_ID: merchant.merchantId },
    });
    expect(JSON.parse(own.stdout)).toMatchObject({ statusCode: 200 });
    expect(JSON.parse(JSON.parse(own.stdout).body)).toMatchObject({ id: merchant.merchantId, name: 'Invoked' });
    expect(own.stderr).not.toContain('placeholder API key');
  }, 60_000);

  it('talk to the stack npm start recorded, skip records of processes that are gone, and let PORT settings win', async () => {
    const dir = tempDir();
    const exited = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => exited.once('exit', () => resolve(exited.pid!)));
    const nowhere = { port: 1, dynamoPort: 1, sqsPort: 1 };
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record(process.pid, runPorts(), '2026-01-01T00:00:00.000Z')));
    writeFileSync(path.join(dir, `${deadPid}.json`), JSON.stringify(record(deadPid, nowhere, '2099-01-01T00:00:00.000Z')));

    const found = JSON.parse((await cliWithEnv(bareEnv({ MOR_STACKS_DIR: dir }), 'create-account', '--name', 'Found', '--json')).stdout);
    expect(await getAccount(found.accountId)).toMatchObject({ name: 'Found' });
    expect(readdirSync(dir)).toEqual([`${process.pid}.json`]); // the gone process's record was cleared away

    // A record of a live process pointing nowhere: used when nothing is set, overruled by PORT settings.
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record(process.pid, nowhere)));
    await expect(cliWithEnv(bareEnv({ MOR_STACKS_DIR: dir }), 'emails', '--json')).rejects.toMatchObject({ code: 1 });
    const { port, dynamoPort, sqsPort } = runPorts();
    const explicit = bareEnv({ MOR_STACKS_DIR: dir, PORT: String(port), DYNAMODB_PORT: String(dynamoPort), SQS_PORT: String(sqsPort) });
    expect(Array.isArray(JSON.parse((await cliWithEnv(explicit, 'emails', '--json')).stdout))).toBe(true);

    // By PORT settings alone, the SES (on a free port) is found through the record of the stack on those ports.
    const { AWS_ENDPOINT_URL_SESV2: sesEndpoint, ...withoutSes } = explicit;
    await expect(cliWithEnv(withoutSes, 'emails', '--json')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('set SES_PORT') });
    const sesPort = Number(new URL(sesEndpoint!).port);
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ ...record(process.pid, runPorts()), sesPort }));
    expect(Array.isArray(JSON.parse((await cliWithEnv(withoutSes, 'emails', '--json')).stdout))).toBe(true);
  });

  it('take the stage from the stack: a STAGE naming the other one is refused, by ports or through the record, and nothing is written', async () => {
    const { port, dynamoPort, sqsPort } = runPorts();
    const dir = tempDir();
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(record(process.pid, runPorts())));
    const byPorts = bareEnv({ STAGE: 'live', MOR_OWNER_PASSWORD: PASSWORD, PORT: String(port), DYNAMODB_PORT: String(dynamoPort), SQS_PORT: String(sqsPort) });
    const byRecord = bareEnv({ STAGE: 'live', MOR_OWNER_PASSWORD: PASSWORD, MOR_STACKS_DIR: dir });
    const emails = [uniqueEmail('cli'), uniqueEmail('cli')];
    const refused = await Promise.all(
      [byPorts, byRecord].map((env, i) =>
        cliWithEnv(env, 'create-merchant', '--name', 'Other stage', '--owner-email', emails[i]!, '--json').then(
          () => ({ code: 0, stdout: '', stderr: '' }),
          (e: { code: number; stdout: string; stderr: string }) => e,
        ),
      ),
    );
    for (const r of refused) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`The local stack at http://localhost:${port}/api runs sandbox; STAGE=live names the other stage`);
      expect(r.stderr).toContain('Unset STAGE');
      expect(r.stdout).toBe('');
    }
    for (const email of emails) expect(await userIdByEmail(email)).toBeNull();
    // The stack's own STAGE, set again, is no contradiction.
    const same = JSON.parse(
      (await cliWithEnv({ ...byPorts, STAGE: 'sandbox' }, 'create-merchant', '--name', 'Same stage', '--owner-email', emails[0]!, '--json')).stdout,
    );
    expect(same).toMatchObject({ mode: 'test', apiKey: expect.stringMatching(/^mor_test_/) });
  }, 60_000);

  it('npm start records the ports it got for admin and invoke, and removes the record when it stops', async () => {
    const dir = tempDir();
    const env = { ...bareEnv({ MOR_STACKS_DIR: dir }), PORT: '0', DYNAMODB_PORT: '0', SQS_PORT: '0' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let out = '';
      const baseUrl = await new Promise<string>((resolve, reject) => {
        // A second stack (its own database) starting beside a busy run: give it most of the test's time.
        const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 70_000);
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /^Platform ready at (\S+)$/m.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const file = path.join(dir, `${child.pid}.json`);
      const recorded = JSON.parse(readFileSync(file, 'utf8'));
      expect(recorded).toMatchObject({ pid: child.pid, baseUrl, port: portOf(baseUrl), stage: 'sandbox' });
      expect(recorded.dynamoPort).toBeGreaterThan(0);

      const tools = bareEnv({ MOR_STACKS_DIR: dir });
      const account = JSON.parse((await cliWithEnv(tools, 'create-account', '--name', 'Theirs', '--json')).stdout);
      const activated = await fetch(`${baseUrl}/v1/public-api/accounts/${account.accountId}/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret: account.secret }),
      });
      expect(activated.status).toBe(200);
      expect(await getAccount(account.accountId)).toBeNull(); // on that stack, not on this run's
      const invoked = await run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', 'health'], { env: tools });
      expect(JSON.parse(invoked.stdout)).toMatchObject({ statusCode: 200 });

      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(file)).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 90_000);
});
