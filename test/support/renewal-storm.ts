/**
 * A renewal storm (test/bench/renewal-storm.ts, and its small version in
 * test/subscriptions/integration/renewal-storm.test.ts): many subscriptions of one merchant due at the same instant,
 * renewed by the sweep and the worker, every DynamoDB write counted per item and per partition. Loaded after the
 * environment names the local stack.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CustomerEntity } from '../../shared/customers/customer.entity.ts';
import { createCustomer } from '../../shared/customers/customers.service.ts';
import { findCustomer, findPaymentInstrument } from '../../shared/customers/index.ts';
import { PaymentInstrumentEntity } from '../../shared/customers/payment-instrument.entity.ts';
import { attachPaymentInstrument } from '../../shared/customers/payment-instruments.service.ts';
import type { Merchant } from '../../shared/domain/merchants.ts';
import { getBalance, listJournals } from '../../shared/money/ledger.repository.ts';
import { balancesOf } from '../../shared/money/ledger.rules.ts';
import { createRootMerchant, getMerchant } from '../../shared/people/index.ts';
import { db, putItems, queryAll, tableName } from '../../shared/platform/db/client.ts';
import { catalogPartitions } from '../../shared/platform/db/keys.ts';
import { globalIndexes } from '../../shared/platform/db/table.ts';
import { sandboxCardToken } from './cards.ts';
import { itemSize } from './item-size.ts';
import { sandboxCard } from '../../shared/processor/sandbox-card.entity.ts';
import { getSubscriptionById, saveSubscriptionItem } from '../../shared/subscriptions/subscriptions.repository.ts';
import { createSubscription } from '../../shared/subscriptions/subscriptions.service.ts';
import { type QueuedRenewal, queueRenewals, sweepDue } from '../../shared/subscriptions/sweep.service.ts';
import { TestClockEntity } from '../../shared/subscriptions/test-clock.entity.ts';
import { tenDollarPlan } from './seed.ts';

const DAY_MS = 86_400_000;

export interface StormSeed {
  organization: Merchant;
  subscriptionIds: string[];
  seconds: number;
}

/** An id like `id`: its prefix (up to its last `_`) kept, its random tail new, in the same letters and length. */
function like(id: string): string {
  const cut = id.lastIndexOf('_') + 1;
  const tail = id.slice(cut);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(tail)) return `${id.slice(0, cut)}${randomUUID()}`;
  const letters = /^[0-9a-f]+$/.test(tail) ? '0123456789abcdef' : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(tail.length);
  return id.slice(0, cut) + Array.from(bytes, (b) => letters[b % letters.length]).join('');
}

/** Writes `items` with the kit's `putItems` (25 a call, what is left unprocessed sent again, boundedly), 8 parts at once. */
async function writeAll(items: Record<string, unknown>[]): Promise<void> {
  const part = Math.ceil(items.length / 8 / 25) * 25;
  const parts = Array.from({ length: 8 }, (_, n) => items.slice(n * part, (n + 1) * part)).filter((p) => p.length);
  await Promise.all(parts.map(putItems));
}

/**
 * One merchant with `count` subscriptions due now (real time): one subscriber made through the services, then
 * cloned with new ids; the merchant's test clock a day and a minute ahead, so each one's renewal is due.
 */
export async function stormSeed(count: number): Promise<StormSeed> {
  const started = performance.now();
  const stamp = randomUUID().slice(0, 8);
  const root = await createRootMerchant({ name: `Storm ${stamp}`, ownerEmail: `storm-${stamp}@example.com`, ownerPassword: 'storm password', mode: 'test' });
  let organization = (await getMerchant(root.merchantId))!;
  const plan = await tenDollarPlan(organization.id, 'day', { product: 'Daily seat', plan: 'Daily' });
  const customer = await createCustomer(organization, {
    email: `storm-subscriber@example.com`,
    firstName: 'Storm',
    lastName: 'Subscriber',
    primaryAddress: { customerAddress: { country: 'US', region: 'OR' } },
  });
  const token = await sandboxCardToken(organization.id);
  const attached = await attachPaymentInstrument(organization.id, customer.id, token.id);
  // Its start is charged now: the merchant's first payment in USD registers the currency's balance as sharded.
  organization = (await getMerchant(organization.id))!;
  const first = await createSubscription(organization, {
    customerId: customer.id,
    paymentInstrumentId: attached.id,
    items: [{ plan: plan.id, quantity: 1 }],
    isTrialOnly: false,
  });
  const template = (await getSubscriptionById(first.id))!;
  const templateCustomer = (await findCustomer(organization.id, customer.id))!;
  const templateInstrument = (await findPaymentInstrument(organization.id, attached.id))!;
  const card = (await db.send(new GetCommand({ TableName: tableName(), Key: sandboxCard(templateInstrument.processorReference), ConsistentRead: true }))).Item!;

  // Every clone due now in real time: its renewal (a day after its start) is due on a clock a day and a minute ahead.
  const clockOffset = DAY_MS + 60_000;
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: TestClockEntity.item({ organizationId: organization.id, offsetMs: clockOffset, advancingTo: null, leaseUntil: null, version: 1 }),
    }),
  );
  const dueNow = new Date(Date.parse(template.dueAt!) - clockOffset).toISOString();
  const items: Record<string, unknown>[] = [];
  const subscriptionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const customerId = like(customer.id);
    const instrumentId = like(attached.id);
    const reference = like(templateInstrument.processorReference);
    const email = `storm-${i}@example.com`;
    items.push(CustomerEntity.item({ ...templateCustomer, id: customerId, email, primaryPaymentInstrument: null }));
    items.push(PaymentInstrumentEntity.item({ ...templateInstrument, id: instrumentId, customerId, processorReference: reference }));
    items.push({ ...card, ...sandboxCard(reference), reference });
    const subscription = { ...template, id: like(template.id), customerId, customerEmail: email, paymentInstrumentId: instrumentId };
    subscriptionIds.push(subscription.id);
    items.push(saveSubscriptionItem(subscription, dueNow).Put.Item);
  }
  await writeAll(items);
  return { organization, subscriptionIds, seconds: (performance.now() - started) / 1000 };
}

/** A write as counted: the item's key, and the index partitions the write named (a `Put`'s item). */
interface Write {
  pk: string;
  sk: string;
  indexPartitions: string[];
}

const indexPartitionsOf = (item: Record<string, unknown>) =>
  globalIndexes
    .filter((g) => typeof item[g.partitionKey] === 'string' && typeof item[g.sortKey] === 'string')
    .map((g) => `${g.indexName} ${String(item[g.partitionKey])}`);

/** Counts the document client's writes and calls while `on` says so. */
function countWrites() {
  const state = { on: false, writes: [] as Write[], calls: 0, invoices: 0 };
  const keyOf = (k: Record<string, unknown>) => ({ pk: String(k.pk), sk: String(k.sk) });
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!state.on) return next(args);
      state.calls++;
      const command = String(context.commandName ?? '').replace(/Command$/, '');
      const input = args.input as Record<string, any>;
      const record = (key: Record<string, unknown>, item?: Record<string, unknown>) =>
        state.writes.push({ ...keyOf(key), indexPartitions: item ? indexPartitionsOf(item) : [] });
      if (command === 'PutItem') record(input.Item, input.Item);
      else if (command === 'UpdateItem' || command === 'DeleteItem') record(input.Key);
      else if (command === 'BatchWriteItem') {
        for (const requests of Object.values(input.RequestItems as Record<string, any[]>)) {
          for (const r of requests) r.PutRequest ? record(r.PutRequest.Item, r.PutRequest.Item) : record(r.DeleteRequest.Key);
        }
      } else if (command === 'TransactWriteItems') {
        for (const t of input.TransactItems as Array<Record<string, any>>) {
          if (t.Put) record(t.Put.Item, t.Put.Item);
          else if (t.Update) record(t.Update.Key);
          else if (t.Delete) record(t.Delete.Key);
          if (t.Put && String(t.Put.Item.pk).startsWith('INVOICE#')) state.invoices++;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'stormCountWrites' },
  );
  return state;
}

/** The item's kind without its ids: `SUBSCRIPTION`, `MERCHANT/BALANCE`, `BALANCESHARD`, … */
const kindOf = (pk: string, sk: string) => {
  const p = pk.split('#')[0]!;
  const s = sk.split('#')[0]!;
  return s && s !== p ? `${p}/${s}` : p;
};
const partitionKindOf = (partition: string) => {
  const [index, pk] = partition.includes(' ') ? partition.split(' ') : ['table', partition];
  const [name, ...parts] = pk!.split('#');
  return `${index} ${name}${parts.map((p) => (/^\d+$/.test(p) ? '#<shard>' : '#<id>')).join('')}`;
};

export interface StormResult {
  renewals: number;
  seconds: number;
  /** Sweep runs that claimed some of the storm's subscriptions. */
  sweeps: number;
  writes: {
    /** Items by writes, most written first. */
    items: Array<{ kind: string; key: string; writes: number }>;
    /** Partitions (the table's and the indexes') by write units per renewal, most first. */
    partitions: Array<{ kind: string; key: string; unitsPerRenewal: number }>;
    callsPerRenewal: number;
  };
  checks: { notRenewedOnce: number; duplicateInvoiceNumbers: number; ledgerMatches: boolean };
}

/**
 * Sweeps and renews the seeded storm, counting. `worker`: how the queued subscriptions are renewed — none (the sweep
 * queues them on the stack's renewal queue; its poller runs the worker in this process) or a function this runs for
 * each sweep round's claims (a test runs the worker's step itself). `sweepPage`: the sweep's page per shard;
 * `sweepBudgetMs`: how long one sweep run goes on starting rounds (default the deployed run's).
 */
export async function stormCount(
  seed: StormSeed,
  options: { timeoutMs: number; worker?: (due: QueuedRenewal[]) => Promise<void>; sweepPage?: number; sweepBudgetMs?: number },
): Promise<StormResult> {
  const counter = countWrites();
  const started = performance.now();
  let sweeps = 0;
  counter.on = true;
  // One sweep run (its rounds claim page after page); a storm larger than a run's budget takes the next runs.
  const sweepRounds = {
    ...(options.sweepPage ? { page: options.sweepPage } : {}),
    ...(options.sweepBudgetMs ? { budgetMs: options.sweepBudgetMs } : {}),
  };
  // The runs that claimed some of the storm (the table also holds other tests' subscriptions, which fall due while
  // this runs: a run claims and renews those too, but is not one of the storm's).
  const storm = new Set(seed.subscriptionIds);
  const send = options.worker ?? queueRenewals;
  for (;;) {
    let claimed = 0;
    await sweepDue(
      new Date(),
      async (due) => {
        claimed += due.filter((d) => storm.has(d.subscriptionId)).length;
        await send(due);
      },
      sweepRounds,
    );
    if (!claimed) break;
    sweeps++;
  }
  // The queue's worker renews in the background: wait for every invoice (one a renewal).
  while (counter.invoices < seed.subscriptionIds.length) {
    if (performance.now() - started > options.timeoutMs) throw new Error(`${counter.invoices} of ${seed.subscriptionIds.length} renewed before the timeout`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  counter.on = false;
  const seconds = (performance.now() - started) / 1000;
  const renewals = counter.invoices;

  // Every written item as it is now: its index partitions and its size.
  const byItem = new Map<string, { pk: string; sk: string; writes: number; indexPartitions: Set<string> }>();
  for (const w of counter.writes) {
    const id = `${w.pk}\u0000${w.sk}`;
    const entry = byItem.get(id) ?? { pk: w.pk, sk: w.sk, writes: 0, indexPartitions: new Set<string>() };
    entry.writes++;
    for (const p of w.indexPartitions) entry.indexPartitions.add(p);
    byItem.set(id, entry);
  }
  const sizes = new Map<string, number>();
  const entries = [...byItem.entries()];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < entries.length) {
        const [id, e] = entries[next++]!;
        const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: { pk: e.pk, sk: e.sk } }));
        if (Item) for (const p of indexPartitionsOf(Item)) e.indexPartitions.add(p);
        sizes.set(id, Item ? itemSize(Item) : 1);
      }
    }),
  );
  const units = new Map<string, number>();
  for (const [id, e] of byItem) {
    const kb = Math.max(1, Math.ceil(sizes.get(id)! / 1024));
    units.set(e.pk, (units.get(e.pk) ?? 0) + e.writes * 2 * kb); // transactional writes: twice the units
    for (const p of e.indexPartitions) units.set(p, (units.get(p) ?? 0) + e.writes * kb);
  }
  const items = [...byItem.values()].map((e) => ({ kind: kindOf(e.pk, e.sk), key: `${e.pk} ${e.sk}`, writes: e.writes })).sort((a, b) => b.writes - a.writes);
  const partitions = [...units.entries()]
    .map(([key, u]) => ({ kind: partitionKindOf(key), key, unitsPerRenewal: u / renewals }))
    .sort((a, b) => b.unitsPerRenewal - a.unitsPerRenewal);

  // Checks: every subscription renewed once, invoice numbers unique, the balance its journals' sum.
  const organizationId = seed.organization.id;
  const invoices = (
    await Promise.all(
      catalogPartitions('INVOICE', organizationId).map((partition) =>
        queryAll({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': partition },
          ProjectionExpression: '#n, customerId',
          ExpressionAttributeNames: { '#n': 'number' },
        }),
      ),
    )
  ).flat();
  const numbers = invoices.map((i) => String(i.number));
  const perCustomer = new Map<string, number>();
  for (const i of invoices) perCustomer.set(String(i.customerId), (perCustomer.get(String(i.customerId)) ?? 0) + 1);
  const renewedIds = await Promise.all(seed.subscriptionIds.map((id) => getSubscriptionById(id)));
  const notRenewedOnce = renewedIds.filter((s) => s?.periodNumber !== 2 || s.status !== 'active' || perCustomer.get(s.customerId) !== 1).length;
  const balance = await getBalance(organizationId, 'USD');
  const ledgerMatches = JSON.stringify(balance) === JSON.stringify(balancesOf(organizationId, await listJournals(organizationId)));
  return {
    renewals,
    seconds,
    sweeps,
    writes: { items, partitions, callsPerRenewal: counter.calls / renewals },
    checks: { notRenewedOnce, duplicateInvoiceNumbers: numbers.length - new Set(numbers).size, ledgerMatches },
  };
}
