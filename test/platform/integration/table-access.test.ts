/**
 * The local stack holds each function to its rights on the table as deployed (infra/local/table-access.ts): a call the
 * function's IAM role would not allow is refused with `AccessDeniedException` before it is sent. Checked here on this
 * process's document client, held the same way.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { asFunction, holdTableAccess, tableRightsOf } from '../../../infra/local/table-access.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => 'sent',
    (e: Error) => (e.name === 'AccessDeniedException' ? 'refused' : `failed: ${e.name}`),
  );

describe("each local function's rights on the table", () => {
  const pk = `TABLEACCESS#${randomUUID()}`;
  const key = { pk, sk: 'ITEM' };
  const keyItem = { pk: `APIKEY#${randomUUID()}`, sk: 'APIKEY' };
  beforeAll(async () => {
    holdTableAccess(
      db,
      new Map([
        ['test-reader', tableRightsOf({ table: 'read', auth: 'orgApiKey' })],
        ['test-key-reader', tableRightsOf({ table: 'read', auth: 'apiKey' })],
        ['test-none', tableRightsOf({ table: 'none' })],
        ['test-writer', tableRightsOf({ table: 'readWrite', auth: 'apiKey' })],
      ]),
    );
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 1 } }));
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...keyItem, n: 1 } }));
  });
  const get = () => db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const put = () => db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 2 } }));
  const touch = (k: { pk: string; sk: string }) =>
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: k,
        UpdateExpression: 'SET lastUsedAt = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );

  it('lets a function that reads the table read it, and refuses its writes before they are sent', async () => {
    expect(await refusal(asFunction('test-reader', get))).toBe('sent');
    expect(await refusal(asFunction('test-reader', put))).toBe('refused');
    expect(await refusal(asFunction('test-reader', () => touch(key)))).toBe('refused');
    const transaction = () => db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName(), Item: { ...key, n: 3 } } }] }));
    expect(await refusal(asFunction('test-reader', transaction))).toBe('refused');
    // Nothing was written.
    expect((await get()).Item?.n).toBe(1);
  });

  it('lets a function that reads the table and authenticates merchant keys update the key items, and no other', async () => {
    expect(await refusal(asFunction('test-key-reader', () => touch(keyItem)))).toBe('sent');
    expect(await refusal(asFunction('test-key-reader', () => touch(key)))).toBe('refused');
    expect(await refusal(asFunction('test-reader', () => touch(keyItem)))).toBe('refused');
  });

  it('refuses every call of a function without table access, and checks nothing outside an invocation or of a function it was not given', async () => {
    expect(await refusal(asFunction('test-none', get))).toBe('refused');
    expect(await refusal(asFunction('test-writer', put))).toBe('sent');
    expect(await refusal(asFunction('test-unknown', put))).toBe('sent');
    expect(await refusal(put())).toBe('sent');
  });
});
