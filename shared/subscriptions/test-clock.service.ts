/**
 * The sandbox test clock: each organization's own time for its subscriptions, which starts at real time and only
 * moves forward. `advanceTestClock` runs everything due up to the new time — renewals, retries, reminders, trial
 * ends, scheduled ends — in time order, with the engine the deployed sweeper runs (`runDue`, `now` a parameter), then
 * moves the clock. On the live deployment there is no clock: subscriptions run on real time.
 */
import { ConflictError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { config } from '../platform/config.ts';
import { logger } from '../platform/observability.ts';
import { runDue } from './renewals.service.ts';
import { changed, commit } from './steps.service.ts';
import { sendMail } from '../platform/mail/mailer.ts';
import * as repo from './subscriptions.repository.ts';
import { getTestClock, saveTestClock } from './test-clock.repository.ts';
import type { TestClock } from './test-clock.entity.ts';
import type { Subscription } from './subscription.entity.ts';

/** The longest one advance may move the clock: two years. */
export const MAX_ADVANCE_MS = 2 * 366 * 86_400_000;
/** How long an advance holds the clock before another may take over (an advance that died without letting go). */
const ADVANCE_LEASE_MS = 60_000;

/** True while an advance holds the clock: its lease has not run out at `realNow`. */
const isAdvancing = (c: TestClock, realNow: number) => Boolean(c.advancingTo && c.leaseUntil && Date.parse(c.leaseUntil) > realNow);

const advancing = (c: TestClock) =>
  new ConflictError('test_clock.advancing', `The test clock is advancing to ${c.advancingTo}; wait until GET /test-clock shows ready, then retry.`, {
    advancingTo: c.advancingTo,
  });

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

/**
 * The clock a change of the organization's subscriptions runs on (see `clockOf`): while an advance of its test
 * clock runs, a change is refused with 409 `test_clock.advancing` (it would be decided at a time the advance is
 * moving past); retry once the clock is ready.
 */
export async function changeClockOf(organizationId: string): Promise<OrganizationClock> {
  if (config.stage !== 'sandbox') return clockFrom(0);
  const clock = await getTestClock(organizationId);
  if (isAdvancing(clock, Date.now())) throw advancing(clock);
  return clockFrom(clock.offsetMs);
}

const view = (c: TestClock, realNow: number) => ({
  organizationId: c.organizationId,
  now: new Date(realNow + c.offsetMs).toISOString(),
  offsetSeconds: Math.floor(c.offsetMs / 1000),
  status: isAdvancing(c, realNow) ? ('advancing' as const) : ('ready' as const),
  advancingTo: c.advancingTo,
});

export async function getTestClockView(organization: Merchant) {
  return view(await getTestClock(organization.id), Date.now());
}

/**
 * Moves the organization's clock to `to` (later than its now, at most two years ahead of it), running every step of
 * its subscriptions due by then in time order. The advance holds the clock by a lease (`leaseUntil`), never a flag:
 * it lets go when it ends, whatever happened, and an advance that died is taken over once its lease runs out.
 * A subscription whose steps could not all run (a charge still being made) is put on the due index at once, so the
 * sweep (or the next advance) finishes it on the new time. 409 `test_clock.advancing` while another advance runs;
 * 422 `test_clock.not_forward` / `test_clock.too_far`.
 */
export async function advanceTestClock(organization: Merchant, to: string) {
  const realNow = Date.now();
  const clock = await getTestClock(organization.id);
  if (isAdvancing(clock, realNow)) throw advancing(clock);
  const from = realNow + clock.offsetMs;
  const target = Date.parse(to);
  if (target <= from) throw new UnprocessableError('test_clock.not_forward', `The clock only moves forward: it is ${new Date(from).toISOString()} now.`);
  if (target - from > MAX_ADVANCE_MS) throw new UnprocessableError('test_clock.too_far', 'One advance moves the clock at most two years.');
  const toIso = new Date(target).toISOString();
  const held: TestClock = { ...clock, advancingTo: toIso, leaseUntil: new Date(realNow + ADVANCE_LEASE_MS).toISOString(), version: clock.version + 1 };
  if (!(await saveTestClock(held))) throw advancing(held);

  // The offset the clock will have: the index places are written for it, so the sweeper finds them on time after.
  const offsetAfter = () => target - Date.now();
  let subscriptions: Subscription[];
  try {
    subscriptions = await repo.listAllOfOrganization(organization.id);
  } catch (e) {
    // Nothing ran: the clock stays where it was, ready for the next advance.
    await saveTestClock({ ...held, advancingTo: null, leaseUntil: null, version: held.version + 1 });
    throw e;
  }
  // Each subscription's steps in time order; subscriptions do not affect one another, so each runs to `to` alone.
  const runs = await Promise.allSettled(
    subscriptions.map(async (s) => {
      // What is due runs (its index place written for the new offset); the rest only moves on the index.
      if (s.dueAt && s.dueAt <= toIso) {
        const after = await runDue(organization, s, toIso, offsetAfter(), { at: (dueAt) => dueAt, mail: sendMail, reindex: true });
        return Boolean(after.pending || (after.dueAt && after.dueAt <= toIso));
      }
      return Boolean(s.dueAt && !(await commit(organization, s, changed(s, {}, s.updatedAt), offsetAfter())));
    }),
  );
  // What could not finish (a charge still being made, a change in between, an error) is queued at once.
  const left = subscriptions.filter((s, n) => {
    const run = runs[n]!;
    if (run.status === 'fulfilled') return run.value;
    logger.warn('a subscription did not finish its steps in a test clock advance; the sweep finishes it', {
      subscriptionId: s.id,
      errorName: (run.reason as Error).name,
    });
    return true;
  });
  await Promise.all(left.map((s) => repo.queueNow(s.id)));
  const done: TestClock = { organizationId: organization.id, offsetMs: target - Date.now(), advancingTo: null, leaseUntil: null, version: held.version + 1 };
  // Another advance took the clock over after this one's lease ran out: that one moves it.
  if (!(await saveTestClock(done))) throw advancing(await getTestClock(organization.id));
  return view(done, Date.now());
}
