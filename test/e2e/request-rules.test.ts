/**
 * The request rules through the local gateway, on routes where breaking them would cost money or write data:
 * the body rule (a body is a JSON object), the media type rule (415) and the text rule.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { listRefunds } from '../../shared/db/refunds.ts';
import { getTransaction } from '../../shared/db/transactions.ts';
import { checkContract } from '../support/contract.ts';
import { apiKeyHeader, orgCall, orgPath, organizationAccount } from './fixtures.ts';

const nextYear = new Date().getUTCFullYear() + 1;
type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** A completed card payment of `amount` USD through the organization API; returns its transaction id. */
async function paid(org: Org, amount: number): Promise<string> {
  const token = await orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/tokens`, {
    fullKey: org.fullKey, body: { primaryAccountNumber: '4242424242424242', cardVerificationValue: '123', expirationMonth: 12, expirationYear: nextYear },
  });
  expect(token.status, token.text).toBe(201);
  const res = await orgCall('POST', '/transactions', { fullKey: org.fullKey, body: { idempotencyKey: randomUUID(), amount, currency: 'USD', token: token.json.data.id } });
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
