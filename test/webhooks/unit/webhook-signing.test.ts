import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { startSecretsServer } from '../../../infra/local/secrets.ts';
import { deliveryHeaders, signatureOf } from '../../../shared/webhooks/signing.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { withEnv } from '../../support/env.ts';

const secret = '3f1c9a5be07d24681f0e2b3c4d5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978';
const timestamp = 1_700_000_000;
const body = '{"transactionId":"txn_1","amount":12.5,"currency":"usd","note":"café"}';
const at = (unixSeconds: number): Date => new Date(unixSeconds * 1000);

describe('signatureOf', () => {
  it('is sha256= + lowercase hex HMAC-SHA256 of "<timestamp>.<rawBody>" keyed with the secret string', () => {
    const independent = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    expect(signatureOf(secret, timestamp, body)).toBe(`sha256=${independent}`);
    // Known answer from `openssl dgst -sha256 -hmac <secret>`: the key is the secret's UTF-8 text, not hex-decoded.
    expect(signatureOf(secret, timestamp, body)).toBe('sha256=7449ebba58af69fddd20f2569506c52fe90d10131953032d44a5d602677c1591');
    const hexDecodedKey = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${timestamp}.${body}`).digest('hex');
    expect(signatureOf(secret, timestamp, body)).not.toBe(`sha256=${hexDecodedKey}`);
  });

  it('refuses a non-integer timestamp', () => {
    expect(() => signatureOf(secret, 1.5, body)).toThrow(TypeError);
    expect(() => signatureOf(secret, Date.now() / 1000, body)).toThrow(TypeError);
  });

  it("derives each destination's secret from the signing key read from Secrets Manager: 64 lowercase hex, stable, different per destination and key", async () => {
    // The key is a secret of a Secrets Manager of this test's own (the local stack's kind), read once a container.
    const key = 'a-signing-key-of-this-test';
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:test-webhook-signing-key-AbCdEf';
    const credentials = { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! };
    const server = await startSecretsServer(0, { credentials, secrets: [{ arn, name: 'test-webhook-signing-key', value: key }] });
    try {
      await withEnv({ AWS_ENDPOINT_URL_SECRETS_MANAGER: server.endpoint, WEBHOOK_SIGNING_KEY_ARN: arn }, async () => {
        vi.resetModules();
        const { signingSecretOf } = await import('../../../shared/webhooks/signing-key.ts');
        const a = await signingSecretOf('wh_000000000000000000000001');
        expect(a).toMatch(/^[0-9a-f]{64}$/);
        expect(await signingSecretOf('wh_000000000000000000000001')).toBe(a);
        expect(await signingSecretOf('wh_000000000000000000000002')).not.toBe(a);
        expect(a).toBe(createHmac('sha256', key).update('webhook-signing-secret:v1:wh_000000000000000000000001').digest('hex'));
      });
    } finally {
      await server.close();
    }
  });
});

const event = { id: 'evt_0193a6f31a2b7c3d8e4f5a6b7c8d9e0f', type: 'payment.refunded' };

describe('deliveryHeaders', () => {
  it("sends custom headers, then overwrites Content-Type and the webhook headers (the event's type and id too) in any letter case", () => {
    const headers = deliveryHeaders(
      {
        Authorization: 'Bearer merchant-token',
        'X-Custom': 'kept',
        'content-TYPE': 'text/plain',
        'x-WEBHOOK-signature': 'sha256=forged',
        'X-Webhook-Timestamp': '1',
        'x-webhook-event': 'payment.completed',
        'X-WEBHOOK-ID': 'evt_forged',
        'Content-Length': '3',
      },
      secret,
      timestamp,
      body,
      event,
    );
    expect(headers).toEqual({
      Authorization: 'Bearer merchant-token',
      'X-Custom': 'kept',
      'Content-Type': 'application/json',
      'X-Webhook-Event': 'payment.refunded',
      'X-Webhook-Id': event.id,
      'X-Webhook-Timestamp': String(timestamp),
      'X-Webhook-Signature': signatureOf(secret, timestamp, body),
    });
    const names = Object.keys(headers).map((name) => name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(headers).slice(0, 2)).toEqual(['Authorization', 'X-Custom']);
  });
});

describe('verifyWebhook', () => {
  const signed = () => deliveryHeaders({}, secret, timestamp, body, event);

  it('accepts a delivery signed by the service (string, Buffer, Uint8Array body; record or Headers)', () => {
    const headers = signed();
    expect(verifyWebhook({ rawBody: body, headers, secret })).toEqual({ ok: true, timestamp });
    expect(verifyWebhook({ rawBody: Buffer.from(body, 'utf8'), headers, secret })).toEqual({ ok: true, timestamp });
    expect(verifyWebhook({ rawBody: new TextEncoder().encode(body), headers, secret })).toEqual({ ok: true, timestamp });
    expect(verifyWebhook({ rawBody: body, headers: new Headers(headers), secret })).toEqual({ ok: true, timestamp });
  });

  it('looks headers up case-insensitively (Node lowercases them; arrays take the first value)', () => {
    const node = {
      'x-webhook-timestamp': String(timestamp),
      'x-webhook-signature': [signatureOf(secret, timestamp, body)],
      'content-type': 'application/json',
    };
    expect(verifyWebhook({ rawBody: body, headers: node, secret })).toEqual({ ok: true, timestamp });
    const shouting = { 'X-WEBHOOK-TIMESTAMP': String(timestamp), 'X-WEBHOOK-SIGNATURE': signatureOf(secret, timestamp, body) };
    expect(verifyWebhook({ rawBody: body, headers: shouting, secret }).ok).toBe(true);
  });

  it('rejects a body tampered by one byte', () => {
    const bytes = Buffer.from(body, 'utf8');
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0x01;
    expect(verifyWebhook({ rawBody: bytes, headers: signed(), secret })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook({ rawBody: `${body} `, headers: signed(), secret })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects the wrong secret, a changed timestamp and a malformed signature', () => {
    expect(verifyWebhook({ rawBody: body, headers: signed(), secret: randomBytes(32).toString('hex') })).toEqual({ ok: false, reason: 'bad_signature' });
    const moved = { ...signed(), 'X-Webhook-Timestamp': String(timestamp + 1) };
    expect(verifyWebhook({ rawBody: body, headers: moved, secret })).toEqual({ ok: false, reason: 'bad_signature' });
    const upper = { ...signed(), 'X-Webhook-Signature': signed()['X-Webhook-Signature']!.toUpperCase() };
    expect(verifyWebhook({ rawBody: body, headers: upper, secret })).toEqual({ ok: false, reason: 'bad_signature' });
    const short = { ...signed(), 'X-Webhook-Signature': 'sha256=00' };
    expect(verifyWebhook({ rawBody: body, headers: short, secret })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('reports missing headers and a malformed timestamp', () => {
    const { 'X-Webhook-Signature': signature, 'X-Webhook-Timestamp': ts } = signed();
    expect(verifyWebhook({ rawBody: body, headers: { 'X-Webhook-Timestamp': ts }, secret })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyWebhook({ rawBody: body, headers: { 'X-Webhook-Signature': signature }, secret })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyWebhook({ rawBody: body, headers: {}, secret })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyWebhook({ rawBody: body, headers: new Headers(), secret })).toEqual({ ok: false, reason: 'missing_headers' });
    for (const bad of ['-1', '1.5', 'abc', '1e9', ' 1700000000x']) {
      expect(verifyWebhook({ rawBody: body, headers: { 'X-Webhook-Timestamp': bad, 'X-Webhook-Signature': signature }, secret })).toEqual({
        ok: false,
        reason: 'bad_timestamp',
      });
    }
  });

  it('enforces an optional tolerance window, inclusive at the limit, in both directions', () => {
    const headers = signed();
    const check = (now: Date) => verifyWebhook({ rawBody: body, headers, secret, toleranceSeconds: 300, now });
    expect(check(at(timestamp + 300))).toEqual({ ok: true, timestamp });
    expect(check(at(timestamp - 300))).toEqual({ ok: true, timestamp });
    expect(check(at(timestamp + 301))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(check(at(timestamp - 301))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    // Without a window, any age verifies (the service enforces none).
    expect(verifyWebhook({ rawBody: body, headers, secret, now: at(timestamp + 86_400 * 365) })).toEqual({ ok: true, timestamp });
  });
});
