/**
 * The mail sender's pace (`mailPace`, shared/platform/mail/sender.ts): each sender sends at most its share of the
 * account's SES sending rate (SESv2 `GetAccount`, read once a container) in any second. SES is a local HTTP server here
 * that answers `GetAccount` and counts the reads (the pace against the local stack's SES, which refuses sends past its
 * rate: test/platform/unit/local-ses.test.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const names = ['AWS_ENDPOINT_URL_SESV2', 'MAIL_SENDERS_AT_ONCE'] as const;
let saved: Record<string, string | undefined> = {};

/** What the stand-in SES answers `GetAccount`, and how many times it was asked. */
let account: { status: number; body: unknown } = { status: 200, body: {} };
let reads = 0;
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v2/email/account') reads++;
    res.writeHead(account.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(account.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  process.env.AWS_ENDPOINT_URL_SESV2 = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.MAIL_SENDERS_AT_ONCE = '2';
  reads = 0;
  // Each test is a new container: the pace is read once a container.
  vi.resetModules();
});
afterEach(() => {
  for (const n of names) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

const sender = () => import('../../../shared/platform/mail/sender.ts');

describe("the mail sender's pace", () => {
  it("gives each sender its even share of SES's rate a second, at least one mail per interval", async () => {
    const { throttleOf } = await sender();
    expect(throttleOf(14, 2)).toEqual({ limit: 7, interval: 1000 });
    expect(throttleOf(200, 2)).toEqual({ limit: 100, interval: 1000 });
    // Under one mail a second each: one mail per longer interval.
    expect(throttleOf(1, 2)).toEqual({ limit: 1, interval: 2000 });
    expect(throttleOf(3, 2)).toEqual({ limit: 1, interval: 667 });
    expect(throttleOf(15, 2)).toEqual({ limit: 7, interval: 934 });
  });

  it("sends no more than its share in any second, having read SES's rate once", async () => {
    account = { status: 200, body: { SendQuota: { Max24HourSend: 50_000, MaxSendRate: 20, SentLast24Hours: 0 }, SendingEnabled: true } };
    const { mailPace, QUEUED_MAIL_SHARE } = await sender();
    expect(QUEUED_MAIL_SHARE).toBe(0.9);
    const pace = await mailPace();
    const started = Date.now();
    const at: number[] = [];
    await Promise.all(Array.from({ length: 25 }, () => pace(async () => at.push(Date.now() - started))));
    // 9 a second each of the two senders (half of nine tenths of 20; the rest left to the routes' own mails): 25 take
    // three seconds' turns.
    at.sort((a, b) => a - b);
    // No mail before its second: the tenth at 1 s at the earliest, the nineteenth at 2 s (a timer never fires early,
    // within a millisecond's rounding; a busy machine's late timer only delays one, which the tenth of SES's rate left
    // to the routes absorbs).
    for (let i = 9; i < at.length; i++) expect(at[i]!, `mail ${i}`).toBeGreaterThanOrEqual(Math.floor(i / 9) * 1000 - 2);
    expect(at[8]).toBeLessThan(500); // the first nine at once
    expect(at.at(-1)).toBeGreaterThanOrEqual(1950);
    expect(at.at(-1)).toBeLessThan(3500); // and no slower than its share
    expect(await mailPace()).toBe(pace);
    expect(reads).toBe(1);
  });

  it('reads the rate again on the next batch when the read failed, and fails that batch', async () => {
    account = { status: 403, body: { __type: 'AccessDeniedException', message: 'not allowed' } };
    const { mailPace } = await sender();
    await expect(mailPace()).rejects.toMatchObject({ name: 'AccessDeniedException' });
    account = { status: 200, body: { SendQuota: {} } };
    await expect(mailPace()).rejects.toThrow('SES gave no sending rate (MaxSendRate undefined)');
    account = { status: 200, body: { SendQuota: { MaxSendRate: 14 } } };
    await expect(mailPace()).resolves.toBeTypeOf('function');
    expect(reads).toBe(3);
  });
});
