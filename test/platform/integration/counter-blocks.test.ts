/**
 * Numbers taken in blocks (shared/platform/db/counter-blocks.ts) against the run's DynamoDB Local: unique under a
 * burst, few counter writes, blocks that grow with the pace and are dropped when old.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { BLOCK_LIFETIME_MS, MAX_BLOCK, nextFromBlock } from '../../../shared/platform/db/counter-blocks.ts';
import { requireLocalEndpoint } from '../../support/local-endpoint.ts';

requireLocalEndpoint();

const counterKey = () => ({ pk: `TEST#${randomUUID()}`, sk: 'COUNTER' });
const lastOf = async (key: { pk: string; sk: string }) =>
  Number((await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item?.last ?? 0);

describe('numbers from blocks', () => {
  it('a quiet counter is gap-free: one number, one block', async () => {
    const key = counterKey();
    let t = 0;
    const clock = () => t;
    const taken: number[] = [];
    for (let i = 0; i < 3; i++) {
      taken.push(await nextFromBlock(key, clock));
      t += BLOCK_LIFETIME_MS; // each block is old before the next number
    }
    expect(taken).toEqual([1, 2, 3]);
    expect(await lastOf(key)).toBe(3);
  });

  it('a burst gets unique numbers from a few growing blocks', async () => {
    const key = counterKey();
    const clock = () => 0; // all at once: every block is used up at once, so the next one is twice as large
    const taken = await Promise.all(Array.from({ length: 2_000 }, () => nextFromBlock(key, clock)));
    expect(new Set(taken).size).toBe(2_000);
    // Blocks 1, 2, 4, … 512, then 1,000: the counter is written 11 times for 2,000 numbers (23 of the last block are left).
    const last = await lastOf(key);
    expect(last).toBe(1 + 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256 + 512 + MAX_BLOCK);
    expect(Math.max(...taken)).toBeLessThanOrEqual(last);
    expect(Math.min(...taken)).toBe(1);
  });

  it('an old block is dropped; the next is as large as what it gave out', async () => {
    const key = counterKey();
    let t = 0;
    const clock = () => t;
    await Promise.all(Array.from({ length: 7 }, () => nextFromBlock(key, clock))); // blocks 1, 2, 4: 7 numbers
    expect(await nextFromBlock(key, clock)).toBe(8); // a block of 8 (the last was used up at once): 8…15
    expect(await nextFromBlock(key, clock)).toBe(9);
    t += BLOCK_LIFETIME_MS;
    // 10…15 are skipped; the new block holds 2 (what the dropped one gave out).
    expect(await nextFromBlock(key, clock)).toBe(16);
    expect(await nextFromBlock(key, clock)).toBe(17);
    expect(await lastOf(key)).toBe(17);
  });
});
