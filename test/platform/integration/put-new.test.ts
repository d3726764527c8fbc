/**
 * A new item's conditional write survives the SDK sending it again: when the answer of a `PutItem` that landed is
 * lost (a timeout, a reset connection), the SDK's retry finds the item there, and `putNew` takes it for its own when
 * it is exactly the item written — a plain conditional put throws `ConditionalCheckFailedException` (a 500 to the
 * caller) — while another item under the key is still refused. Two writers of the very same item both succeed, so
 * a claim two writers may make alike carries its own random id (a webhook delivery's) or keeps the plain refusal (the
 * test clock's lease).
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, putFresh, putNew, tableName } from '../../../shared/platform/db/client.ts';
import { loseFirstAnswerOf, stopLosingAnswers } from '../../support/lost-answers.ts';

afterEach(stopLosingAnswers);

const itemOf = (pk: string, extra: Record<string, unknown> = {}) => ({ pk, sk: 'PUTNEW', entity: 'test', n: 1, list: ['a', 'b'], ...extra });

describe('putNew', () => {
  it('writes a new item, and refuses another item under its key', async () => {
    const pk = `PUTNEW#${randomUUID()}`;
    expect(await putNew(itemOf(pk))).toBe(true);
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
