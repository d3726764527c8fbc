/**
 * Receiver-side webhook verification. Dependency-free (only `node:crypto`): merchants may import it or copy
 * this file as is.
 *
 * A delivery carries `X-Webhook-Timestamp` (Unix seconds) and `X-Webhook-Signature`
 * (`sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`). The HMAC key is the UTF-8 bytes of the
 * 64-character hex signing secret exactly as shown in the dashboard (the string itself, not hex-decoded).
 *
 * Verify on the raw body bytes, before any JSON parsing: re-serialising parsed JSON changes the bytes.
 * The service enforces no time window; pass `toleranceSeconds` (e.g. 300) to reject stale or replayed
 * deliveries.
 *
 * @example Node http
 * ```ts
 * import { createServer } from 'node:http';
 * import { verifyWebhook } from './verify.ts';
 *
 * const secret = process.env.WEBHOOK_SECRET!;
 * createServer((req, res) => {
 *   const chunks: Buffer[] = [];
 *   req.on('data', (c: Buffer) => chunks.push(c));
 *   req.on('end', () => {
 *     const rawBody = Buffer.concat(chunks);
 *     const result = verifyWebhook({ rawBody, headers: req.headers, secret, toleranceSeconds: 300 });
 *     if (!result.ok) { res.writeHead(400).end(result.reason); return; }
 *     res.writeHead(204).end();                  // answer 2xx quickly…
 *     queueMicrotask(() => handle(JSON.parse(rawBody.toString('utf8')))); // …and process asynchronously
 *   });
 * }).listen(8080);
 * ```
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VerifyWebhookFailure = 'missing_headers' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature';

export type VerifyWebhookResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyWebhookFailure };

/** A fetch `Headers` object, or a Node-style record (`IncomingMessage.headers`); names match case-insensitively. */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookInput {
  /** The body exactly as received. A string is taken as its UTF-8 bytes. */
  rawBody: string | Buffer | Uint8Array;
  headers: WebhookHeaders;
  /** The destination's signing secret (64 lowercase hex characters). */
  secret: string;
  /** Maximum allowed distance, in seconds, between the timestamp and `now` (either direction). No window when omitted. */
  toleranceSeconds?: number;
  /** The current time; defaults to `new Date()`. */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}

export function verifyWebhook(input: VerifyWebhookInput): VerifyWebhookResult {
  const { rawBody, headers, secret, toleranceSeconds, now = new Date() } = input;
  if (toleranceSeconds !== undefined && !(Number.isFinite(toleranceSeconds) && toleranceSeconds >= 0)) {
    throw new TypeError('toleranceSeconds must be a non-negative number');
  }
  const timestampHeader = header(headers, 'x-webhook-timestamp');
  const signatureHeader = header(headers, 'x-webhook-signature');
  if (!timestampHeader || !signatureHeader) return { ok: false, reason: 'missing_headers' };

  if (!/^\d{1,15}$/.test(timestampHeader)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(timestampHeader);
  if (toleranceSeconds !== undefined && Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }

  // Sign the timestamp text exactly as received, then the raw body bytes.
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestampHeader}.`, 'utf8');
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  const expected = Buffer.from(`sha256=${hmac.digest('hex')}`, 'utf8');
  const received = Buffer.from(signatureHeader, 'utf8');
  // The expected length is public (fixed format), so checking it first leaks nothing about the secret.
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return { ok: false, reason: 'bad_signature' };
  }
  return { ok: true, timestamp };
}
