/**
 * Scheduled functions on the local stack, the way EventBridge rules invoke them when deployed: each scheduled
 * consumer of `infra/consumers.ts` runs on its `rate(…)`, with the scheduled event a rule sends (a run still going
 * when the next is due is not overlapped). `npm start` runs them; a test run does not (tests run the same work on
 * demand, as the operator commands do).
 */
import { randomUUID } from 'node:crypto';
import type { ScheduledConsumerDef } from '../consumers.ts';
import { localAccountId } from './settings.ts';

const units: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The period of a `rate(N unit)` expression in milliseconds; null for anything else (a cron expression). */
export function rateMs(expression: string): number | null {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  return m ? Number(m[1]) * units[m[2]!]! : null;
}

/** The EventBridge scheduled event a rule sends `def` for its run at `time` (`id`: the event's, new by default). */
export const scheduledEvent = (def: Pick<ScheduledConsumerDef, 'name'>, region: string, time: Date, id: string = randomUUID()) => ({
  version: '0',
  id,
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: localAccountId,
  time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region,
  resources: [`arn:aws:events:${region}:${localAccountId}:rule/${def.name}`],
  detail: {},
});

export interface Schedules {
  stop(): Promise<void>;
}

/** Runs each of `defs` every period of its rate through `invoke`, until stopped (which waits for runs under way). */
export function startSchedules(
  defs: readonly ScheduledConsumerDef[],
  region: string,
  invoke: (def: ScheduledConsumerDef, event: unknown) => Promise<unknown>,
  log: (message: string, error?: unknown) => void,
): Schedules {
  const running = new Set<Promise<void>>();
  const timers = defs.flatMap((def) => {
    const period = rateMs(def.schedule);
    if (period === null) {
      log(`[${def.name}] ${def.schedule} is not run locally (only rate(…) schedules are)`);
      return [];
    }
    let busy = false;
    return [
      setInterval(() => {
        if (busy) return;
        busy = true;
        const run = invoke(def, scheduledEvent(def, region, new Date()))
          .then(
            () => undefined,
            (e: unknown) => log(`[${def.name}] the scheduled run failed`, e),
          )
          .finally(() => {
            busy = false;
            running.delete(run);
          });
        running.add(run);
      }, period),
    ];
  });
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all(running);
    },
  };
}
