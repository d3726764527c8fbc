/**
 * A new subscription under an `Idempotency-Key`: the same request sent at once or again makes one subscription and
 * one first charge (a repeat answers the first answer, `Idempotent-Replayed: true`, a 402 as much as a 201); another
 * body is 422 `idempotency.key_reused`; a request refused before anything was written leaves the key free for the
 * corrected one; and a request that died after claiming its key is finished by a retry under the id it claimed.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import * as v from 'valibot';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { putIdempotencyClaim } from '../../../shared/platform/db/idempotency.ts';
import { idempotencyKey } from '../../../shared/platform/db/idempotency.entity.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { creationFingerprint } from '../../../shared/subscriptions/create-once.service.ts';
import { createSubscriptionRequest } from '../../../shared/subscriptions/subscriptions.schemas.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { testCards } from '../../support/cards.ts';
import { cardToken, organizationAccount, orgCall, orgPath, orgPlan, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const call = (org: Org, method: 'GET' | 'POST', rest: string, body?: unknown, headers?: Record<string, string>) =>
  orgCall(method, `${orgPath(org.organizationId)}${rest}`, { fullKey: org.fullKey, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });

/** An organization, a monthly plan, and a customer in Oregon with a card (`card`, by default one that pays). */
async function shop(card: string = testCards.succeeds) {
  const org = await organizationAccount('Keyed subscriptions');
  const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const customer = await call(org, 'POST', '/customers', { email: uniqueEmail('keyed'), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } });
  const instrument = await call(org, 'POST', `/customers/${customer.json.data.id}/payment-instruments`, { token: await cardToken(org, card) });
  expect(instrument.status, instrument.text).toBe(201);
  const body = { customerId: customer.json.data.id as string, paymentInstrumentId: instrument.json.data.id as string, items: [{ plan: plan.id as string }] };
  return { org, body };
}

/** A customer id no organization has: a request naming it is refused (404) before anything is written. */
const refusedCustomer = randomUUID();

/** The key `key` claimed for `requestHash`, as a request that named the subscription `id` and holds the key until `lockedUntil`. */
async function claimKey(org: Org, key: string, requestHash: string, id: string, lockedUntil: string) {
  const at = new Date().toISOString();
  const claim = { organizationId: org.organizationId, operation: 'subscription-creations', key, requestHash, state: 'processing' as const };
  await transactWrite([
    ['key', [putIdempotencyClaim({ ...claim, attemptId: randomUUID(), lockedUntil, resourceId: id, answer: null, createdAt: at, updatedAt: at })]],
  ]);
}

const create = (org: Org, body: unknown, key: string) => call(org, 'POST', '/subscriptions', body, { 'idempotency-key': key });
const subscriptionsOf = async (org: Org) => (await call(org, 'GET', '/subscriptions?limit=100')).json.data as Array<{ id: string; status: string }>;
const chargesOf = async (org: Org) => (await call(org, 'GET', '/transactions?limit=100')).json.data as Array<{ id: string; status: string }>;

describe('creating a subscription under an Idempotency-Key', () => {
  it('makes one subscription and one charge of the same request sent at once and again, and refuses the key with another body', async () => {
    const { org, body } = await shop();
    const key = randomUUID();
    const answers = await Promise.all([create(org, body, key), create(org, body, key), create(org, body, key)]);
    for (const a of answers) expect([201, 409], a.text).toContain(a.status);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.json.data.id));
    expect(ids.size).toBe(1);
    const again = await create(org, body, key);
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data.id).toBe([...ids][0]);
    expect((await subscriptionsOf(org)).map((s) => s.id)).toEqual([...ids]);
    expect((await chargesOf(org)).filter((c) => c.status === 'completed')).toHaveLength(1);
    const other = await create(org, { ...body, items: [{ ...body.items[0], quantity: 2 }] }, key);
    expect(other.status).toBe(422);
    expect(other.json.errorCode).toBe('idempotency.key_reused');
    // Without a key, each request is a subscription of its own.
    expect((await call(org, 'POST', '/subscriptions', body)).status).toBe(201);
    expect(await subscriptionsOf(org)).toHaveLength(2);
  });

  it('answers a declined first charge again as it was (402), leaving one incomplete subscription', async () => {
    const { org, body } = await shop(testCards.declinesAfterAttaching);
    const key = randomUUID();
    const first = await create(org, body, key);
    expect(first.status, first.text).toBe(402);
    const again = await create(org, body, key);
    expect(again.status).toBe(402);
    expect(again.json).toEqual(first.json);
    expect((await subscriptionsOf(org)).map((s) => s.status)).toEqual(['incomplete']);
    expect(await chargesOf(org)).toHaveLength(1);
  });

  it('leaves the key of a request refused before anything was written free for the corrected request', async () => {
    const { org, body } = await shop();
    const key = randomUUID();
    const refused = await create(org, { ...body, customerId: randomUUID() }, key);
    expect(refused.status).toBe(404);
    const corrected = await create(org, body, key);
    expect(corrected.status, corrected.text).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect(await subscriptionsOf(org)).toHaveLength(1);
  });

  it('answers the same refused request sent at once with its refusal every time, never a 5xx, and leaves the key free', async () => {
    const { org, body } = await shop();
    const key = randomUUID();
    // Each refused request deletes its claim; one that waited on it then claims the key and is refused in turn.
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(org, { ...body, customerId: refusedCustomer }, key)));
    for (const a of answers) expect([404, 409], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 404).length).toBeGreaterThanOrEqual(1);
    const corrected = await create(org, body, key);
    expect(corrected.status, corrected.text).toBe(201);
    expect(await subscriptionsOf(org)).toHaveLength(1);
  });

  it('makes the subscription of a request that waited on the key of a first request refused meanwhile, under a claim of its own', async () => {
    const { org, body } = await shop();
    const key = randomUUID();
    // A first request of the same body holds the key, as if in flight; while this one waits, it is refused (its claim deleted).
    const claimed = uuidv7();
    await claimKey(org, key, creationFingerprint(v.parse(createSubscriptionRequest, body)), claimed, new Date(Date.now() + 60_000).toISOString());
    const waiting = create(org, body, key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.send(new DeleteCommand({ TableName: tableName(), Key: idempotencyKey(org.organizationId, 'subscription-creations', key) }));
    const res = await waiting;
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.id).not.toBe(claimed);
    expect((await subscriptionsOf(org)).map((s) => s.id)).toEqual([res.json.data.id]);
    const again = await create(org, body, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data.id).toBe(res.json.data.id);
  });

  it('finishes the request of a key whose attempt died (its lock passed): the subscription it made, or one made under its id', async () => {
    const { org, body } = await shop();
    // A request that claimed its key and died before writing anything: a retry makes the subscription under that id.
    const fresh = { key: randomUUID(), id: uuidv7() };
    // One that died after making its subscription: a retry answers it, making nothing more.
    const made = await call(org, 'POST', '/subscriptions', body);
    expect(made.status, made.text).toBe(201);
    const died = { key: randomUUID(), id: made.json.data.id as string };
    const hash = creationFingerprint(v.parse(createSubscriptionRequest, body));
    for (const { key, id } of [fresh, died]) {
      await claimKey(org, key, hash, id, new Date(Date.now() - 60_000).toISOString());
      const retry = await create(org, body, key);
      expect(retry.status, retry.text).toBe(201);
      expect(retry.json.data.id).toBe(id);
    }
    expect((await subscriptionsOf(org)).map((s) => s.id).sort()).toEqual([fresh.id, died.id].sort());
    expect((await chargesOf(org)).filter((c) => c.status === 'completed')).toHaveLength(2);
  });
});
