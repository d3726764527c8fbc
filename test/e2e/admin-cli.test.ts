import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { getApiKey } from '../../shared/db/api-keys.ts';
import { getMerchant } from '../../shared/db/merchants.ts';
import { getEvent } from '../../shared/events/outbox.ts';
import { sendMail } from '../../shared/mail/mailer.ts';
import { call, uniqueEmail, PASSWORD } from './fixtures.ts';

const run = promisify(execFile);

/** `npm run admin -- …` against the run's local stack (the CLI finds it through the same settings as npm start). */
function admin(...args: string[]) {
  const port = (url: string) => new URL(url).port;
  return run('node_modules/.bin/tsx', ['infra/admin/cli.ts', ...args], {
    env: { ...process.env, PORT: port(inject('baseUrl')), DYNAMODB_PORT: port(inject('dynamoEndpoint')), SQS_PORT: port(inject('sqsEndpoint')) },
  });
}

describe('operator CLI', () => {
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
    const { stdout } = await admin('create-merchant', '--name', 'Live', '--owner-email', uniqueEmail('cli'), '--owner-password', PASSWORD, '--mode', 'live', '--json');
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

    await expect(admin('emit-event', 'payout.sent', '--merchant', merchantId, '--payload', '{"amount":"lots"}')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('amount') });
    await expect(admin('emit-event', 'invoice.paid', '--merchant', merchantId)).rejects.toMatchObject({ code: 1 });
  });

  it('prints the mail the local stack kept as JSON', async () => {
    const to = uniqueEmail('mail');
    await sendMail({ to, subject: 'Hello', text: 'Body' });
    const { stdout } = await admin('emails', '--json');
    const mails = JSON.parse(stdout) as Array<Record<string, string>>;
    const mine = mails.filter((m) => m.to === to);
    expect(mine).toHaveLength(1);
    expect(Object.keys(mine[0]!).sort()).toEqual(['sentAt', 'subject', 'text', 'to']);
    expect(mine[0]).toMatchObject({ subject: 'Hello', text: 'Body' });
  });

  it('refuses missing or bad arguments with a usage message and a non-zero exit', async () => {
    await expect(admin('create-merchant', '--name', 'X', '--owner-email', 'not-an-email', '--owner-password', PASSWORD)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Usage') });
    await expect(admin('create-merchant', '--owner-email', uniqueEmail(), '--owner-password', PASSWORD)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--name is required') });
    await expect(admin('no-such-command')).rejects.toMatchObject({ code: 2 });
  });
});
