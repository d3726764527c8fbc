/**
 * The period figures the time-zone test compares (./subscription-periods.test.ts): computed in a process of its own
 * per zone, since a zone is the process's (`TZ` at its start), whatever pool runs the test. Run as a script it prints
 * them as JSON, with the zone's offset in January (to show the zone was in effect).
 */
import { anchorFor, boundary, dunningSchedule, periodIndexAt, reminderAt, secondsBetween, trialEnd } from '../../../shared/subscriptions/periods.rules.ts';

const at = (unit: 'week' | 'month', length: number, instruction: { method: 'day-of-week' | 'day-of-month'; day: number; time: string } | null = null) => ({
  unit,
  length,
  periodAnchorInstruction: instruction,
});

export function periodFigures() {
  const monthly = anchorFor('2026-01-31T10:00:00.000Z', at('month', 1));
  const weekly = anchorFor('2026-03-04T03:00:00.000Z', at('week', 1, { method: 'day-of-week', day: 7, time: '04:30' }));
  const dayOfMonth = anchorFor('2026-10-31T23:00:00.000Z', at('month', 1, { method: 'day-of-month', day: 1, time: '02:00' }));
  const boundaries = (anchor: typeof monthly, ks: number[]) => ks.map((k) => boundary(anchor, k));
  return {
    januaryOffsetMinutes: new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset(),
    monthly: boundaries(monthly, [1, 2, 3, 10]),
    weekly: [weekly.at, ...boundaries(weekly, [1, 2, 3])],
    dayOfMonth: [dayOfMonth.at, ...boundaries(dayOfMonth, [1, 5])],
    index: periodIndexAt(monthly, '2026-03-31T09:59:59.999Z'),
    trial: trialEnd('2026-11-01T01:30:00.000Z', { unit: 'month', length: 1 }),
    seconds: secondsBetween('2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z'),
    dunning: dunningSchedule('2026-11-01T05:00:00.000Z', 3),
    reminder: reminderAt('2026-03-14T05:00:00.000Z', 'month', 1),
  };
}

if (process.argv[1] === import.meta.filename) process.stdout.write(JSON.stringify(periodFigures()));
