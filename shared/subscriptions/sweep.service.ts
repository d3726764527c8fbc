/**
 * The sweep of the renewal engine (its worker: ./worker.service.ts). Every minute the sweeper reads what the due index says is due
 * (one Query per shard, never a Scan), claims each subscription by moving its place on the index to the end of a
 * lease (a conditional update: of two sweeps one claims it), and queues its id on the renewal queue; it reads the
 * shards again while a round claimed something and its time lasts, so a run claims a million due at once in minutes
 * rather than 1,000 a shard a minute. The worker
 * runs every step due for it (`runDue`) and writes its next place on the index. A worker that dies leaves the
 * lease to run out, and the next sweep queues the subscription again; a duplicate message finds nothing due.
 */
import { sendMessages } from '../platform/aws/sqs-send.ts';
import { requiredEnv } from '../platform/config.ts';
import * as repo from './subscriptions.repository.ts';

/** How long a claim holds a subscription off the sweep: longer than the worker's timeout and queue retries. */
export const SWEEP_LEASE_SECONDS = 300;
/** Most entries one round of a sweep reads per shard (one Query page). */
const SWEEP_PAGE = 1_000;
/** How long a sweep starts new rounds (its function's timeout is 50 s): what is left waits for the next run. */
export const SWEEP_BUDGET_MS = 40_000;
/** Claims a sweep has in flight at once (as many as its client's sockets): a round of 32 full pages waits its turn. */
const CLAIMS_AT_ONCE = 50;

/** A renewal queue message: the subscription and its organization. */
export interface QueuedRenewal {
  subscriptionId: string;
  organizationId: string;
}

export interface SweepResult {
  due: number;
  queued: number;
}

/**
 * Claims every subscription due by `now` (real time) and queues it, in rounds: each reads a page of every shard and
 * claims what it found; the next round starts while the last one claimed something and `budgetMs` has not passed
 * (a claimed entry leaves the due range, so a round reads what the last left). `send` replaces the queue, `rounds`
 * the budget and the page (tests, benchmarks).
 */
export async function sweepDue(
  now: Date,
  send: (due: QueuedRenewal[]) => Promise<void> = queueRenewals,
  rounds: { budgetMs?: number; page?: number } = {},
): Promise<SweepResult> {
  const until = Date.now() + (rounds.budgetMs ?? SWEEP_BUDGET_MS);
  const leaseUntil = new Date(now.getTime() + SWEEP_LEASE_SECONDS * 1000).toISOString();
  const result: SweepResult = { due: 0, queued: 0 };
  do {
    const due = await repo.listDue(now.toISOString(), rounds.page ?? SWEEP_PAGE);
    const claimed = await claimEach(due, leaseUntil);
    if (claimed.length) await send(claimed.map((d) => ({ subscriptionId: d.id, organizationId: d.organizationId })));
    result.due += due.length;
    result.queued += claimed.length;
    if (!claimed.length) break;
  } while (Date.now() < until);
  return result;
}

/** The entries of `due` this sweep claimed, `CLAIMS_AT_ONCE` claims in flight at a time. */
async function claimEach<D extends { id: string; sk: string }>(due: readonly D[], leaseUntil: string): Promise<D[]> {
  const claimed: D[] = [];
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const d = due[next++]!;
      if (await repo.claimDue(d.id, d.sk, leaseUntil)) claimed.push(d);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CLAIMS_AT_ONCE, due.length) }, lane));
  return claimed;
}

/**
 * Queues `due` on the renewal queue (the sweep's default `send`). What could not be queued (a refused entry, a batch
 * whose request failed) is logged and stays claimed until its lease ends; the sweep after that queues it again.
 */
export async function queueRenewals(due: QueuedRenewal[]): Promise<void> {
  await sendMessages(
    requiredEnv('RENEWAL_QUEUE_URL'),
    due.map((d) => JSON.stringify(d)),
    'queue renewals',
  );
}
