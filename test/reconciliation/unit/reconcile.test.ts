/**
 * The reconciler's bounds: it settles only what no request can still be settling, and the local stack runs the
 * schedules the deployed stages run.
 */
import { IDEMPOTENCY_LOCK_SECONDS } from '../../../shared/platform/db/idempotent-requests.ts';
import { describe, expect, it, vi } from 'vitest';
import { consumers, RECONCILE_SCHEDULE, RELEASE_FUNDS_SCHEDULE } from '../../../infra/consumers.ts';
import { rateMs, startSchedules } from '../../../infra/local/scheduler.ts';
import * as transactionKeys from '../../../shared/payments/transaction.entity.ts';
import { defaultRouteTimeoutSeconds, routesFor } from '../../../shared/routes/index.ts';
import { RECONCILE_AFTER_SECONDS } from '../../../shared/reconciliation/reconcile.service.ts';

describe('reconciler bounds', () => {
  it("waits longer than any route can run and than a key's lock, so it never settles under a live request", () => {
    const routes = [...routesFor('sandbox'), ...routesFor('live'), ...routesFor('live', 'tokenization')];
    const longest = Math.max(...routes.map((r) => r.timeoutSeconds ?? defaultRouteTimeoutSeconds));
    expect(longest).toBeGreaterThan(0);
    expect(RECONCILE_AFTER_SECONDS).toBeGreaterThan(longest);
    expect(RECONCILE_AFTER_SECONDS).toBeGreaterThan(IDEMPOTENCY_LOCK_SECONDS);
  });

  it('runs every few minutes, as a scheduled consumer', () => {
    expect(consumers.find((c) => c.name === 'payments-reconcile')).toMatchObject({ source: 'schedule', schedule: RECONCILE_SCHEDULE });
    expect(rateMs(RECONCILE_SCHEDULE)).toBe(5 * 60_000);
    expect(rateMs(RELEASE_FUNDS_SCHEDULE)).toBe(3_600_000);
    expect(rateMs('rate(2 days)')).toBe(2 * 86_400_000);
    expect(rateMs('cron(0 12 * * ? *)')).toBeNull();
  });

  it('spreads unsettled operations over every shard of the index, by the id alone', () => {
    const ids = Array.from({ length: 256 }, (_, n) => `0190a1b2-c3d4-7e5f-8a9b-00000000${n.toString(16).padStart(4, '0')}`);
    const shards = new Set(ids.map((id) => transactionKeys.unsettled('refund', id, '2030-01-01T00:00:00.000Z').gsi3pk));
    expect([...shards].sort()).toEqual(Array.from({ length: transactionKeys.UNSETTLED_SHARDS }, (_, n) => `UNSETTLED#${n}`));
    expect(transactionKeys.unsettled('charge', ids[0]!, '2030-01-01T00:00:00.000Z')).toEqual(
      transactionKeys.unsettled('charge', ids[0]!, '2030-01-01T00:00:00.000Z'),
    );
    expect(transactionKeys.unsettled('charge', ids[0]!, '2030-01-01T00:00:00.000Z').gsi3sk).toBe(`2030-01-01T00:00:00.000Z#charge#${ids[0]}`);
  });
});

describe('local schedules', () => {
  it('invoke each scheduled function on its rate with the scheduled event, never two runs of one at once', async () => {
    vi.useFakeTimers();
    try {
      const scheduled = consumers.filter((c) => c.source === 'schedule');
      const runs: Array<{ name: string; event: Record<string, unknown> }> = [];
      const named = (name: string) => runs.filter((r) => r.name === name);
      let finish: () => void = () => {};
      const schedules = startSchedules(
        scheduled,
        'eu-west-1',
        (def, event) => {
          runs.push({ name: def.name, event: event as Record<string, unknown> });
          // The first reconciler run hangs until released: the next period must not start another.
          return def.name === 'payments-reconcile' && named(def.name).length === 1
            ? new Promise<void>((resolve) => {
                finish = resolve;
              })
            : Promise.resolve();
        },
        () => {},
      );
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(named('payments-reconcile')).toHaveLength(1);
      expect(named('subscriptions-sweep')).toHaveLength(10);
      expect(named('payments-reconcile')[0]!.event).toMatchObject({
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        resources: [expect.stringContaining(':rule/payments-reconcile')],
      });
      finish();
      await vi.advanceTimersByTimeAsync(50 * 60_000);
      expect(named('payments-reconcile')).toHaveLength(1 + 10);
      expect(named('ledger-release-funds')).toHaveLength(1);
      expect(named('subscriptions-sweep')).toHaveLength(60);
      await schedules.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
