/**
 * Benchmark of the renewal engine against the charge it is built on. Starts its own local stack, then:
 *
 * 1. Seeds `--count` (2,000) subscriptions through the services, spread over `--organizations` (4) organizations:
 *    each organization a recurring product and a daily plan of 10 USD; each subscription its own customer with a
 *    card attached (the sandbox card that succeeds), created with its instrument, so its first period is charged
 *    at once and its renewal falls due a day later.
 * 2. Makes them due as the deployment would a day later: the sweep (`sweepDue`) with a real time one day and a
 *    minute ahead claims every one of them (its `send` collects the ids instead of queueing them), then the
 *    worker's step runs for each: what `renewQueued` does (the subscription's read, the organization's and its
 *    clock's), with `now` that same day and a minute ahead instead of the clock's now. A step that throws is run
 *    again after the pass, as the queue delivers its message again (deployed: after its visibility timeout), at most
 *    5 receives in all.
 * 3. Measures, in the same run, renewals per second (the worker's steps) and charges per second through the charge
 *    engine of `POST /transactions` (`createTransaction` with a `paymentInstrumentId`, the same customers' cards,
 *    `--charges`, default `--count`, each organization as read after the seed, as a request reads it), both driven alike: `--batches` (10) workers each running batches of
 *    `--batch-size` (10) concurrently, as the renewal queue's consumer handles a batch of 10 messages at once
 *    (`functions/subscriptions/renew.ts`) with 10 of them running. The two take turns in `--rounds` (4) rounds
 *    (which goes first alternates), so a change of the machine's load touches both alike; each one's rate is its
 *    count over its own time summed over the rounds. (All in flight share this process's one client and its 50
 *    sockets, where each Lambda container has its own: both kinds alike.)
 *    DynamoDB calls are counted per operation by a middleware on the shared document client, each call credited
 *    to the renewal or charge whose async context sent it (AsyncLocalStorage), so the calls of the in-process
 *    stream consumers and of concurrent operations are never mixed in. Per kind of call (command, and the
 *    partition key prefixes of the item or items it touches) the average per renewal and per charge is printed.
 * 4. Checks that nothing was charged twice: per subscription, its completed transactions (a Query of each
 *    organization's transactions: exactly two, the first period and one renewal), and per card, the sandbox
 *    processor's own charges (exactly what the platform recorded on it). Then a duplicate pass on `--duplicates`
 *    (100) of them: the sweep again at the same time (nothing to queue), the deployed worker step itself
 *    (`renewQueued`, on real time), a second worker holding the state it read before the renewal (a duplicate
 *    message handled while the first was running), and two workers at once on the state after; then the same
 *    counts again, and the transactions list filtered by `subscriptionId` for each of them.
 *
 * It also prints the cores DynamoDB Local kept busy in each phase (`dynamodbLocalCoresBusy`: its CPU time over the
 * phase's wall time): it runs writes one at a time, so both phases hold it near one core, and the ratio is then the
 * quotient of its CPU per charge and per renewal.
 *
 * Goals: renewals per second ≥ charges per second; a renewal's DynamoDB calls ≤ a charge's + 2; nothing charged
 * twice. Like the other benchmarks it prints the figures and the goals and exits 0 whatever they say (a thrown error
 * exits non-zero). Run: `npm run bench:renewals [-- --count 2000 --organizations 4 --batches 10 --batch-size 10]`.
 * The last line is one JSON line of the figures.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';
import { processCpuMs } from '../support/process-cpu.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    organizations: { type: 'string', default: '4' },
    charges: { type: 'string' },
    batches: { type: 'string', default: '10' },
    'batch-size': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    duplicates: { type: 'string', default: '100' },
  },
});
const count = Number(values.count);
const organizationCount = Number(values.organizations);
const chargeCount = Number(values.charges ?? values.count);
const batches = Number(values.batches);
const batchSize = Number(values['batch-size']);
const rounds = Number(values.rounds);
const duplicates = Math.min(Number(values.duplicates), count);
for (const [name, n] of Object.entries({ count, organizations: organizationCount, charges: chargeCount, batches, 'batch-size': batchSize, rounds })) {
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
}

const GOAL_RATIO = 1.0;
const GOAL_EXTRA_CALLS = 2;
/** Receives of a renewal message before its dead-letter queue (`infra/consumers.ts`). */
const MAX_RECEIVES = 5;
const DAY_MS = 86_400_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const loadAtStart = loadavg()[0]!;

const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  // Loaded after the stack has set this process's environment.
  const { db } = await import('../../shared/platform/db/client.ts');
  const { listAllOfCollection } = await import('../../shared/platform/db/listing.ts');
  const { createRootMerchant, getMerchant } = await import('../../shared/people/index.ts');
  const { tenDollarPlan } = await import('../support/seed.ts');
  const { createCustomer } = await import('../../shared/customers/customers.service.ts');
  const { sandboxCardToken } = await import('../support/cards.ts');
  const { attachPaymentInstrument } = await import('../../shared/customers/payment-instruments.service.ts');
  const { findPaymentInstrument } = await import('../../shared/customers/index.ts');
  const { createTransaction, listTransactions } = await import('../../shared/payments/transactions.service.ts');
  const { sandboxChargesOf } = await import('../../shared/processor/sandbox-processor.ts');
  const { createSubscription } = await import('../../shared/subscriptions/subscriptions.service.ts');
  const { getSubscriptionById, subscriptionRead, clockRead } = await import('../../shared/subscriptions/subscriptions.repository.ts');
  const { batchRead } = await import('../../shared/platform/db/batch-read.ts');
  const { merchantRead } = await import('../../shared/people/index.ts');
  const { runDue } = await import('../../shared/subscriptions/renewals.service.ts');
  const { sweepDue } = await import('../../shared/subscriptions/sweep.service.ts');
  const { renewQueued } = await import('../../shared/subscriptions/worker.service.ts');
  type Merchant = NonNullable<Awaited<ReturnType<typeof getMerchant>>>;
  type Subscription = NonNullable<Awaited<ReturnType<typeof getSubscriptionById>>>;

  // ---- Counting: every call of the shared document client, credited to the operation whose context sent it.
  const tally = new AsyncLocalStorage<string[]>();
  /** `PK-PREFIX` or `PK-PREFIX/SK-PREFIX` of a key (the item's kind, without its ids). */
  const kindOf = (key: Record<string, unknown> | undefined): string => {
    const text = (x: unknown) => String((x as { S?: string } | undefined)?.S ?? x ?? '');
    const pk = text(key?.pk).split('#')[0]!;
    const sk = text(key?.sk).split('#')[0]!;
    return sk && sk !== pk ? `${pk}/${sk}` : pk;
  };
  /**
   * A call as `Operation key-kind` (the document client's commands reach this middleware as the client's own, e.g.
   * `GetItem`, their input marshalled): for a transaction its items' kinds, for a Query its index and partition's kind.
   */
  const describe = (command: string, input: Record<string, any>): string => {
    if (command === 'TransactWriteItems') {
      const items = (input.TransactItems as Array<Record<string, any>>).map((item) => {
        const [op, body] = Object.entries(item)[0]!;
        return `${op} ${kindOf(body.Key ?? body.Item)}`;
      });
      return `TransactWriteItems [${items.join(', ')}]`;
    }
    if (command === 'Query') {
      const pk = Object.values((input.ExpressionAttributeValues ?? {}) as Record<string, unknown>)[0];
      return `Query ${input.IndexName ?? 'table'} ${kindOf({ pk })}`;
    }
    if (command === 'BatchGetItem') return 'BatchGetItem';
    return `${command} ${kindOf(input.Key ?? input.Item)}`;
  };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const calls = tally.getStore();
      if (calls) calls.push(describe(String(context.commandName ?? 'Unknown').replace(/Command$/, ''), args.input as Record<string, any>));
      return next(args);
    },
    { step: 'initialize', name: 'benchCountDynamoCalls' },
  );
  /** Runs `fn`, answering what it answered and the DynamoDB calls it sent. */
  const counted = async <T>(fn: () => Promise<T>): Promise<{ result: T; calls: string[] }> => {
    const calls: string[] = [];
    const result = await tally.run(calls, fn);
    return { result, calls };
  };

  /**
   * Runs `fn` over `items` as `width` workers, each taking the next `size` items and running them at once (as a queue
   * consumer handles a batch); answers the items that threw, with what they threw.
   */
  async function inBatches<T>(items: readonly T[], fn: (item: T) => Promise<void>, width = batches, size = batchSize) {
    const failures: Array<{ item: T; error: unknown }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < items.length) {
          const batch = items.slice(next, next + size);
          next += size;
          const settled = await Promise.allSettled(batch.map(fn));
          settled.forEach((s, i) => {
            if (s.status === 'rejected') failures.push({ item: batch[i]!, error: s.reason });
          });
        }
      }),
    );
    return failures;
  }

  // ---- 1. Seed.
  const seedStart = performance.now();
  const stamp = Date.now();
  const organizations: Merchant[] = [];
  const planOf = new Map<string, string>();
  for (let o = 0; o < organizationCount; o++) {
    const root = await createRootMerchant({
      name: `Renewals ${o}`,
      ownerEmail: `bench-renewals-${stamp}-${o}@example.com`,
      ownerPassword: 'benchmark password',
      mode: 'test',
    });
    const organization = (await getMerchant(root.merchantId))!;
    const plan = await tenDollarPlan(organization.id, 'day', { product: 'Daily seat', plan: 'Daily' });
    organizations.push(organization);
    planOf.set(organization.id, plan.id);
  }
  interface Seeded {
    organization: Merchant;
    customerId: string;
    paymentInstrumentId: string;
    subscriptionId: string;
  }
  const seeded: Seeded[] = [];
  const seedFailures = await inBatches(
    Array.from({ length: count }, (_, i) => i),
    async (i) => {
      const organization = organizations[i % organizationCount]!;
      const customer = await createCustomer(organization, {
        email: `subscriber-${i}@example.com`,
        firstName: 'Sub',
        lastName: `Scriber ${i}`,
        primaryAddress: { customerAddress: { country: 'US', region: 'OR' } },
      });
      const token = await sandboxCardToken(organization.id);
      const instrument = await attachPaymentInstrument(organization.id, customer.id, token.id);
      const subscription = await createSubscription(organization, {
        customerId: customer.id,
        paymentInstrumentId: instrument.id,
        items: [{ plan: planOf.get(organization.id)!, quantity: 1 }],
        isTrialOnly: false,
      });
      if (subscription.status !== 'active') throw new Error(`subscription ${subscription.id} is ${subscription.status} after its creation`);
      seeded.push({ organization, customerId: customer.id, paymentInstrumentId: instrument.id, subscriptionId: subscription.id });
    },
    5,
    8,
  );
  if (seedFailures.length) throw seedFailures[0]!.error;
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.log(`seeded ${count} daily subscriptions over ${organizationCount} organizations in ${seedSeconds.toFixed(1)} s`);

  // ---- 2. Due a day and a minute later: the sweep claims them all.
  const later = new Date(Date.now() + DAY_MS + 60_000);
  const laterIso = later.toISOString();
  const queued: string[] = [];
  const sweepStart = performance.now();
  const sweep = await counted(async () => {
    // One sweep reads at most 1,000 entries per shard; the next sweep (a minute later when deployed) takes the rest.
    for (;;) {
      const r = await sweepDue(later, async (due) => void queued.push(...due.map((d) => d.subscriptionId)));
      if (r.queued === 0) return;
    }
  });
  const sweepSeconds = (performance.now() - sweepStart) / 1000;
  const seededIds = new Set(seeded.map((s) => s.subscriptionId));
  const queuedOnce = new Set(queued);
  if (queued.length !== queuedOnce.size || queuedOnce.size !== seededIds.size || [...seededIds].some((id) => !queuedOnce.has(id))) {
    throw new Error(`the sweep queued ${queued.length} ids (${queuedOnce.size} distinct) for ${seededIds.size} due subscriptions`);
  }
  console.log(`sweep: ${queued.length} claimed in ${sweepSeconds.toFixed(2)} s, ${sweep.calls.length} DynamoDB calls`);

  // ---- 3. Renewals and charges, in turns.
  /** Each renewal's calls, over all its attempts. */
  const renewalCalls = new Map<string, string[]>();
  const chargeCalls: string[][] = [];
  /** The state each sampled subscription had when its worker first read it (for the duplicate pass). */
  const sample = new Set(seeded.slice(0, duplicates).map((s) => s.subscriptionId));
  const readBefore = new Map<string, Subscription>();
  const organizationOf = new Map(seeded.map((s) => [s.subscriptionId, s.organization.id]));
  const renew = async (subscriptionId: string) => {
    const calls = renewalCalls.get(subscriptionId) ?? [];
    renewalCalls.set(subscriptionId, calls);
    const after = await tally.run(calls, async () => {
      // The worker's step (`renewQueued`), its now a day and a minute later than real time.
      const organizationId = organizationOf.get(subscriptionId)!;
      const [s, organization, clock] = await batchRead([subscriptionRead(subscriptionId), merchantRead(organizationId), clockRead(organizationId)]);
      if (!s) throw new Error(`subscription ${subscriptionId} not found`);
      if (sample.has(s.id) && !readBefore.has(s.id)) readBefore.set(s.id, s);
      return runDue(organization!, s, laterIso, clock?.offsetMs ?? 0);
    });
    if (after.periodIndex !== 1 || after.status !== 'active') throw new Error(`subscription ${subscriptionId}: ${after.status} in period ${after.periodIndex}`);
  };
  /** Worker steps that threw (the queue delivers the message again), by error code; and messages that ran out of receives. */
  const failedSteps: Record<string, number> = {};
  const deadLettered: string[] = [];
  /** Renews `ids` as the queue would: a message whose step threw is received again, at most `MAX_RECEIVES` times. */
  const renewAll = async (ids: readonly string[]) => {
    let pending = ids;
    for (let receive = 1; pending.length; receive++) {
      const failed = await inBatches(pending, renew);
      for (const { error } of failed) {
        const code = (error as { code?: string }).code ?? (error as Error).message;
        failedSteps[code] = (failedSteps[code] ?? 0) + 1;
      }
      pending = failed.map((f) => f.item);
      if (receive === MAX_RECEIVES) {
        deadLettered.push(...pending);
        return;
      }
    }
  };
  // `POST /transactions` reads its organization as the request arrives (with the key, one BatchGetItem), as the
  // renewal's worker does: the charges take each organization as it is after the seed, whose first payments
  // registered its sharded balance — not the record read before them, which would book every charge on the
  // organization's one balance item and mark the organization again.
  const currentOrganization = new Map(await Promise.all(organizations.map(async (o) => [o.id, (await getMerchant(o.id))!] as const)));
  const chargeTargets = Array.from({ length: chargeCount }, (_, i) => ({ ...seeded[i % count]!, key: `bench-charge-${i}` }));
  const charge = async (t: (typeof chargeTargets)[number]) => {
    const { result, calls } = await counted(() =>
      createTransaction(currentOrganization.get(t.organization.id)!, {
        idempotencyKey: t.key,
        amount: 10,
        currency: 'USD',
        paymentInstrumentId: t.paymentInstrumentId,
      }),
    );
    if (result.status !== 201) throw new Error(`charge ${t.key} answered ${result.status}`);
    chargeCalls.push(calls);
  };
  const slice = <T>(xs: readonly T[], r: number) => xs.slice(Math.floor((r * xs.length) / rounds), Math.floor(((r + 1) * xs.length) / rounds));
  const seconds = { renewals: 0, charges: 0 };
  /** CPU time (ms) spent while each kind ran: this process's (the engines and the in-process consumers) and DynamoDB Local's. */
  const nodeCpuMs = { renewals: 0, charges: 0 };
  const dynamoCpuMs = { renewals: 0, charges: 0 };
  const timed = async (kind: keyof typeof seconds, run: () => Promise<unknown>) => {
    const start = performance.now();
    const cpuBefore = process.cpuUsage();
    const javaBefore = processCpuMs(stack.dynamoPid) ?? 0;
    await run();
    seconds[kind] += (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    nodeCpuMs[kind] += (cpu.user + cpu.system) / 1000;
    dynamoCpuMs[kind] += (processCpuMs(stack.dynamoPid) ?? 0) - javaBefore;
  };
  for (let r = 0; r < rounds; r++) {
    const renewals = () => timed('renewals', () => renewAll(slice(queued, r)));
    const charges = () =>
      timed('charges', async () => {
        const failed = await inBatches(slice(chargeTargets, r), charge);
        if (failed.length) throw failed[0]!.error;
      });
    if (r % 2 === 0) {
      await renewals();
      await charges();
    } else {
      await charges();
      await renewals();
    }
  }
  const renewalsPerSecond = count / seconds.renewals;
  const chargesPerSecond = chargeCount / seconds.charges;

  const perOperation = (all: string[][]) => {
    const byKind = new Map<string, number>();
    for (const calls of all) for (const c of calls) byKind.set(c, (byKind.get(c) ?? 0) + 1);
    const sizes = all.map((c) => c.length).sort((a, b) => a - b);
    return {
      mean: sizes.reduce((a, b) => a + b, 0) / sizes.length,
      min: sizes[0]!,
      median: sizes[Math.floor(sizes.length / 2)]!,
      max: sizes.at(-1)!,
      byKind: Object.fromEntries([...byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, round2(n / all.length)])),
    };
  };
  const renewalFigures = perOperation([...renewalCalls.values()]);
  const chargeFigures = perOperation(chargeCalls);

  // ---- 4. Nothing charged twice.
  /** Completed transactions per subscription, and every transaction's instrument, of all the organizations. */
  async function transactionsNow() {
    const completedBySubscription = new Map<string, number>();
    const byInstrument = new Map<string, number>();
    for (const organization of organizations) {
      const items = await listAllOfCollection('TRANSACTION', organization.id);
      for (const t of items) {
        if (t.status !== 'completed') continue;
        if (t.subscriptionId) completedBySubscription.set(t.subscriptionId as string, (completedBySubscription.get(t.subscriptionId as string) ?? 0) + 1);
        byInstrument.set(t.paymentInstrumentId as string, (byInstrument.get(t.paymentInstrumentId as string) ?? 0) + 1);
      }
    }
    return { completedBySubscription, byInstrument };
  }
  /** The sandbox processor's succeeded charges on each seeded card. */
  const processorCharges = new Map<string, number>();
  await inBatches(seeded, async (s) => {
    const instrument = await findPaymentInstrument(s.organization.id, s.paymentInstrumentId);
    const charges = await sandboxChargesOf(instrument!.processorReference);
    processorCharges.set(s.paymentInstrumentId, charges.filter((c) => c.result.outcome === 'succeeded').length);
  });
  /** Subscriptions with more than two completed charges, with fewer, and cards the processor charged other than recorded. */
  const check = (now: Awaited<ReturnType<typeof transactionsNow>>, processor: Map<string, number>, subscriptions: readonly Seeded[]) => {
    let overCharged = 0;
    let notRenewed = 0;
    let processorMismatch = 0;
    for (const s of subscriptions) {
      const n = now.completedBySubscription.get(s.subscriptionId) ?? 0;
      if (n > 2) overCharged++;
      if (n < 2) notRenewed++;
      if ((processor.get(s.paymentInstrumentId) ?? 0) !== (now.byInstrument.get(s.paymentInstrumentId) ?? 0)) processorMismatch++;
    }
    return { overCharged, notRenewed, processorMismatch };
  };
  const afterRenewals = check(await transactionsNow(), processorCharges, seeded);

  // The duplicate pass, on the sample.
  // (A subscription whose message ran out of receives was never renewed: a duplicate would renew it, rightly.)
  const sampled = seeded.slice(0, duplicates).filter((s) => !deadLettered.includes(s.subscriptionId));
  const queuedAgain: string[] = [];
  await sweepDue(later, async (due) => void queuedAgain.push(...due.map((d) => d.subscriptionId)));
  const duplicateCalls: string[][] = [];
  const duplicateFailures = await inBatches(sampled, async (s) => {
    const organization = s.organization;
    // The deployed worker's step itself, on real time: nothing is due yet.
    await renewQueued(JSON.stringify({ subscriptionId: s.subscriptionId, organizationId: s.organization.id }));
    // A second worker that read the subscription before the first one wrote its renewal.
    const stale = await counted(() => runDue(organization, readBefore.get(s.subscriptionId)!, laterIso, 0));
    duplicateCalls.push(stale.calls);
    // Two workers at once on the state after the renewal.
    const current = (await getSubscriptionById(s.subscriptionId))!;
    await Promise.all([runDue(organization, current, laterIso, 0), runDue(organization, current, laterIso, 0)]);
  });
  if (duplicateFailures.length) throw duplicateFailures[0]!.error;
  const processorAfter = new Map<string, number>();
  await inBatches(sampled, async (s) => {
    const instrument = await findPaymentInstrument(s.organization.id, s.paymentInstrumentId);
    processorAfter.set(s.paymentInstrumentId, (await sandboxChargesOf(instrument!.processorReference)).filter((c) => c.result.outcome === 'succeeded').length);
  });
  const final = await transactionsNow();
  const afterDuplicates = check(final, processorAfter, sampled);
  let newProcessorCharges = 0;
  for (const s of sampled) newProcessorCharges += processorAfter.get(s.paymentInstrumentId)! - processorCharges.get(s.paymentInstrumentId)!;
  // And through the transactions list the API serves, filtered by subscription.
  let listedNotTwo = 0;
  await inBatches(sampled, async (s) => {
    const list = await listTransactions(s.organization.id, {
      limit: 100,
      offset: 0,
      sortDirection: 'asc',
      sortBy: 'createdAt',
      showTestData: true,
      subscriptionId: s.subscriptionId,
    });
    if (list.data.filter((t) => t.status === 'completed').length !== 2) listedNotTwo++;
  });
  // Charged twice: a subscription with more than its two charges at the end (after the duplicate pass).
  const chargedTwice = check(final, processorCharges, seeded).overCharged;
  const processorMismatch = afterRenewals.processorMismatch + afterDuplicates.processorMismatch;

  // ---- 5. Figures.
  const dynamoCallsPerRenewal = round2(renewalFigures.mean);
  const dynamoCallsPerCharge = round2(chargeFigures.mean);
  const extraCallsPerRenewal = round2(renewalFigures.mean - chargeFigures.mean);
  const ratio = round2(renewalsPerSecond / chargesPerSecond);
  /** CPU time over wall time: how many cores the database kept busy in each phase. */
  const dynamodbLocalCores = {
    renewals: round2(dynamoCpuMs.renewals / 1000 / seconds.renewals),
    charges: round2(dynamoCpuMs.charges / 1000 / seconds.charges),
  };
  const goals = {
    ratioAtLeast1: renewalsPerSecond >= GOAL_RATIO * chargesPerSecond,
    extraCallsAtMost2: renewalFigures.mean <= chargeFigures.mean + GOAL_EXTRA_CALLS,
    nothingChargedTwice: chargedTwice === 0 && processorMismatch === 0 && queuedAgain.length === 0 && newProcessorCharges === 0 && listedNotTwo === 0,
  };
  const inFlight = batches * batchSize;
  console.log(
    `\n${count} renewals and ${chargeCount} charges, ${batches} workers × batches of ${batchSize} (${inFlight} in flight), ${rounds} rounds (${cpus().length} CPUs, 1-minute load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} now):`,
  );
  console.log(
    `  renewals: ${renewalsPerSecond.toFixed(1)}/s (${seconds.renewals.toFixed(1)} s)   charges: ${chargesPerSecond.toFixed(1)}/s (${seconds.charges.toFixed(1)} s)   ratio ${ratio}`,
  );
  console.log(
    `  CPU while they ran, per operation: renewal ${(nodeCpuMs.renewals / count).toFixed(2)} ms Node + ${(dynamoCpuMs.renewals / count).toFixed(2)} ms DynamoDB Local; charge ${(nodeCpuMs.charges / chargeCount).toFixed(2)} ms Node + ${(dynamoCpuMs.charges / chargeCount).toFixed(2)} ms DynamoDB Local`,
  );
  console.log(
    `  cores DynamoDB Local kept busy: ${dynamodbLocalCores.renewals} while renewing, ${dynamodbLocalCores.charges} while charging (it runs the writes one at a time: about 1 is all it takes, whatever the machine has)`,
  );
  const show = (name: string, f: typeof renewalFigures) => {
    console.log(`  DynamoDB calls per ${name}: mean ${f.mean.toFixed(2)}, min ${f.min}, median ${f.median}, max ${f.max}`);
    for (const [kind, n] of Object.entries(f.byKind)) console.log(`    ${n.toFixed(2).padStart(5)}  ${kind}`);
  };
  show('renewal (the worker step)', renewalFigures);
  show('charge (createTransaction)', chargeFigures);
  const failedCount = Object.values(failedSteps).reduce((a, b) => a + b, 0);
  console.log(
    `  worker steps that threw (their message received again): ${failedCount} ${JSON.stringify(failedSteps)}; out of receives (dead-lettered): ${deadLettered.length}`,
  );
  console.log(`  the sweep besides: ${round2(sweep.calls.length / count)} calls per renewal (${sweep.calls.length} for ${count}: its claims and its Queries)`);
  console.log(
    `  charged twice: ${chargedTwice}; cards the processor charged other than recorded: ${processorMismatch}; not renewed: ${afterRenewals.notRenewed}; duplicate pass on ${sampled.length}: queued again ${queuedAgain.length}, new processor charges ${newProcessorCharges}, listed with other than 2 completed ${listedNotTwo}; a stale duplicate costs ${round2(perOperation(duplicateCalls).mean)} calls`,
  );
  for (const [goal, met] of Object.entries(goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  console.log(
    JSON.stringify({
      benchmark: 'renewals',
      count,
      organizations: organizationCount,
      charges: chargeCount,
      inFlight: { batches, batchSize },
      renewalsPerSecond: round2(renewalsPerSecond),
      chargesPerSecond: round2(chargesPerSecond),
      renewalsToChargesRatio: ratio,
      dynamoCallsPerRenewal,
      dynamoCallsPerCharge,
      extraCallsPerRenewal,
      cpuMsPerRenewal: { node: round2(nodeCpuMs.renewals / count), dynamodbLocal: round2(dynamoCpuMs.renewals / count) },
      cpuMsPerCharge: { node: round2(nodeCpuMs.charges / chargeCount), dynamodbLocal: round2(dynamoCpuMs.charges / chargeCount) },
      dynamodbLocalCoresBusy: dynamodbLocalCores,
      sweepCallsPerRenewal: round2(sweep.calls.length / count),
      staleDuplicateCalls: round2(perOperation(duplicateCalls).mean),
      callsPerRenewal: renewalFigures.byKind,
      callsPerCharge: chargeFigures.byKind,
      chargedTwice,
      processorMismatch,
      notRenewed: afterRenewals.notRenewed,
      failedWorkerSteps: failedSteps,
      deadLettered: deadLettered.length,
      duplicatePass: { sample: sampled.length, queuedAgain: queuedAgain.length, newProcessorCharges, listedWithOtherThanTwo: listedNotTwo },
      goals,
      met: Object.values(goals).every(Boolean),
      seconds: { seed: round2(seedSeconds), sweep: round2(sweepSeconds), renewals: round2(seconds.renewals), charges: round2(seconds.charges) },
      cpus: cpus().length,
      loadAverage1mAtStart: round2(loadAtStart),
      loadAverage1mAtEnd: round2(loadavg()[0]!),
    }),
  );
} finally {
  await stack.stop();
}
