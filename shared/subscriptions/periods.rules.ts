/**
 * Subscription periods and proration. Pure rules only (no I/O): where a subscription's billing periods start and
 * end, which period an instant falls in, when a trial ends, what part of a price a part of a period costs, when a
 * declined renewal is retried and the subscription canceled, and when a renewal reminder goes out.
 *
 * - Every instant is an ISO 8601 string with an explicit offset (`Z` or `±HH:MM`), and every computation is done
 *   in UTC with date-fns on UTC dates (`UTCDateMini`: a `Date` whose getters and setters are the UTC ones): the machine's time
 *   zone never changes a result. Results are `toISOString()` strings (UTC, milliseconds).
 * - A period is half-open, `[boundary(k), boundary(k + 1))`: the instant of a boundary belongs to the period it starts.
 * - Days and weeks are exact (86,400 and 604,800 seconds). Months and years are calendar months counted from the
 *   anchor, on the anchor's day of month (the month's last day when it is shorter), at the anchor's UTC time of day.
 * - Money is integer minor units; a prorated amount is rounded once, half to even (`divideHalfEven`).
 */
// The mini date: UTC getters and setters without the string formatting, whose Intl formatters the full
// `UTCDate` builds at import (about 5 ms of every cold start of a function that takes it).
import type { UTCDate } from '@date-fns/utc';
import { UTCDateMini } from '@date-fns/utc/date/mini';
// One module per function: the package's index loads all of its 250 functions (and Node reads its 140 KB
// package.json once for each of them), where a function needs these few.
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { addYears } from 'date-fns/addYears';
import { compareAsc } from 'date-fns/compareAsc';
import { differenceInCalendarMonths } from 'date-fns/differenceInCalendarMonths';
import { differenceInMilliseconds } from 'date-fns/differenceInMilliseconds';
import { differenceInSeconds } from 'date-fns/differenceInSeconds';
import { getDate } from 'date-fns/getDate';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { getISODay } from 'date-fns/getISODay';
import { isAfter } from 'date-fns/isAfter';
import { isBefore } from 'date-fns/isBefore';
import { isValid } from 'date-fns/isValid';
import { set } from 'date-fns/set';
import { setDate } from 'date-fns/setDate';
import { startOfDay } from 'date-fns/startOfDay';
import { startOfMonth } from 'date-fns/startOfMonth';
import { subDays } from 'date-fns/subDays';
import { millisecondsInDay, millisecondsInWeek } from 'date-fns/constants';
import type { IntervalUnit, PeriodAnchorInstruction } from '../catalog/plan-vocabulary.schemas.ts';
import { divideHalfEven } from '../domain/money.ts';

/** An instant with a date, a time and an explicit offset: `2026-01-31T10:00:00.000Z`, `2026-01-31T05:00-05:00`. */
const INSTANT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Where a subscription's periods are counted from. `at`: ISO instant of boundary 0 of the anchored series;
 * `dayOfMonth`: for month/year units the anchor day 1–31 (clamped to each month's last day; never drifts:
 * Jan 31 → Feb 28/29 → Mar 31 → Apr 30 → May 31); ignored for day/week.
 */
export interface PeriodAnchor {
  at: string;
  unit: IntervalUnit;
  length: number;
  dayOfMonth: number;
}

/**
 * The anchor for a series starting at `start` (ISO): without an instruction, `start` itself (dayOfMonth = start's
 * UTC day). With one: the first instant ≥ start matching the instruction (day-of-month clamped, or ISO weekday
 * 1=Mon..7=Sun, at `time` UTC).
 *
 * A `day-of-month` instruction keeps its day as the anchor's `dayOfMonth` even when the first month is shorter:
 * day 31 from a start in February anchors on Feb 28 (or 29) and the following boundaries fall on the 31st again
 * where the month has one. A `day-of-week` anchor's `dayOfMonth` is simply the UTC day of its first instant.
 */
export function anchorFor(
  start: string,
  interval: { unit: IntervalUnit; length: number; periodAnchorInstruction: PeriodAnchorInstruction | null },
): PeriodAnchor {
  const startAt = utcInstant(start, 'start');
  const { unit, length, periodAnchorInstruction: instruction } = interval;
  assertUnit(unit);
  assertPositiveInteger(length, 'length');
  if (!instruction) return { at: iso(startAt), unit, length, dayOfMonth: getDate(startAt) };

  const time = timeOfDay(instruction.time);
  const day = instruction.day;

  if (instruction.method === 'day-of-month') {
    assertIntegerIn(day, 1, 31, 'periodAnchorInstruction.day');
    const startMonth = startOfMonth(startAt);
    let at = set(onDayOfMonth(startMonth, day), time);
    if (isBefore(at, startAt)) at = set(onDayOfMonth(addMonths(startMonth, 1), day), time);
    return { at: iso(at), unit, length, dayOfMonth: day };
  }
  if (instruction.method === 'day-of-week') {
    assertIntegerIn(day, 1, 7, 'periodAnchorInstruction.day');
    let at = set(addDays(startOfDay(startAt), (day - getISODay(startAt) + 7) % 7), time);
    if (isBefore(at, startAt)) at = addWeeks(at, 1);
    return { at: iso(at), unit, length, dayOfMonth: getDate(at) };
  }
  throw new RangeError(`unknown period anchor method ${String((instruction as { method: unknown }).method)}`);
}

/**
 * Boundary k (k ≥ 0) of the series, computed from the anchor alone (never from boundary k-1): for month/year, the
 * anchor's UTC month + k·length months (years ×12), day = min(dayOfMonth, days in that month), time of day = the
 * anchor's UTC time; for day/week, at + k·length days/weeks (exact 86,400 s days, UTC). ISO string with
 * milliseconds (`toISOString()`).
 *
 * Boundary k is the start of period k and the end of period k − 1. Because each boundary is computed from the anchor,
 * a short month never shifts the later ones: a series anchored on the 31st ends February on the 28th (29th) and
 * March on the 31st.
 */
export function boundary(anchor: PeriodAnchor, k: number): string {
  assertIntegerIn(k, 0, Number.MAX_SAFE_INTEGER, 'k');
  return iso(boundaryAt(anchor, k));
}

/**
 * Whether a short first period from `start` to the anchor's first boundary can be billed: it is prorated against the
 * full period that follows it, so it may be at most that long (a first renewal more than one cycle away is not a
 * short period).
 */
export function shortFirstPeriodFits(start: string, anchor: PeriodAnchor): boolean {
  const first = boundary(anchor, 0);
  return secondsBetween(start, first) <= secondsBetween(first, boundary(anchor, 1));
}

/**
 * The index k of the period containing instant `t` (largest k with boundary(k) ≤ t); -1 when t is before the
 * anchor. Efficient (estimate then adjust; no loop over all periods from 0 for long series).
 *
 * Day and week series divide the elapsed time by the period length. Month and year series count the calendar
 * months between the anchor and `t`; that estimate is at most one period too far (when `t` lies in a boundary's
 * month but before its day or time), and one step back corrects it.
 */
export function periodIndexAt(anchor: PeriodAnchor, t: string): number {
  const at = utcInstant(t, 't');
  const first = boundaryAt(anchor, 0);
  if (isBefore(at, first)) return -1;
  if (anchor.unit === 'day' || anchor.unit === 'week') {
    const stepMs = anchor.length * (anchor.unit === 'week' ? millisecondsInWeek : millisecondsInDay);
    return Math.floor(differenceInMilliseconds(at, first) / stepMs);
  }
  const monthsPerPeriod = anchor.length * (anchor.unit === 'year' ? 12 : 1);
  let k = Math.max(0, Math.floor(differenceInCalendarMonths(at, first) / monthsPerPeriod));
  while (k > 0 && isAfter(boundaryAt(anchor, k), at)) k -= 1;
  while (compareAsc(boundaryAt(anchor, k + 1), at) <= 0) k += 1; // an invalid (out of range) boundary compares as NaN: stop
  return k;
}

/**
 * The end of a trial that starts at `start`: start + trial length in its unit (month/year clamped to the month's end
 * like boundaries, from `start`'s day).
 *
 * Days and weeks are exact (a 14-day trial is 14 × 86,400 s); a one-month trial from Jan 31 ends on Feb 28 (29), at
 * the same UTC time of day as it started.
 */
export function trialEnd(start: string, trial: { unit: IntervalUnit; length: number }): string {
  const anchor = anchorFor(start, { unit: trial.unit, length: trial.length, periodAnchorInstruction: null });
  return iso(boundaryAt(anchor, 1));
}

/**
 * Seconds between two ISO instants (b − a), integer (instants are at millisecond precision; floor to seconds).
 *
 * The floor is toward the past, so a negative difference of 1.5 s is −2.
 */
export function secondsBetween(a: string, b: string): number {
  const later = utcInstant(b, 'b');
  return differenceInSeconds(later, utcInstant(a, 'a'), { roundingMethod: 'floor' });
}

/**
 * The part of `amountMinor` (integer minor units, ≥ 0) for `servedSeconds` of a period of `periodSeconds`:
 * amountMinor × served / period, rounded once with divideHalfEven. 0 ≤ served ≤ period, period > 0.
 *
 * The product is computed exactly (as big integers) before the one rounding, so no precision is lost however long
 * the period or large the amount; an exact half minor unit goes to the even neighbour (2.5 → 2, 3.5 → 4).
 */
export function prorate(amountMinor: number, servedSeconds: number, periodSeconds: number): number {
  assertIntegerIn(amountMinor, 0, Number.MAX_SAFE_INTEGER, 'amountMinor');
  assertIntegerIn(periodSeconds, 1, Number.MAX_SAFE_INTEGER, 'periodSeconds');
  assertIntegerIn(servedSeconds, 0, periodSeconds, 'servedSeconds');
  return Number(divideHalfEven(BigInt(amountMinor) * BigInt(servedSeconds), BigInt(periodSeconds)));
}

/**
 * A change of items in the middle of a period [start, end) at `at`: the credit for the unused part of the old price
 * and the charge for the rest of the period at the new price (each prorated to the second with `prorate`), and
 * `net` = charge − credit (may be negative: a credit to carry).
 *
 * The unused part is `at` → `end`, in whole seconds (`secondsBetween`), of a period of `start` → `end` seconds. An
 * upgrade nets a charge, a downgrade a credit; a change at `start` credits and charges the whole period, at `end`
 * nothing. `at` must lie within [start, end], and the period must last at least one second.
 */
export function prorationOf(input: { start: string; end: string; at: string; oldPriceMinor: number; newPriceMinor: number }): {
  creditMinor: number;
  chargeMinor: number;
  netMinor: number;
  unusedSeconds: number;
  periodSeconds: number;
} {
  const start = utcInstant(input.start, 'start');
  const end = utcInstant(input.end, 'end');
  const at = utcInstant(input.at, 'at');
  if (isBefore(at, start) || isAfter(at, end)) throw new RangeError('at must lie within the period [start, end]');
  const periodSeconds = secondsBetween(input.start, input.end);
  const unusedSeconds = secondsBetween(input.at, input.end);
  const creditMinor = prorate(input.oldPriceMinor, unusedSeconds, periodSeconds);
  const chargeMinor = prorate(input.newPriceMinor, unusedSeconds, periodSeconds);
  return { creditMinor, chargeMinor, netMinor: chargeMinor - creditMinor, unusedSeconds, periodSeconds };
}

/**
 * Dunning: the days after a declined renewal on which the payment is retried, each at the time of day of the decline.
 */
export const DUNNING_RETRY_DAYS: readonly number[] = Object.freeze([1, 3, 5, 7]);

/**
 * Dunning: the retry instants after a decline at `declinedAt`, within `delinquencyDays` days: days 1, 3, 5 and 7
 * after the decline (only those within the period); and when the subscription is canceled (declinedAt +
 * delinquencyDays days).
 *
 * Days are exact (86,400 s). The delinquency period is half-open like every period here, `[declinedAt, cancelAt)`:
 * a retry day that falls on the cancel instant or later is dropped, so with 7 delinquency days the retries are on
 * days 1, 3 and 5 and the subscription is canceled on day 7. With 0 days there is no retry and it is canceled at once.
 */
export function dunningSchedule(declinedAt: string, delinquencyDays: number): { retries: string[]; cancelAt: string } {
  const declined = utcInstant(declinedAt, 'declinedAt');
  assertIntegerIn(delinquencyDays, 0, Number.MAX_SAFE_INTEGER, 'delinquencyDays');
  const retries = DUNNING_RETRY_DAYS.filter((day) => day < delinquencyDays).map((day) => iso(addDays(declined, day)));
  return { retries, cancelAt: iso(addDays(declined, delinquencyDays)) };
}

/** Reminders: how many days (of 86,400 s) before a renewal its reminder is sent. */
export const REMINDER_DAYS_AHEAD = 7;

/**
 * Reminders: for cycles of a month or longer (month/year units), the instant `REMINDER_DAYS_AHEAD` (7) days before
 * a renewal at `renewalAt`; null for shorter cycles.
 *
 * The cycle is judged by its unit alone: a monthly or yearly plan gets a reminder, a daily or weekly one (of any
 * length) does not.
 */
export function reminderAt(renewalAt: string, unit: IntervalUnit, length: number): string | null {
  const renewal = utcInstant(renewalAt, 'renewalAt');
  assertUnit(unit);
  assertPositiveInteger(length, 'length');
  if (unit === 'day' || unit === 'week') return null;
  return iso(subDays(renewal, REMINDER_DAYS_AHEAD));
}

// --- helpers (UTC only: every date is a UTC date, so date-fns reads and sets its UTC fields, never local time) ---

function boundaryAt(anchor: PeriodAnchor, k: number): UTCDate {
  assertUnit(anchor.unit);
  assertPositiveInteger(anchor.length, 'anchor.length');
  const at = utcInstant(anchor.at, 'anchor.at');
  const steps = k * anchor.length;
  if (anchor.unit === 'day') return addDays(at, steps);
  if (anchor.unit === 'week') return addWeeks(at, steps);
  assertIntegerIn(anchor.dayOfMonth, 1, 31, 'anchor.dayOfMonth');
  // From the anchor in one step (never from the previous boundary), then on the series' day: the anchor's own day
  // may already be a clamped one (Feb 28 for the 31st), which addMonths alone would keep.
  return onDayOfMonth(anchor.unit === 'year' ? addYears(at, steps) : addMonths(at, steps), anchor.dayOfMonth);
}

/** `date` moved to `day` of its month, the month's last day when the month is shorter; the time of day is kept. */
function onDayOfMonth(date: UTCDate, day: number): UTCDate {
  return setDate(date, Math.min(day, getDaysInMonth(date)));
}

function timeOfDay(time: string): { hours: number; minutes: number } {
  const match = TIME_PATTERN.exec(time);
  if (!match) throw new RangeError(`periodAnchorInstruction.time must be a UTC time of day as HH:MM, got ${JSON.stringify(time)}`);
  return { hours: Number(match[1]), minutes: Number(match[2]) };
}

/** An instant as a UTC date; a date that does not exist (Feb 30, month 13) is refused, not rolled over. */
function utcInstant(value: string, name: string): UTCDate {
  const match = INSTANT_PATTERN.exec(value);
  if (match && isCalendarDate(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) {
    const date = new UTCDateMini(value);
    if (isValid(date)) return date;
  }
  throw new RangeError(`${name} must be an ISO 8601 instant with an offset, got ${JSON.stringify(value)}`);
}

/** Whether `day` exists in month `month` (0-based) of `year` (years 0–99 included, as written, never as 19xx). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 0 && month < 12 && day >= 1 && day <= getDaysInMonth(set(new UTCDateMini(0), { year, month }));
}

const iso = (date: Date): string => date.toISOString();

function assertUnit(unit: IntervalUnit): void {
  if (unit !== 'day' && unit !== 'week' && unit !== 'month' && unit !== 'year') throw new RangeError(`unknown interval unit ${String(unit)}`);
}

function assertPositiveInteger(value: number, name: string): void {
  assertIntegerIn(value, 1, Number.MAX_SAFE_INTEGER, name);
}

function assertIntegerIn(value: number, min: number, max: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
}
