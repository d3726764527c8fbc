/**
 * The local stack's SES (infra/local/ses.ts), which the functions send mail through as deployed ones send through
 * SES: it keeps what the mailer sends, takes only requests signed with the local key over the request as sent, only
 * the verified sender, and refuses sends past its rate and its daily quota as SES does; the mail sender's pace keeps a
 * burst of mails under that rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localSesMails, type SesServer, type SesServerOptions, startSesServer } from '../../../infra/local/ses.ts';
import { withEnv } from '../../support/env.ts';

const credentials = { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! };
const from = 'no-reply@ses-test.example';
const servers: SesServer[] = [];
const dirs: string[] = [];

async function ses(options: Partial<SesServerOptions> = {}): Promise<SesServer> {
  const server = await startSesServer(0, { credentials, from, maxSendRate: 100, max24HourSend: 1000, ...options });
  servers.push(server);
  return server;
}

/** The mailer and the sender's pace as a new container has them, sending to `server` as one of `senders`. */
async function container(server: SesServer, senders = 1) {
  vi.resetModules();
  const env = { AWS_ENDPOINT_URL_SESV2: server.endpoint, MAIL_FROM: from, MAIL_SENDERS_AT_ONCE: String(senders) };
  const [mailer, sender] = await Promise.all([import('../../../shared/platform/mail/mailer.ts'), import('../../../shared/platform/mail/sender.ts')]);
  return { env, ...mailer, ...sender };
}

/** How a send ended: `sent`, or the AWS error's name. */
const outcome = (send: Promise<unknown>) =>
  send.then(
    () => 'sent',
    (e: Error) => e.name,
  );

beforeEach(() => {
  servers.length = 0;
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the local SES', () => {
  it("keeps what the mailer sends, with its reference header, and answers the account's sending quota", async () => {
    const server = await ses();
    const { env, sendMail, sesMaxSendRate, mailReferenceHeader } = await container(server);
    await withEnv(env, async () => {
      await sendMail({ to: 'a@shop.example', subject: 'Your receipt', text: 'Paid.' }, 'mail-1');
      await sendMail({ to: 'b@shop.example', subject: 'Your link', text: 'Open it.' });
      expect(await sesMaxSendRate()).toBe(100);
    });
    const all = await localSesMails(server.endpoint);
    expect(all.map(({ from: f, to, subject, text, headers }) => ({ from: f, to, subject, text, headers }))).toEqual([
      { from, to: 'a@shop.example', subject: 'Your receipt', text: 'Paid.', headers: { [mailReferenceHeader]: 'mail-1' } },
      { from, to: 'b@shop.example', subject: 'Your link', text: 'Open it.', headers: {} },
    ]);
    expect(Date.now() - Date.parse(all[0]!.sentAt)).toBeLessThan(10_000);
    expect((await localSesMails(server.endpoint, 'b@shop.example')).map((m) => m.subject)).toEqual(['Your link']);
    const signer = new AwsClient({ ...credentials, service: 'ses', region: 'us-east-1' });
    const account = (await (await signer.fetch(`${server.endpoint}/v2/email/account`)).json()) as { SendQuota: Record<string, number> };
    expect(account.SendQuota).toEqual({ Max24HourSend: 1000, MaxSendRate: 100, SentLast24Hours: 2 });
  });

  it('takes only requests signed with the local key over the request as sent, and keeps nothing refused', async () => {
    const server = await ses();
    const url = `${server.endpoint}/v2/email/outbound-emails`;
    const body = JSON.stringify({
      FromEmailAddress: from,
      Destination: { ToAddresses: ['c@shop.example'] },
      Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hello' } } } },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const refusal = async (res: Response) => [res.status, res.headers.get('x-amzn-errortype')];
    expect(await refusal(await fetch(url, init))).toEqual([403, 'MissingAuthenticationTokenException']);
    const otherSecret = new AwsClient({ ...credentials, secretAccessKey: 'not-the-key', service: 'ses', region: 'us-east-1', retries: 0 });
    expect(await refusal(await otherSecret.fetch(url, init))).toEqual([403, 'InvalidSignatureException']);
    const otherKey = new AwsClient({ ...credentials, accessKeyId: 'AKIAOTHER', service: 'ses', region: 'us-east-1', retries: 0 });
    expect(await refusal(await otherKey.fetch(url, init))).toEqual([403, 'UnrecognizedClientException']);
    const local = new AwsClient({ ...credentials, service: 'ses', region: 'us-east-1', retries: 0 });
    // Signed for one body, sent with another.
    const signed = await local.sign(url, init);
    const tampered = await fetch(url, { method: 'POST', headers: signed.headers, body: body.replace('Hello', 'Hallo') });
    expect(await refusal(tampered)).toEqual([403, 'InvalidSignatureException']);
    // Signed for another path.
    const moved = await fetch(`${server.endpoint}/v2/email/outbound-emails?x=1`, { method: 'POST', headers: signed.headers, body });
    expect(await refusal(moved)).toEqual([403, 'InvalidSignatureException']);
    expect(await localSesMails(server.endpoint)).toEqual([]);
    expect((await local.fetch(url, init)).status).toBe(200);
    expect(await localSesMails(server.endpoint)).toHaveLength(1);
  });

  it('refuses a sender it has not verified, with MessageRejected', async () => {
    const server = await ses();
    const { env, sendMail } = await container(server);
    await withEnv({ ...env, MAIL_FROM: 'someone@else.example' }, async () => {
      await expect(sendMail({ to: 'd@shop.example', subject: 's', text: 't' })).rejects.toMatchObject({ name: 'MessageRejected', status: 400 });
    });
    expect(await localSesMails(server.endpoint)).toEqual([]);
  });

  it("refuses sends past its rate in a second, which the mail sender's pace keeps under", async () => {
    const server = await ses({ maxSendRate: 10 });
    const { env, sendMail, mailPace } = await container(server);
    await withEnv(env, async () => {
      const mail = (i: number) => ({ to: `burst-${i}@shop.example`, subject: 'Your receipt', text: `Receipt ${i}` });
      // Unpaced, 25 at once: SES takes ten a second, and refuses the rest (each tried again twice, at once). On a busy
      // machine the 25 may reach it across the turn of a second: at most two seconds' worth go out.
      const unpaced = await Promise.all(Array.from({ length: 25 }, (_, i) => outcome(sendMail(mail(i)))));
      expect(unpaced.filter((o) => o === 'sent').length).toBeLessThanOrEqual(20);
      expect(unpaced.filter((o) => o === 'TooManyRequestsException').length).toBeGreaterThanOrEqual(5);
      expect(unpaced.filter((o) => o !== 'sent' && o !== 'TooManyRequestsException')).toEqual([]);
      await new Promise((r) => setTimeout(r, 1_100));
      // Paced (one sender: nine tenths of ten a second), 20 all go out, in about two seconds.
      const pace = await mailPace();
      const started = Date.now();
      const paced = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(pace(() => sendMail(mail(100 + i))))));
      expect(paced).toEqual(Array.from({ length: 20 }, () => 'sent'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    });
  });

  it('refuses sends past its daily quota, with TooManyRequestsException', async () => {
    const server = await ses({ max24HourSend: 2 });
    const { env, sendMail } = await container(server);
    await withEnv(env, async () => {
      const send = () => sendMail({ to: 'e@shop.example', subject: 's', text: 't' });
      await send();
      await send();
      await expect(send()).rejects.toMatchObject({
        name: 'TooManyRequestsException',
        status: 429,
        message: expect.stringContaining('Daily message quota exceeded.'),
      });
    });
  });

  it('keeps its mails across a restart in its data folder', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mor-local-ses-'));
    dirs.push(dataDir);
    const first = await ses({ dataDir });
    const { env, sendMail } = await container(first);
    await withEnv(env, () => sendMail({ to: 'f@shop.example', subject: 'Kept', text: 'Still here' }));
    await first.close();
    const second = await ses({ dataDir });
    expect((await localSesMails(second.endpoint)).map((m) => [m.to, m.subject])).toEqual([['f@shop.example', 'Kept']]);
  });
});
