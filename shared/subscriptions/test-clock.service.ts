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
import { getMerchant } from '../people/index.ts';
import { runDue } from './renewals.service.ts';
import { changed, commit } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import { getTestClock, saveTestClock } from './test-clock.repository.ts';
import { type TestClock, TestClockEntity } from './test-clock.entity.ts';
import type { Subscription } from './subscription.entity.ts';

/** The longest one advance may move the clock: two years. */
export const MAX_ADVANCE_MS = 2 * 366 * 86_400_000;
/** How long an advance holds the clock before another may take over (an advance that died without letting go). */
const ADVANCE_LEASE_MS = 60_000;

/** True while an advance holds the clock: its lease has not run out at `realNow`. */
export const isAdvancing = (c: TestClock, realNow: number) => Boolean(c.advancingTo && c.leaseUntil && Date.parse(c.leaseUntil) > realNow);

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

/** How long an advance's request runs steps before it hands the rest to the background (its function may run 28 s). */
const REQUEST_BUDGET_MS = 20_000;
/** How long one background run of an advance runs steps (its function may run 60 s; it takes a new lease first). */
const CONTINUATION_BUDGET_MS = 40_000;

/**
 * Moves the organization's clock to `to` (later than its now, at most two years ahead of it), running every step of
 * its subscriptions due by then in time order, each at the instant it fell due. The advance holds the clock by a
 * lease (`leaseUntil`), never a flag: it lets go when it ends, whatever happened, and an advance that died is taken
 * over once its lease runs out. A subscription whose steps could not all run (a charge still being made) is put on
 * the due index at once, so the sweep (or the next advance) finishes it on the new time. Steps that take longer than
 * the request may run (`budgetMs`) go on in the background (`continueAdvance`): the answer is the clock `advancing`,
 * and it is `ready` at `to` when they are done. 409 `test_clock.advancing` while another advance runs; 422
 * `test_clock.not_forward` / `test_clock.too_far`.
 */
export async function advanceTestClock(organization: Merchant, to: string, budgetMs = REQUEST_BUDGET_MS) {
  const realNow = Date.now();
  const clock = await getTestClock(organization.id);
  if (isAdvancing(clock, realNow)) throw advancing(clock);
  const from = realNow + clock.offsetMs;
  const target = Date.parse(to);
  if (target <= from) throw new UnprocessableError('test_clock.not_forward', `The clock only moves forward: it is ${new Date(from).toISOString()} now.`);
  if (target - from > MAX_ADVANCE_MS) throw new UnprocessableError('test_clock.too_far', 'One advance moves the clock at most two years.');
  const held: TestClock = {
    ...clock,
    advancingTo: new Date(target).toISOString(),
    leaseUntil: new Date(realNow + ADVANCE_LEASE_MS).toISOString(),
    continuing: false,
    version: clock.version + 1,
  };
  if (!(await saveTestClock(held))) throw advancing(held);
  return view(await runAdvance(organization, held, realNow + budgetMs, true), Date.now());
}

/**
 * A stream record's new image of a test clock, when it hands an advance to the background (`continuing`); else null
 * (every other write of a clock, and an item that is not one).
 */
export function handedOffClock(image: Record<string, unknown> | undefined): TestClock | null {
  if (image?.entity !== TestClockEntity.kind || image.continuing !== true) return null;
  return TestClockEntity.parse(image);
}

/**
 * Goes on with the advance a request handed to the background (`clock`, as the write that handed it off left it):
 * takes a new lease on it, then runs its steps as the request did, for `CONTINUATION_BUDGET_MS`, and hands it off again
 * when they are still not done. A clock written since (by another run of this, or another advance after the lease ran
 * out) is left alone.
 */
export async function continueAdvance(clock: TestClock): Promise<void> {
  const [current, organization] = await Promise.all([getTestClock(clock.organizationId), getMerchant(clock.organizationId)]);
  if (!organization || current.version !== clock.version || !current.continuing || !current.advancingTo) return;
  const realNow = Date.now();
  const held: TestClock = { ...current, leaseUntil: new Date(realNow + ADVANCE_LEASE_MS).toISOString(), continuing: false, version: current.version + 1 };
  if (!(await saveTestClock(held))) return;
  await runAdvance(organization, held, realNow + CONTINUATION_BUDGET_MS, false);
}

/**
 * Runs the steps of the advance `held` holds until `deadline` (real time, ms), then lets the clock go at its target
 * (`ready`), or — when steps were still due as the time ran out — hands the advance to the background with a new
 * lease. `first`: the request's run, which also moves every subscription with nothing due on the due index for the
 * new offset (a background run has only what is still due to do). Answers the clock as it left it.
 */
async function runAdvance(organization: Merchant, held: TestClock, deadline: number, first: boolean): Promise<TestClock> {
  const toIso = held.advancingTo!;
  const target = Date.parse(toIso);
  // The offset the clock will have: the index places are written for it, so the sweeper finds them on time after.
  const offsetAfter = () => target - Date.now();
  let subscriptions: Subscription[];
  try {
    subscriptions = await repo.listAllOfOrganization(organization.id);
  } catch (e) {
    // Nothing ran: the clock stays where it was, ready for the next advance (a background run's stream record is retried).
    if (first) await saveTestClock({ ...held, advancingTo: null, leaseUntil: null, continuing: false, version: held.version + 1 });
    throw e;
  }
  const due = (s: Subscription) => Boolean(s.dueAt && s.dueAt <= toIso);
  const runs = subscriptions.filter((s) => first || due(s));
  // Each subscription's steps in time order; subscriptions do not affect one another, so each runs to `to` alone.
  const results = await Promise.allSettled(
    runs.map(async (s) => {
      // What is due runs (its index place written for the new offset); the rest only moves on the index.
      if (due(s)) {
        const after = await runDue(organization, s, toIso, offsetAfter(), { at: (dueAt) => dueAt, reindex: true, until: deadline });
        return Boolean(after.pending || (after.dueAt && after.dueAt <= toIso));
      }
      return Boolean(s.dueAt && !(await commit(organization, s, changed(s, {}, s.updatedAt), offsetAfter())));
    }),
  );
  // What could not finish (a charge still being made, a change in between, an error, the time running out).
  const left = runs.filter((s, n) => {
    const run = results[n]!;
    if (run.status === 'fulfilled') return run.value;
    logger.warn('a subscription did not finish its steps in a test clock advance', { subscriptionId: s.id, errorName: (run.reason as Error).name });
    return true;
  });
  if (left.length && Date.now() >= deadline) {
    // Out of time with steps still due: the background goes on from this write.
    const handedOff: TestClock = { ...held, leaseUntil: new Date(Date.now() + ADVANCE_LEASE_MS).toISOString(), continuing: true, version: held.version + 1 };
    if (!(await saveTestClock(handedOff))) throw advancing(await getTestClock(organization.id));
    return handedOff;
  }
  // The rest is queued at once: the sweep finishes it on the new time.
  await Promise.all(left.map((s) => repo.queueNow(s.id)));
  const done: TestClock = { organizationId: organization.id, offsetMs: target - Date.now(), advancingTo: null, leaseUntil: null, version: held.version + 1 };
  // Another advance took the clock over after this one's lease ran out: that one moves it.
  if (!(await saveTestClock(done))) throw advancing(await getTestClock(organization.id));
  return done;
}
