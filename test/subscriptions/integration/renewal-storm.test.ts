/**
 * The renewal storm's correctness, small (test/bench/renewal-storm.ts measures it at 20,000): 500 subscriptions of
 * one merchant due at the same instant, swept in one run of rounds and renewed by the worker's step, ten batches of ten at once. Every one
 * is renewed once, the invoice numbers are unique, the balance is its journals' sum, no item is written by more
 * than ten renewals (not the invoice counter: numbers come in blocks; not the balance: payments go to its shards), and
 * no partition by every renewal (the organization's listings, journals, events and customers are sharded).
 */
import { describe, expect, it } from 'vitest';
import { renewQueued } from '../../../shared/subscriptions/worker.service.ts';
import { stormCount, stormSeed } from '../../support/renewal-storm.ts';

const COUNT = 500;

describe('a renewal storm', () => {
  it('renews 500 subscriptions of one merchant due at once: each once, numbered uniquely, no hot item', async () => {
    const seed = await stormSeed(COUNT);
    const result = await stormCount(seed, {
      timeoutMs: 240_000,
      // Pages of 5 per shard (500 due over 32 shards, about 16 a shard): one sweep run claims them all, in rounds. Its
      // budget is the test's, so that a slow machine (the worker renews inline, between rounds) does not cut it short:
      // the count of runs says what the rounds do, not how fast they went.
      sweepPage: 5,
      sweepBudgetMs: 240_000,
      worker: async (due) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            while (next < due.length) {
              const batch = due.slice(next, next + 10);
              next += 10;
              await Promise.all(batch.map((d) => renewQueued(JSON.stringify(d))));
            }
          }),
        );
      },
    });
    expect(result.renewals).toBe(COUNT);
    expect(result.sweeps).toBe(1);
    expect(result.checks).toEqual({ notRenewedOnce: 0, duplicateInvoiceNumbers: 0, ledgerMatches: true });
    const hottest = result.writes.items[0]!;
    expect(hottest.writes, `${hottest.kind} ${hottest.key}`).toBeLessThanOrEqual(10);
    // No partition, of the table or an index, takes the renewals in turn: the most written takes about 0.8 write
    // units a renewal (a shard of the subscriptions' listings), where one organization's listing took 6 and its
    // customers' partition 2 (a million renewals in 15 minutes need under 0.9 on AWS).
    const hottestPartition = result.writes.partitions[0]!;
    expect(hottestPartition.unitsPerRenewal, hottestPartition.key).toBeLessThanOrEqual(1.2);
  }, 300_000);
});
