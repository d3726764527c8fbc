/**
 * A conditional write of one item survives the SDK sending it again: when the answer of a write that landed is lost (a
 * timeout, a reset connection), the SDK's retry finds the write's work done and a plain conditional put, update or
 * delete is refused (`ConditionalCheckFailedException`: a 500, or a 409 for a change that was made). `putNew`,
 * `sendIfCondition`, `updateIfCondition` and `updateOrRefused` mark each write with its own id, so the retry is refused
 * (never applied twice) and taken for the write, while a second writer — of the very same item too — still loses; a
 * delete sent again that finds nothing is answered as landed.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { addToCounter, db, putFresh, putNew, sendIfCondition, tableName, updateIfCondition } from '../../../shared/platform/db/client.ts';
import { getProduct, removeProduct } from '../../../shared/catalog/products.repository.ts';
import { createProduct } from '../../../shared/catalog/products.service.ts';
import { getCustomer } from '../../../shared/customers/customers.repository.ts';
import { createCustomer } from '../../../shared/customers/customers.service.ts';
import { getApiKey } from '../../../shared/people/api-keys.repository.ts';
import { createApiKey } from '../../../shared/people/api-keys.service.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { emitEvent, getEvent } from '../../../shared/platform/events/outbox.ts';
import { samplePayload } from '../../../shared/platform/events/catalog.ts';
import { putClientToken, useClientToken } from '../../../shared/customers/client-tokens.repository.ts';
import { loseFirstAnswerOf, stopLosingAnswers } from '../../support/lost-answers.ts';
import { orgProduct, organizationAccount } from '../../support/fixtures.ts';

afterEach(stopLosingAnswers);

const itemOf = (pk: string, extra: Record<string, unknown> = {}) => ({ pk, sk: 'PUTNEW', entity: 'test', n: 1, list: ['a', 'b'], ...extra });

describe('putNew', () => {
  it('writes a new item, and refuses another item under its key, the very same item too', async () => {
    const pk = `PUTNEW#${randomUUID()}`;
    expect(await putNew(itemOf(pk))).toBe(true);
    expect(await putNew(itemOf(pk))).toBe(false);
    expect(await putNew(itemOf(pk, { n: 2 }))).toBe(false);
    await expect(putFresh(itemOf(pk, { n: 3 }))).rejects.toThrow(/Another item holds the new key/);
  });

  it("takes the SDK's retry of a write that landed for the write, where a plain conditional put fails", async () => {
    const plain = `PUTNEW#${randomUUID()}`;
    const lost = loseFirstAnswerOf(plain);
    await expect(
      db.send(new PutCommand({ TableName: tableName(), Item: itemOf(plain), ConditionExpression: 'attribute_not_exists(pk)' })),
    ).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(lost.sent()).toBe(2);
    stopLosingAnswers();

    const pk = `PUTNEW#${randomUUID()}`;
    const again = loseFirstAnswerOf(pk);
    expect(await putNew(itemOf(pk))).toBe(true);
    expect(again.sent()).toBe(2);
    stopLosingAnswers();
    const other = `PUTNEW#${randomUUID()}`;
    loseFirstAnswerOf(other);
    await expect(putFresh(itemOf(other))).resolves.toBeUndefined();
  });
});

describe('sendIfCondition and updateIfCondition', () => {
  const read = async (pk: string) => (await db.send(new GetCommand({ TableName: tableName(), Key: { pk, sk: 'PUTNEW' }, ConsistentRead: true }))).Item;
  const revise = (pk: string, from: number) =>
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk, sk: 'PUTNEW' },
      UpdateExpression: 'SET n = :next',
      ConditionExpression: 'n = :read',
      ExpressionAttributeValues: { ':read': from, ':next': from + 1 },
    });

  it("takes the SDK's retry of a guarded update that landed for the update, where a plain one is refused", async () => {
    const plain = `PUTNEW#${randomUUID()}`;
    await putFresh(itemOf(plain));
    loseFirstAnswerOf(plain);
    await expect(db.send(revise(plain, 1))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    stopLosingAnswers();

    const pk = `PUTNEW#${randomUUID()}`;
    await putFresh(itemOf(pk));
    const lost = loseFirstAnswerOf(pk);
    expect(await sendIfCondition(revise(pk, 1))).toBe(true);
    expect(lost.sent()).toBe(2);
    expect((await read(pk))?.n).toBe(2);
    stopLosingAnswers();
    // Another writer that read the same revision still loses.
    expect(await sendIfCondition(revise(pk, 1))).toBe(false);
    expect(await sendIfCondition(revise(pk, 2))).toBe(true);
  });

  it('applies an update its retry would find still allowed only once (a counter under its limit)', async () => {
    const pk = `PUTNEW#${randomUUID()}`;
    const take = () =>
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk, sk: 'PUTNEW' },
        UpdateExpression: 'ADD attempts :one SET entity = :entity',
        ConditionExpression: 'attribute_not_exists(attempts) OR attempts < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': 5, ':entity': 'test' },
      });
    const lost = loseFirstAnswerOf(pk);
    expect(await sendIfCondition(take())).toBe(true);
    expect(lost.sent()).toBe(2);
    expect((await read(pk))?.attempts).toBe(1);
  });

  it("answers the item a landed update made when the SDK's retry is refused, and a replacing put alike", async () => {
    const pk = `PUTNEW#${randomUUID()}`;
    await putFresh(itemOf(pk));
    loseFirstAnswerOf(pk);
    const after = await updateIfCondition({ ...revise(pk, 1).input });
    expect(after).toMatchObject({ pk, n: 2 });
    stopLosingAnswers();
    expect(await updateIfCondition({ ...revise(pk, 1).input })).toBeNull();

    const lost = loseFirstAnswerOf(pk);
    const replace = (from: number) =>
      new PutCommand({
        TableName: tableName(),
        Item: itemOf(pk, { n: from + 1 }),
        ConditionExpression: 'n = :read',
        ExpressionAttributeValues: { ':read': from },
      });
    expect(await sendIfCondition(replace(2))).toBe(true);
    expect(lost.sent()).toBe(2);
    expect((await read(pk))?.n).toBe(3);
    expect(await sendIfCondition(replace(2))).toBe(false);
  });

  it('answers a delete the SDK sent again and found gone as landed, one sent once that found nothing as refused', async () => {
    const remove = (pk: string) => new DeleteCommand({ TableName: tableName(), Key: { pk, sk: 'PUTNEW' }, ConditionExpression: 'attribute_exists(pk)' });
    const plain = `PUTNEW#${randomUUID()}`;
    await putFresh(itemOf(plain));
    loseFirstAnswerOf(plain);
    await expect(db.send(remove(plain))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    stopLosingAnswers();

    const pk = `PUTNEW#${randomUUID()}`;
    await putFresh(itemOf(pk));
    const lost = loseFirstAnswerOf(pk);
    expect(await sendIfCondition(remove(pk))).toBe(true);
    expect(lost.sent()).toBe(2);
    expect(await read(pk)).toBeUndefined();
    stopLosingAnswers();
    expect(await sendIfCondition(remove(pk))).toBe(false);
  });

  it("answers a product's removal whose answer was lost as the deletion it was, not as a product not found", async () => {
    const org = await organizationAccount('Lost Answers Shop');
    const { id } = await orgProduct(org);
    loseFirstAnswerOf(`PRODUCT#${id}`);
    expect(await removeProduct(org.organizationId, id, new Date().toISOString())).toEqual({ removed: 'deleted' });
    stopLosingAnswers();
    expect(await removeProduct(org.organizationId, id, new Date().toISOString())).toEqual({ removed: 'not_found' });
  });

  it("takes a product's, a customer's, a merchant API key's and an operator's event's creation whose answer was lost for the creation, not a 500", async () => {
    const org = await organizationAccount('Lost Creations Shop');
    const merchant = (await getMerchant(org.organizationId))!;
    loseFirstAnswerOf('PRODUCT#');
    const product = await createProduct(org.organizationId, { name: 'Made once' });
    expect((await getProduct(org.organizationId, product.id))?.name).toBe('Made once');
    loseFirstAnswerOf(`CUSTOMERS#${org.organizationId}#`);
    const customer = await createCustomer(merchant, { email: 'made-once@example.com' });
    expect((await getCustomer(org.organizationId, customer.id))?.email).toBe('made-once@example.com');
    const lost = loseFirstAnswerOf('APIKEY#');
    const key = await createApiKey(org.organizationId, 'Made once', null);
    expect(lost.sent()).toBe(2);
    expect((await getApiKey(key.id))?.name).toBe('Made once');
    const event = loseFirstAnswerOf('EVENT#');
    const at = new Date().toISOString();
    const emitted = await emitEvent('payment.completed', merchant, samplePayload('payment.completed', merchant.id, at) as never, at);
    expect(event.sent()).toBe(2);
    expect((await getEvent(emitted.id))?.id).toBe(emitted.id);
  });

  it("spends a hosted-fields client token's last use once when the SDK sends the use again, and answers the token", async () => {
    const verifier = randomUUID();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 60_000).toISOString();
    await putClientToken({
      verifier,
      organizationId: 'org_lost',
      mode: 'test',
      allowedOrigin: null,
      createdAt: now.toISOString(),
      expiresAt,
      uses: 0,
      maxUses: 1,
    });
    const lost = loseFirstAnswerOf(`CLIENTTOKEN#${verifier}`);
    expect(await useClientToken(verifier, 'https://shop.example', 'test', now.toISOString())).toMatchObject({ verifier, uses: 1 });
    expect(lost.sent()).toBe(2);
    stopLosingAnswers();
    expect(await useClientToken(verifier, 'https://shop.example', 'test', now.toISOString())).toBe('used_up');
  });

  it('raises a counter once when the SDK sends the raise again, and answers the number it raised it to', async () => {
    const pk = `PUTNEW#${randomUUID()}`;
    const lost = loseFirstAnswerOf(pk);
    expect(await addToCounter({ pk, sk: 'PUTNEW' }, 5)).toBe(5);
    expect(lost.sent()).toBe(2);
    stopLosingAnswers();
    expect(await addToCounter({ pk, sk: 'PUTNEW' }, 5)).toBe(10);
  });
});
