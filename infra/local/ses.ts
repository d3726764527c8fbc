/**
 * The SES of the local stack: an HTTP server on loopback answering the two SESv2 calls the functions make
 * (shared/platform/mail/mailer.ts), so the local stack sends mail through the same transport as a deployed one:
 *
 * - `GET /v2/email/account` (`GetAccount`): the account's sending quota, its `MaxSendRate` the server's `maxSendRate`;
 * - `POST /v2/email/outbound-emails` (`SendEmail`, a simple message): keeps the mail and answers its `MessageId`.
 *
 * As SES does, it takes only requests signed (SigV4, in the `Authorization` header) with the local functions' key over
 * the request as sent, refuses a sender address other than the verified one (`from`) with `MessageRejected`, and a send
 * past `maxSendRate` in the last second or `max24HourSend` in the last day with 429 `TooManyRequestsException`
 * ("Maximum sending rate exceeded.", "Daily message quota exceeded."). Nothing is ever delivered: the mails are kept, in memory, and in `<dataDir>/mails.jsonl` when the stack keeps its data, and
 * listed (oldest first) by `GET /_local/mails[?to=<address>]`, unsigned, for the local tools
 * (`npm run admin -- emails`) and the tests.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { bodyOf, emulatorServer, listenOnLoopback, type LoopbackServer } from './loopback.ts';
import { type AwsRefusal, signatureRefusal } from './sigv4.ts';

/** A mail the local SES took: what was sent, with its headers, and when SES took it. */
export interface LocalSesMail {
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The message headers the sender added (`Content.Simple.Headers`), by name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly sentAt: string;
}

/** The simple message `SendEmail` takes here: one text part (what the functions send), headers optional. */
const sendEmailInput = v.object({
  FromEmailAddress: v.string(),
  Destination: v.object({ ToAddresses: v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(50)) }),
  Content: v.object({
    Simple: v.object({
      Subject: v.object({ Data: v.string() }),
      Body: v.object({ Text: v.object({ Data: v.string() }) }),
      Headers: v.optional(v.array(v.object({ Name: v.pipe(v.string(), v.regex(/^[!-9;-~]{1,126}$/)), Value: v.pipe(v.string(), v.maxLength(870)) }))),
    }),
  }),
});

export interface SesServerOptions {
  /** The fake key the local functions sign with. */
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
  /** The one verified identity: the stack's sender address. */
  readonly from: string;
  /** The most mails SES takes in any second (`MaxSendRate`). */
  readonly maxSendRate: number;
  /** The most mails in 24 hours (`Max24HourSend`). */
  readonly max24HourSend: number;
  /** Keep the mails in this folder across restarts (created if missing); in memory only otherwise. */
  readonly dataDir?: string;
}

export type SesServer = LoopbackServer;

/** The mails the local SES at `endpoint` kept (for `to` only, when given), oldest first. */
export async function localSesMails(endpoint: string, to?: string): Promise<LocalSesMail[]> {
  const url = new URL('/_local/mails', endpoint);
  if (to !== undefined) url.searchParams.set('to', to);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`The local SES at ${endpoint} answered ${res.status}`);
  return (await res.json()) as LocalSesMail[];
}

/** Starts the local SES on loopback (`port` 0: any free port); rejects when the port is taken. */
export async function startSesServer(port: number, options: SesServerOptions): Promise<SesServer> {
  const file = options.dataDir && path.join(options.dataDir, 'mails.jsonl');
  const mails: LocalSesMail[] = [];
  if (file) {
    mkdirSync(options.dataDir!, { recursive: true });
    let kept = '';
    try {
      kept = readFileSync(file, 'utf8');
    } catch {
      // No mail kept yet.
    }
    for (const line of kept.split('\n')) if (line) mails.push(JSON.parse(line) as LocalSesMail);
  }
  /** When each send of the last second was taken (for the rate), oldest first. */
  const recentSends: number[] = [];
  // The mails are kept in the order they were taken, so those of the last day are the ones from `dayStart` on.
  let dayStart = 0;
  const sentLast24Hours = (now: number) => {
    while (dayStart < mails.length && now - Date.parse(mails[dayStart]!.sentAt) >= 86_400_000) dayStart++;
    return mails.length - dayStart;
  };

  const answer = (res: http.ServerResponse, status: number, body: unknown, errorType?: string) => {
    res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: http.ServerResponse, r: AwsRefusal) => answer(res, r.status, { message: r.message }, r.type);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const body = await bodyOf(req);
    if (req.method === 'GET' && url.pathname === '/_local/mails') {
      const to = url.searchParams.get('to');
      return answer(res, 200, to === null ? mails : mails.filter((m) => m.to === to));
    }
    const now = Date.now();
    const refusal = await signatureRefusal({ service: 'ses', status: 403 }, req.method ?? 'GET', url, req.headers, body, options.credentials, now);
    if (refusal) return refuse(res, refusal);
    if (req.method === 'GET' && url.pathname === '/v2/email/account') {
      return answer(res, 200, {
        SendQuota: { Max24HourSend: options.max24HourSend, MaxSendRate: options.maxSendRate, SentLast24Hours: sentLast24Hours(now) },
        SendingEnabled: true,
        ProductionAccessEnabled: true,
        EnforcementStatus: 'HEALTHY',
        DedicatedIpAutoWarmupEnabled: false,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
      let input: v.InferOutput<typeof sendEmailInput>;
      try {
        input = v.parse(sendEmailInput, JSON.parse(body));
      } catch {
        return refuse(res, { status: 400, type: 'BadRequestException', message: 'The request is not a simple message with one text body.' });
      }
      if (input.FromEmailAddress !== options.from) {
        return refuse(res, {
          status: 400,
          type: 'MessageRejected',
          message: `Email address is not verified. The following identities failed the check: ${input.FromEmailAddress}`,
        });
      }
      while (recentSends.length && now - recentSends[0]! >= 1000) recentSends.shift();
      if (recentSends.length >= options.maxSendRate)
        return refuse(res, { status: 429, type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' });
      // Both limits are SES's throttling, told apart by the message (as SES's guide to its sending quotas gives them).
      if (sentLast24Hours(now) >= options.max24HourSend)
        return refuse(res, { status: 429, type: 'TooManyRequestsException', message: 'Daily message quota exceeded.' });
      recentSends.push(now);
      const messageId = randomUUID();
      const simple = input.Content.Simple;
      for (const to of input.Destination.ToAddresses) {
        const mail: LocalSesMail = {
          messageId,
          from: input.FromEmailAddress,
          to,
          subject: simple.Subject.Data,
          text: simple.Body.Text.Data,
          headers: Object.fromEntries((simple.Headers ?? []).map((h) => [h.Name, h.Value])),
          sentAt: new Date(now).toISOString(),
        };
        mails.push(mail);
        if (file) appendFileSync(file, `${JSON.stringify(mail)}\n`);
      }
      return answer(res, 200, { MessageId: messageId });
    }
    return refuse(res, { status: 404, type: 'NotFoundException', message: `${req.method} ${url.pathname} is not an operation of this SES` });
  };

  const server = emulatorServer(handle, (res, e) => refuse(res, { status: 500, type: 'InternalFailure', message: String(e) }));
  return listenOnLoopback(server, port, 'SES', 'SES_PORT');
}
