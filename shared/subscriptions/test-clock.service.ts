/**
 * The sandbox test clock: each organization's own time for its subscriptions, which starts at real time and only
 * moves forward. `advanceTestClock` runs everything due up to the new time — renewals, retries, reminders, trial
 * ends, scheduled ends — in time order, with the engine the deployed sweeper runs (`runDue`, `now` a parameter), then
 * moves the clock. On the live deployment there is no clock: subscriptions run on real time.
 */
import { ConflictError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { config } from '../platform/config.ts';
import { commit, changed, runDue } from './renewals.service.ts';
import { sendMail } from '../platform/mail/mailer.ts';
import * as repo from './subscriptions.repository.ts';
import { getTestClock, saveTestClock, type TestClock } from './test-clock.repository.ts';

/** The longest one advance may move the clock: two years. */
export const MAX_ADVANCE_MS = 2 * 366 * 86_400_000;
/** How long an advance holds the clock before another may take over (an advance that died). */
const ADVANCE_LEASE_MS = 60_000;

export interface OrganizationClock {
  /** How far the organization's clock is ahead of real time (0 outside the sandbox). */
  offsetMs: number;
  /** The organization's time now (ISO). */
  now(): string;
}

const clockFrom = (offsetMs: number): OrganizationClock => ({ offsetMs, now: () => new Date(Date.now() + offsetMs).toISOString() });

/** The clock subscriptions of `organizationId` run on: its test clock on the sandbox, real time on live. */
export async function clockOf(organizationId: string): Promise<OrganizationClock> {
  if (config.stage !== 'sandbox') return clockFrom(0);
  return clockFrom((await getTestClock(organizationId)).offsetMs);
}

const view = (c: TestClock, realNow: number) => ({
  organizationId: c.organizationId,
  now: new Date(realNow + c.offsetMs).toISOString(),
  offsetSeconds: Math.floor(c.offsetMs / 1000),
  status: c.advancingTo && c.leaseUntil && Date.parse(c.leaseUntil) > realNow ? ('advancing' as const) : ('ready' as const),
  advancingTo: c.advancingTo,
});

export async function getTestClockView(organization: Merchant) {
  return view(await getTestClock(organization.id), Date.now());
}

/**
 * Moves the organization's clock to `to` (later than its now, at most two years ahead of it), running every step of
 * its subscriptions due by then in time order. 409 `test_clock.advancing` while another advance runs; 422
 * `test_clock.not_forward` / `test_clock.too_far`.
 */
export async function advanceTestClock(organization: Merchant, to: string) {
  const realNow = Date.now();
  const clock = await getTestClock(organization.id);
  if (clock.advancingTo && clock.leaseUntil && Date.parse(clock.leaseUntil) > realNow) {
    throw new ConflictError('test_clock.advancing', `The clock is already advancing to ${clock.advancingTo}; wait until GET /test-clock shows ready.`);
  }
  const from = realNow + clock.offsetMs;
  const target = Date.parse(to);
  if (target <= from) throw new UnprocessableError('test_clock.not_forward', `The clock only moves forward: it is ${new Date(from).toISOString()} now.`);
  if (target - from > MAX_ADVANCE_MS) throw new UnprocessableError('test_clock.too_far', 'One advance moves the clock at most two years.');
  const held: TestClock = { ...clock, advancingTo: to, leaseUntil: new Date(realNow + ADVANCE_LEASE_MS).toISOString(), version: clock.version + 1 };
  if (!(await saveTestClock(held))) throw new ConflictError('test_clock.advancing', 'Another advance of this clock started at the same time; try again.');

  const toIso = new Date(target).toISOString();
  // The offset the clock will have: the index places are written for it, so the sweeper finds them on time after.
  const offsetAfter = () => target - Date.now();
  const subscriptions = await repo.listAllOfOrganization(organization.id);
  // Each subscription's steps in time order; subscriptions do not affect one another, so each runs to `to` alone.
  await Promise.all(
    subscriptions.map(async (s) => {
      // What is due runs (its index place written for the new offset); the rest only moves on the index.
      if (s.dueAt && s.dueAt <= toIso) await runDue(organization, s, toIso, offsetAfter(), { at: (dueAt) => dueAt, mail: sendMail });
      else if (s.dueAt) await commit(organization, s, changed(s, {}, s.updatedAt), offsetAfter());
    }),
  );
  const done: TestClock = { organizationId: organization.id, offsetMs: target - Date.now(), advancingTo: null, leaseUntil: null, version: held.version + 1 };
  if (!(await saveTestClock(done))) throw new ConflictError('test_clock.advancing', 'Another advance took this clock over; read it again.');
  return view(done, Date.now());
}
