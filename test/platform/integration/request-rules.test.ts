/**
 * The request rules through the local gateway, on routes where breaking them would cost money or write data:
 * the body rule (a body is a JSON object), the media type rule (415) and the text rule.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { getIdempotencyRecord } from '../../../shared/platform/db/idempotency.ts';
import { listRefunds } from '../../../shared/payments/refunds.repository.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { checkContract, checkDeclaredRefusal } from '../../support/contract.ts';
import { apiKeyHeader, cardToken, orgCall, orgPath, organizationAccount, payByCard } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** A completed card payment of `amount` USD through the organization API; returns its transaction id. */
async function paid(org: Org, amount: number): Promise<string> {
  const res = await payByCard(org, amount);
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

const refundsOf = (org: Org, transactionId: string) => `${orgPath(org.organizationId)}/transactions/${transactionId}/refunds`;

/** A POST whose body is sent as bytes, with exactly `headers` (fetch adds no Content-Type to bytes), contract-checked. */
async function postBytes(path: string, headers: Record<string, string>, body?: Buffer) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { method: 'POST', headers, ...(body ? { body } : {}) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  checkContract('POST', path, res.status, json, text, res.headers.get('content-type'), res.headers);
  checkDeclaredRefusal('POST', `/api${path}`, res.status, json);
  return { status: res.status, json };
}

describe('the body rule', () => {
  it('refuses a refund whose body is an array, a string, a number or null with 400 and refunds nothing; {} still refunds the rest', async () => {
    const org = await organizationAccount('Body rule shop');
    const transactionId = await paid(org, 40);
    for (const rawBody of ['[]', '[{"amount":1}]', '"everything"', '0', 'null']) {
      const res = await orgCall('POST', refundsOf(org, transactionId), { fullKey: org.fullKey, rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.json).toMatchObject({ errorCode: 'request.validation_failed', statusCode: 400, message: '(body): must be a JSON object' });
    }
    expect(await listRefunds(transactionId)).toHaveLength(0);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'completed' });

    const all = await orgCall('POST', refundsOf(org, transactionId), { fullKey: org.fullKey, rawBody: '{}' });
    expect(all.status, all.text).toBe(201);
    expect(all.json.data).toMatchObject({ amount: 40, status: 'refunded' });
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'refunded', refundedMinor: 4_000 });
  });
});

describe('the media type rule', () => {
  it('refuses a refund body without Content-Type with 415, like text/plain, and refunds nothing; no body and no Content-Type is 400 request.body_required', async () => {
    const org = await organizationAccount('Media type shop');
    const transactionId = await paid(org, 25);
    const path = refundsOf(org, transactionId);
    const auth = apiKeyHeader(org.fullKey);

    const untyped = await postBytes(path, auth, Buffer.from('{}'));
    expect(untyped.status).toBe(415);
    expect(untyped.json).toMatchObject({ errorCode: 'request.unsupported_media_type', statusCode: 415 });
    const text = await postBytes(path, { ...auth, 'content-type': 'text/plain' }, Buffer.from('{}'));
    expect(text.status).toBe(415);
    expect(text.json.errorCode).toBe('request.unsupported_media_type');
    const empty = await postBytes(path, auth);
    expect(empty.status).toBe(400);
    expect(empty.json.errorCode).toBe('request.body_required');

    expect(await listRefunds(transactionId)).toHaveLength(0);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'completed' });
  });
});

describe('the text rule', () => {
  it('refuses a refund reason with a control character or a lone surrogate with 400, without repeating it, and refunds nothing', async () => {
    const org = await organizationAccount('Text rule shop');
    const transactionId = await paid(org, 30);
    for (const [rawBody, message] of [
      ['{"reason":"Returned\\r\\nX-Injected: 1"}', 'reason: must not contain control characters other than tab and newline'],
      ['{"reason":"Returned\\u0000"}', 'reason: must not contain control characters other than tab and newline'],
      ['{"reason":"Returned \\ud83d"}', 'reason: must not contain an unpaired UTF-16 surrogate'],
    ] as const) {
      const res = await orgCall('POST', refundsOf(org, transactionId), { fullKey: org.fullKey, rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.json).toMatchObject({ errorCode: 'request.validation_failed', statusCode: 400, message, details: message });
      expect(res.text).not.toContain('Returned');
    }
    expect(await listRefunds(transactionId)).toHaveLength(0);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'completed' });

    const kept = await orgCall('POST', refundsOf(org, transactionId), { fullKey: org.fullKey, body: { reason: 'Returned\tby post 📦\nthanks' } });
    expect(kept.status, kept.text).toBe(201);
    expect(kept.json.data.reason).toBe('Returned\tby post 📦\nthanks');
  });
});

describe('idempotency keys', () => {
  /** `POST /api/transactions` with the key written into the JSON text as is (escapes included). */
  const payUnder = (org: Org, keyJson: string, token: string) =>
    orgCall('POST', '/transactions', {
      fullKey: org.fullKey,
      rawBody: `{"idempotencyKey":"${keyJson}","amount":12,"currency":"USD","token":"${token}","billingAddress":{"country":"US","region":"OR"}}`,
    });

  it('refuses keys with a lone surrogate, which UTF-8 would turn into one key (U+FFFD), and charges nothing under them', async () => {
    const org = await organizationAccount('Lone surrogate keys');
    const token = await cardToken(org);
    const base = `order-${randomUUID()}-`;
    for (const half of ['\\ud800', '\\udbff', '\\udc00']) {
      const res = await payUnder(org, `${base}${half}`, token);
      expect(res.status, half).toBe(400);
      expect(res.json).toMatchObject({ errorCode: 'request.validation_failed', message: 'idempotencyKey: must not contain an unpaired UTF-16 surrogate' });
    }
    expect(await getIdempotencyRecord(org.organizationId, 'transactions', `${base}\ufffd`)).toBeNull();
    const listed = await orgCall('GET', `${orgPath(org.organizationId)}/transactions`, { fullKey: org.fullKey });
    expect(listed.json.totalCount).toBe(0);
  });

  it('refuses Idempotency-Key headers outside printable ASCII, whatever their bytes (Latin-1 é, UTF-8 é), and refunds nothing under them', async () => {
    const org = await organizationAccount('Header keys');
    const transactionId = await paid(org, 10);
    // fetch sends each character of a header value as one byte: 0xE9, then 0xC3 0xA9.
    for (const key of ['refund-\u00e9', 'refund-\u00c3\u00a9']) {
      const res = await orgCall('POST', refundsOf(org, transactionId), { fullKey: org.fullKey, body: { amount: 1 }, headers: { 'idempotency-key': key } });
      expect(res.status).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_idempotency_key');
    }
    expect(await listRefunds(transactionId)).toHaveLength(0);
  });

  it('keeps keys distinct that differ only in the second half of a surrogate pair: two charges, each replayed under its own key', async () => {
    const org = await organizationAccount('Emoji keys');
    const base = `order-${randomUUID()}-`;
    const [grin, beam] = [await cardToken(org), await cardToken(org)];
    const first = await payUnder(org, `${base}\\ud83d\\ude00`, grin);
    const second = await payUnder(org, `${base}\\ud83d\\ude01`, beam);
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.json.data.id).not.toBe(first.json.data.id);
    expect(first.json.data.idempotencyKey).toBe(`${base}😀`);
    expect(second.json.data.idempotencyKey).toBe(`${base}😁`);
    const again = await payUnder(org, `${base}\\ud83d\\ude00`, grin);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
  });
});
