import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IntervalUnit, PeriodAnchorInstruction } from '../../../shared/catalog/plans.rules.ts';
import {
  anchorFor,
  boundary,
  DUNNING_RETRY_DAYS,
  dunningSchedule,
  type PeriodAnchor,
  periodIndexAt,
  prorate,
  prorationOf,
  REMINDER_DAYS_AHEAD,
  reminderAt,
  secondsBetween,
  trialEnd,
} from '../../../shared/subscriptions/periods.rules.ts';
import { dueAction, dueInstants, type EngineState, nextDueAt } from '../../../shared/subscriptions/subscriptions.rules.ts';
import { periodFigures } from './period-figures.ts';

const DAY_MS = 86_400_000;
const every = (unit: IntervalUnit, length = 1, periodAnchorInstruction: PeriodAnchorInstruction | null = null) => ({ unit, length, periodAnchorInstruction });
const boundaries = (anchor: PeriodAnchor, ks: number[]) => ks.map((k) => boundary(anchor, k));
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

describe('month and year boundaries', () => {
  it('keeps a Jan 31 monthly series on the 31st, clamped to shorter months, without drifting', () => {
    const anchor = anchorFor('2026-01-31T10:00:00.000Z', every('month'));
    expect(anchor).toEqual({ at: '2026-01-31T10:00:00.000Z', unit: 'month', length: 1, dayOfMonth: 31 });
    expect(boundaries(anchor, [0, 1, 2, 3, 4])).toEqual([
      '2026-01-31T10:00:00.000Z',
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
    ]);
    expect(boundary(anchor, 25)).toBe('2028-02-29T10:00:00.000Z');
    expect(boundary(anchor, 26)).toBe('2028-03-31T10:00:00.000Z');
  });

  it('moves a yearly Feb 29 series to Feb 28 in common years and back to Feb 29 in leap years', () => {
    const anchor = anchorFor('2028-02-29T23:59:59.999Z', every('year'));
    expect(boundaries(anchor, [1, 2, 3, 4])).toEqual([
      '2029-02-28T23:59:59.999Z',
      '2030-02-28T23:59:59.999Z',
      '2031-02-28T23:59:59.999Z',
      '2032-02-29T23:59:59.999Z',
    ]);
    expect(boundary(anchor, 72)).toBe('2100-02-28T23:59:59.999Z'); // 2100 is not a leap year
  });

  it('steps a 3-month interval in calendar quarters from the anchor day', () => {
    const anchor = anchorFor('2026-11-30T00:00:00.000Z', every('month', 3));
    expect(boundaries(anchor, [1, 2, 3, 4])).toEqual([
      '2027-02-28T00:00:00.000Z',
      '2027-05-30T00:00:00.000Z',
      '2027-08-30T00:00:00.000Z',
      '2027-11-30T00:00:00.000Z',
    ]);
  });
});

describe('day and week boundaries', () => {
  it('steps weeks as exact 7-day spans in UTC, across a daylight-saving change elsewhere', () => {
    const anchor = anchorFor('2026-03-02T09:30:00.000Z', every('week', 2));
    expect(boundaries(anchor, [1, 2, 3])).toEqual(['2026-03-16T09:30:00.000Z', '2026-03-30T09:30:00.000Z', '2026-04-13T09:30:00.000Z']);
  });

  it('steps days as exact 86,400-second spans', () => {
    const anchor = anchorFor('2026-01-01T00:00:00.000Z', every('day'));
    expect(boundaries(anchor, [1, 59, 365])).toEqual(['2026-01-02T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(boundary(anchorFor('2026-01-01T00:00:00.000Z', every('day', 10)), 3)).toBe('2026-01-31T00:00:00.000Z');
  });
});

describe('anchor instructions', () => {
  const weekly = (day: number, time: string) => every('week', 1, { method: 'day-of-week', day, time });
  const monthly = (day: number, time: string, unit: IntervalUnit = 'month') => every(unit, 1, { method: 'day-of-month', day, time });

  it('anchors day-of-week on the first matching ISO weekday at the UTC time, on or after the start', () => {
    // 2026-01-28 is a Wednesday.
    expect(anchorFor('2026-01-28T12:00:00.000Z', weekly(1, '09:00')).at).toBe('2026-02-02T09:00:00.000Z');
    expect(anchorFor('2026-01-28T12:00:00.000Z', weekly(7, '00:00')).at).toBe('2026-02-01T00:00:00.000Z');
    expect(anchorFor('2026-01-28T08:00:00.000Z', weekly(3, '09:15')).at).toBe('2026-01-28T09:15:00.000Z');
    expect(anchorFor('2026-01-28T09:15:00.000Z', weekly(3, '09:15')).at).toBe('2026-01-28T09:15:00.000Z');
    expect(anchorFor('2026-01-28T09:15:00.001Z', weekly(3, '09:15')).at).toBe('2026-02-04T09:15:00.000Z');
    const anchor = anchorFor('2026-12-30T18:00:00.000Z', weekly(5, '17:45'));
    expect(anchor).toEqual({ at: '2027-01-01T17:45:00.000Z', unit: 'week', length: 1, dayOfMonth: 1 });
    expect(boundary(anchor, 1)).toBe('2027-01-08T17:45:00.000Z');
  });

  it('anchors day-of-month on the first matching day at the UTC time, keeping the day for later months', () => {
    expect(anchorFor('2026-01-15T12:00:00.000Z', monthly(31, '23:30'))).toEqual({
      at: '2026-01-31T23:30:00.000Z',
      unit: 'month',
      length: 1,
      dayOfMonth: 31,
    });
    const fromFebruary = anchorFor('2026-02-10T00:00:00.000Z', monthly(31, '23:30'));
    expect(fromFebruary).toEqual({ at: '2026-02-28T23:30:00.000Z', unit: 'month', length: 1, dayOfMonth: 31 });
    expect(boundaries(fromFebruary, [1, 2])).toEqual(['2026-03-31T23:30:00.000Z', '2026-04-30T23:30:00.000Z']);
    expect(anchorFor('2026-01-20T00:00:00.000Z', monthly(15, '06:00')).at).toBe('2026-02-15T06:00:00.000Z');
    expect(anchorFor('2026-01-15T06:00:00.000Z', monthly(15, '06:00')).at).toBe('2026-01-15T06:00:00.000Z');
    expect(anchorFor('2026-12-31T23:59:00.000Z', monthly(1, '00:00')).at).toBe('2027-01-01T00:00:00.000Z');
    const yearly = anchorFor('2026-03-10T00:00:00.000Z', monthly(1, '12:00', 'year'));
    expect(boundaries(yearly, [0, 1])).toEqual(['2026-04-01T12:00:00.000Z', '2027-04-01T12:00:00.000Z']);
  });

  it('takes the start itself without an instruction, and refuses a malformed instruction or instant', () => {
    expect(anchorFor('2026-05-20T07:08:09+02:00', every('month'))).toEqual({ at: '2026-05-20T05:08:09.000Z', unit: 'month', length: 1, dayOfMonth: 20 });
    expect(() => anchorFor('2026-01-01T00:00:00.000Z', monthly(32, '00:00'))).toThrow(RangeError);
    expect(() => anchorFor('2026-01-01T00:00:00.000Z', weekly(0, '00:00'))).toThrow(RangeError);
    expect(() => anchorFor('2026-01-01T00:00:00.000Z', weekly(1, '24:00'))).toThrow(RangeError);
    expect(() => anchorFor('2026-01-01T00:00:00', every('day'))).toThrow(RangeError); // no offset: local time, refused
    expect(() => anchorFor('2026-02-30T00:00:00Z', every('day'))).toThrow(RangeError);
    expect(() => anchorFor('2026-01-01T00:00:00Z', every('month', 0))).toThrow(RangeError);
  });
});

describe('period index of an instant', () => {
  it('counts a boundary in the period it starts and the millisecond before it in the previous one', () => {
    const anchor = anchorFor('2026-01-31T10:00:00.000Z', every('month'));
    expect(periodIndexAt(anchor, '2026-01-31T09:59:59.999Z')).toBe(-1);
    expect(periodIndexAt(anchor, '2026-01-31T10:00:00.000Z')).toBe(0);
    expect(periodIndexAt(anchor, '2026-02-28T09:59:59.999Z')).toBe(0);
    expect(periodIndexAt(anchor, '2026-02-28T10:00:00.000Z')).toBe(1);
    expect(periodIndexAt(anchor, '2026-03-31T09:59:59.999Z')).toBe(1);
    expect(periodIndexAt(anchor, '2026-03-31T10:00:00.000Z')).toBe(2);
    expect(periodIndexAt(anchor, '2026-04-30T10:00:00.000Z')).toBe(3);
  });

  it('finds periods far out without walking the series', () => {
    const daily = anchorFor('2026-01-01T06:00:00.000Z', every('day'));
    expect(boundary(daily, 1000)).toBe('2028-09-27T06:00:00.000Z');
    expect(periodIndexAt(daily, '2028-09-27T06:00:00.000Z')).toBe(1000);
    expect(periodIndexAt(daily, '2028-09-27T05:59:59.999Z')).toBe(999);
    const monthly = anchorFor('2026-01-31T10:00:00.000Z', every('month'));
    expect(periodIndexAt(monthly, boundary(monthly, 1000))).toBe(1000);
    expect(periodIndexAt(monthly, shift(boundary(monthly, 1000), -1))).toBe(999);
    const yearly = anchorFor('2028-02-29T00:00:00.000Z', every('year', 3));
    expect(periodIndexAt(yearly, boundary(yearly, 1000))).toBe(1000);
    expect(periodIndexAt(yearly, shift(boundary(yearly, 1000), -1))).toBe(999);
  });
});

describe('trial end', () => {
  it('adds exact days and weeks, and calendar months and years clamped to the month end', () => {
    expect(trialEnd('2026-03-01T15:00:00.000Z', { unit: 'day', length: 14 })).toBe('2026-03-15T15:00:00.000Z');
    expect(trialEnd('2026-03-01T15:00:00.000Z', { unit: 'week', length: 2 })).toBe('2026-03-15T15:00:00.000Z');
    expect(trialEnd('2026-01-31T10:00:00.000Z', { unit: 'month', length: 1 })).toBe('2026-02-28T10:00:00.000Z');
    expect(trialEnd('2026-01-31T10:00:00.000Z', { unit: 'month', length: 3 })).toBe('2026-04-30T10:00:00.000Z');
    expect(trialEnd('2028-02-29T10:00:00.000Z', { unit: 'year', length: 1 })).toBe('2029-02-28T10:00:00.000Z');
  });
});

describe('seconds and prorating', () => {
  it('floors the difference of two instants to whole seconds', () => {
    expect(secondsBetween('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).toBe(86_400);
    expect(secondsBetween('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.999Z')).toBe(1);
    expect(secondsBetween('2026-01-01T00:00:01.500Z', '2026-01-01T00:00:00.000Z')).toBe(-2);
  });

  it('rounds a prorated amount once, half to even', () => {
    expect(prorate(5, 1, 2)).toBe(2); // 2.5 → 2
    expect(prorate(7, 1, 2)).toBe(4); // 3.5 → 4
    expect(prorate(1, 1, 2)).toBe(0); // 0.5 → 0
    expect(prorate(3, 1, 2)).toBe(2); // 1.5 → 2
    expect(prorate(100, 1, 3)).toBe(33);
    expect(prorate(100, 2, 3)).toBe(67);
    expect(prorate(999, 0, 86_400)).toBe(0);
    expect(prorate(999, 86_400, 86_400)).toBe(999);
    expect(prorate(Number.MAX_SAFE_INTEGER, 94_607_999, 94_608_000)).toBe(9_007_199_159_535_519); // exact, no float loss
  });

  it('refuses amounts and seconds out of range', () => {
    expect(() => prorate(100, 2, 1)).toThrow(RangeError);
    expect(() => prorate(100, -1, 1)).toThrow(RangeError);
    expect(() => prorate(100, 0, 0)).toThrow(RangeError);
    expect(() => prorate(-1, 0, 1)).toThrow(RangeError);
    expect(() => prorate(1.5, 0, 1)).toThrow(RangeError);
  });
});

describe('proration of a change of items', () => {
  const april = { start: '2026-04-01T00:00:00.000Z', end: '2026-05-01T00:00:00.000Z' };

  it('credits the unused old price and charges the new price for the rest of the period on an upgrade', () => {
    expect(prorationOf({ ...april, at: '2026-04-16T00:00:00.000Z', oldPriceMinor: 1000, newPriceMinor: 3000 })).toEqual({
      creditMinor: 500,
      chargeMinor: 1500,
      netMinor: 1000,
      unusedSeconds: 15 * 86_400,
      periodSeconds: 30 * 86_400,
    });
  });

  it('nets a credit to carry on a downgrade', () => {
    const result = prorationOf({ ...april, at: '2026-04-21T00:00:00.000Z', oldPriceMinor: 3000, newPriceMinor: 1200 });
    expect(result).toMatchObject({ creditMinor: 1000, chargeMinor: 400, netMinor: -600 });
  });

  it('credits and charges the whole period at its start, nothing at its end, and refuses an instant outside it', () => {
    expect(prorationOf({ ...april, at: april.start, oldPriceMinor: 1000, newPriceMinor: 2500 })).toMatchObject({
      creditMinor: 1000,
      chargeMinor: 2500,
      netMinor: 1500,
    });
    expect(prorationOf({ ...april, at: april.end, oldPriceMinor: 1000, newPriceMinor: 2500 })).toMatchObject({ creditMinor: 0, chargeMinor: 0, netMinor: 0 });
    expect(() => prorationOf({ ...april, at: '2026-03-31T23:59:59.999Z', oldPriceMinor: 1, newPriceMinor: 2 })).toThrow(RangeError);
  });

  it('rounds the credit and the charge each once, half to even', () => {
    // One second of a two-second period: 5 → 2.5 → 2 and 7 → 3.5 → 4.
    const result = prorationOf({ start: '2026-01-01T00:00:00Z', end: '2026-01-01T00:00:02Z', at: '2026-01-01T00:00:01Z', oldPriceMinor: 5, newPriceMinor: 7 });
    expect(result).toEqual({ creditMinor: 2, chargeMinor: 4, netMinor: 2, unusedSeconds: 1, periodSeconds: 2 });
  });
});

describe('dunning', () => {
  it('retries on days 1, 3, 5 and 7 that fall before the cancellation, then cancels after the delinquency days', () => {
    expect(DUNNING_RETRY_DAYS).toEqual([1, 3, 5, 7]);
    expect(dunningSchedule('2026-03-01T12:00:00.000Z', 10)).toEqual({
      retries: ['2026-03-02T12:00:00.000Z', '2026-03-04T12:00:00.000Z', '2026-03-06T12:00:00.000Z', '2026-03-08T12:00:00.000Z'],
      cancelAt: '2026-03-11T12:00:00.000Z',
    });
    expect(dunningSchedule('2026-03-01T12:00:00.000Z', 7)).toEqual({
      retries: ['2026-03-02T12:00:00.000Z', '2026-03-04T12:00:00.000Z', '2026-03-06T12:00:00.000Z'],
      cancelAt: '2026-03-08T12:00:00.000Z',
    });
    expect(dunningSchedule('2026-03-01T12:00:00.000Z', 0)).toEqual({ retries: [], cancelAt: '2026-03-01T12:00:00.000Z' });
  });

  it('tells the customer of a decline first, in a run that mails; a run that cannot leaves it due and retries on time', () => {
    const declinedAt = '2026-03-01T12:00:00.000Z';
    const pastDue = (tellCustomer: boolean): EngineState => ({
      status: 'past-due',
      startAt: '2026-01-01T12:00:00.000Z',
      trialEndAt: null,
      isTrialOnly: false,
      cycle: { unit: 'month', length: 1 },
      anchor: null,
      periodIndex: 1,
      periodEnd: declinedAt,
      pastDue: { periodIndex: 2, periodNumber: 3, key: 'renewal:s:3', declinedAt, retries: 0, tellCustomer },
      delinquencyDays: 8,
      remindedFor: [],
      endAt: null,
      pause: null,
    });
    expect(dueInstants(pastDue(true))).toEqual({ 'tell-declined': declinedAt, retry: '2026-03-02T12:00:00.000Z' });
    expect(nextDueAt(pastDue(true))).toBe(declinedAt);
    expect(dueAction(pastDue(true), declinedAt)).toBe('tell-declined');
    // A run that comes after the retry fell due tells of the decline first (it fell due first).
    expect(dueAction(pastDue(true), '2026-03-02T12:00:00.000Z')).toBe('tell-declined');
    expect(dueAction(pastDue(false), '2026-03-02T12:00:00.000Z')).toBe('retry');
    // Told: nothing more until the retry.
    expect(dueAction(pastDue(false), declinedAt)).toBeNull();
    expect(nextDueAt(pastDue(false))).toBe('2026-03-02T12:00:00.000Z');
  });
});

describe('renewal reminders', () => {
  it('reminds seven days before the renewal of monthly and yearly cycles only', () => {
    expect(REMINDER_DAYS_AHEAD).toBe(7);
    expect(reminderAt('2026-03-31T10:00:00.000Z', 'month', 1)).toBe('2026-03-24T10:00:00.000Z');
    expect(reminderAt('2027-01-05T00:00:00.000Z', 'year', 1)).toBe('2026-12-29T00:00:00.000Z');
    expect(reminderAt('2026-03-31T10:00:00.000Z', 'week', 6)).toBeNull();
    expect(reminderAt('2026-03-31T10:00:00.000Z', 'day', 30)).toBeNull();
  });
});

describe('time zone independence', () => {
  it('gives the same results when the machine runs in New York', () => {
    // Each zone in a process of its own (./period-figures.ts): a process's zone is set at its start.
    const figuresIn = (zone: string) =>
      JSON.parse(
        execFileSync(process.execPath, [path.join(import.meta.dirname, 'period-figures.ts')], { env: { ...process.env, TZ: zone }, encoding: 'utf8' }),
      );
    const inUtc = figuresIn('UTC');
    const inNewYork = figuresIn('America/New_York');
    expect([inUtc.januaryOffsetMinutes, inNewYork.januaryOffsetMinutes]).toEqual([0, 300]); // the zone is really in effect
    expect({ ...inNewYork, januaryOffsetMinutes: 0 }).toEqual(inUtc);
    // And in whatever zone this machine runs.
    expect({ ...periodFigures(), januaryOffsetMinutes: 0 }).toEqual(inUtc);
    expect(inUtc.weekly).toEqual(['2026-03-08T04:30:00.000Z', '2026-03-15T04:30:00.000Z', '2026-03-22T04:30:00.000Z', '2026-03-29T04:30:00.000Z']);
    expect(inUtc.dayOfMonth).toEqual(['2026-11-01T02:00:00.000Z', '2026-12-01T02:00:00.000Z', '2027-04-01T02:00:00.000Z']);
    expect(inUtc.seconds).toBe(86_400);
  });
});

describe('properties', () => {
  const units = ['day', 'week', 'month', 'year'] as const;
  const instantMs = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2100, 0, 1) });
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const anchorArb: fc.Arbitrary<PeriodAnchor> = fc
    .record({
      start: instantMs,
      unit: fc.constantFrom(...units),
      length: fc.integer({ min: 1, max: 36 }),
      instruction: fc.option(fc.record({ day: fc.integer({ min: 1, max: 31 }), time })),
    })
    .map(({ start, unit, length, instruction }) => {
      const method = unit === 'month' || unit === 'year' ? ('day-of-month' as const) : ('day-of-week' as const);
      const periodAnchorInstruction = instruction
        ? { method, day: method === 'day-of-week' ? ((instruction.day - 1) % 7) + 1 : instruction.day, time: instruction.time }
        : null;
      return anchorFor(new Date(start).toISOString(), { unit, length: unit === 'year' ? Math.min(length, 3) : length, periodAnchorInstruction });
    });

  it('orders boundaries, finds each one in its own period, and clamps the day of month', () => {
    fc.assert(
      fc.property(anchorArb, fc.integer({ min: 0, max: 600 }), (anchor, k) => {
        const start = boundary(anchor, k);
        const next = boundary(anchor, k + 1);
        expect(Date.parse(start)).toBeLessThan(Date.parse(next));
        expect(periodIndexAt(anchor, start)).toBe(k);
        expect(periodIndexAt(anchor, shift(next, -1))).toBe(k);
        if (k === 0) expect(periodIndexAt(anchor, shift(start, -1))).toBe(-1);
        if (anchor.unit === 'month' || anchor.unit === 'year') {
          const at = new Date(anchor.at);
          const months = at.getUTCMonth() + k * anchor.length * (anchor.unit === 'year' ? 12 : 1);
          const year = at.getUTCFullYear() + Math.floor(months / 12);
          const month = months % 12;
          const b = new Date(start);
          expect([b.getUTCFullYear(), b.getUTCMonth()]).toEqual([year, month]);
          expect(b.getUTCDate()).toBe(Math.min(anchor.dayOfMonth, daysIn(year, month)));
          expect(Date.parse(start) % DAY_MS).toBe(Date.parse(anchor.at) % DAY_MS);
        } else {
          expect(Date.parse(next) - Date.parse(start)).toBe(anchor.length * (anchor.unit === 'week' ? 7 : 1) * DAY_MS);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('charges, over a period with several changes, the price of the time served at each price, within a minor unit per change', () => {
    const scenario = fc
      .record({
        startSeconds: fc.integer({ min: 0, max: 4_000_000_000 }),
        periodSeconds: fc.integer({ min: 1, max: 3 * 366 * 86_400 }),
        cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        prices: fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 7, maxLength: 7 }),
      })
      .map((s) => ({ ...s, offsets: s.cuts.map((c) => Math.floor(c * s.periodSeconds)).sort((a, b) => a - b) }));
    fc.assert(
      fc.property(scenario, ({ startSeconds, periodSeconds, offsets, prices }) => {
        const at = (offset: number) => new Date((startSeconds + offset) * 1000).toISOString();
        const [start, end] = [at(0), at(periodSeconds)];
        // Arrange: the full price of the first items is charged at the start; each change then nets a proration.
        let billed = BigInt(prices[0]!);
        offsets.forEach((offset, i) => {
          billed += BigInt(prorationOf({ start, end, at: at(offset), oldPriceMinor: prices[i]!, newPriceMinor: prices[i + 1]! }).netMinor);
        });
        // The exact price of the time served at each price, times the period (an integer).
        const edges = [0, ...offsets, periodSeconds];
        let servedTimesPeriod = 0n;
        for (let i = 0; i < edges.length - 1; i++) servedTimesPeriod += BigInt(prices[i]!) * BigInt(edges[i + 1]! - edges[i]!);
        const error = billed * BigInt(periodSeconds) - servedTimesPeriod;
        expect(error < 0n ? -error : error).toBeLessThanOrEqual(BigInt(offsets.length) * BigInt(periodSeconds));
      }),
      { numRuns: 500 },
    );
  });
});
