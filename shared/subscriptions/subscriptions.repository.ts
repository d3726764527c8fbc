/**
 * Subscriptions in the table: a catalog record (`SUBSCRIPTION#<id>`, listed per organization through gsi1 by
 * creation and gsi2 by last update, and per customer through gsi4), and — while the renewal engine has something to
 * do for it — on the sparse due index (gsi3, `SUBSCRIPTIONSDUE#<shard>` / `<dueAt>#<id>`, `subscriptionDue`).
 *
 * Every change replaces the item on the condition that its `version` is still the one read, so two workers (a
 * duplicate queue message, a second sweeper, a test clock advance) never both apply a step. The sweeper's claim is
 * the one write that does not change the version: it moves the item's place on the due index to the end of its
 * lease, so no other sweep picks it up meanwhile, and the worker's next write puts it where it belongs.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName, sendIfCondition } from '../platform/db/client.ts';
import type { ItemRead } from '../platform/db/batch-read.ts';
import { listAllOfCollection, listCatalogPage, listOfCustomer, type CatalogListOptions } from '../platform/db/listing.ts';
import { type MoneyStep, MoneyStepEntity, subscriptionMoneySteps } from './money-step.entity.ts';
import { DUE_SHARDS, type Subscription, SubscriptionEntity, subscriptionDue, subscriptionsDueOf } from './subscription.entity.ts';
import { type TestClock, TestClockEntity } from './test-clock.entity.ts';

/** The item of `s`, on the due index at `indexAt` (real time; null: off the index). */
const itemOf = (s: Subscription, indexAt: string | null) => ({ ...SubscriptionEntity.item(s), ...(indexAt ? subscriptionDue(s.id, indexAt) : {}) });

/** The organization's subscription, or null (another organization's is null too). */
export async function getSubscription(organizationId: string, id: string): Promise<Subscription | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SubscriptionEntity.key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? SubscriptionEntity.parse(Item) : null;
}

/** A subscription by id alone (the renewal worker's read: its message names the subscription). */
export async function getSubscriptionById(id: string): Promise<Subscription | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SubscriptionEntity.key({ id }), ConsistentRead: true }));
  return SubscriptionEntity.parseOrNull(Item);
}

/** A subscription as a read of a batch (`batchRead`); the caller checks it is the organization's. */
export const subscriptionRead = (id: string): ItemRead<Subscription> => ({ key: SubscriptionEntity.key({ id }), from: SubscriptionEntity.parse });

/** An organization's test clock as a read of a batch (no clock item: null, i.e. no offset and no advance). */
export const clockRead = (organizationId: string): ItemRead<TestClock> => ({ key: TestClockEntity.key({ organizationId }), from: TestClockEntity.parse });

/**
 * Test-only: the race tests break the version condition on purpose, to show they catch what it prevents
 * (test/subscriptions/integration/subscription-races.test.ts). Nothing in a deployment sets it.
 */
export const stepFaults: { withoutVersionCondition?: boolean } = {};

/**
 * The condition of writing `s` (version `s.version`): the stored one is still at `s.version − 1` (or, for version 1,
 * none exists) and has no step pending — unless this write `settles` that step.
 */
function versionCondition(s: Subscription, settles: boolean) {
  if (s.version === 1) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (stepFaults.withoutVersionCondition) return {};
  return {
    ConditionExpression: settles ? '#v = :v' : '#v = :v AND attribute_not_exists(#p)',
    ExpressionAttributeNames: { '#v': 'version', ...(settles ? {} : { '#p': 'pending' }) },
    ExpressionAttributeValues: { ':v': s.version - 1 },
  };
}

/** Writes `s`, new, on the due index at `indexAt` (real time); false when it exists already. */
export async function saveNewSubscription(s: Subscription, indexAt: string | null): Promise<boolean> {
  return sendIfCondition(new PutCommand({ TableName: tableName(), Item: itemOf(s, indexAt), ...versionCondition(s, false) }));
}

/**
 * The transaction item that writes `s` (version `s.version`) on the due index at `indexAt`, on the condition of
 * `versionCondition`: of two changes decided on one version, one writes.
 */
export const saveSubscriptionItem = (s: Subscription, indexAt: string | null, options: { settles?: boolean } = {}) => ({
  Put: { TableName: tableName(), Item: itemOf(s, indexAt), ...versionCondition(s, options.settles ?? false) },
});

/**
 * The transaction item that records a step's money movement in the subscription's history, with the step's claim:
 * written once per (step, movement), never changed.
 */
export const putMoneyStep = (m: MoneyStep) => ({
  Put: {
    TableName: tableName(),
    Item: MoneyStepEntity.item(m),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The money movements of the subscription's steps, in the order of the versions they were decided on. */
export async function listMoneySteps(subscriptionId: string): Promise<MoneyStep[]> {
  const { pk, skPrefix } = subscriptionMoneySteps(subscriptionId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
  });
  return items.map(MoneyStepEntity.parse);
}

/** Index entries due by `before` (real time), oldest first: at most `limitPerShard` of each shard (one Query each). */
export async function listDue(before: string, limitPerShard: number): Promise<Array<{ id: string; organizationId: string; sk: string }>> {
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :before',
          ExpressionAttributeValues: { ':pk': subscriptionsDueOf(shard).gsi3pk, ':before': `${before}#~` },
          ProjectionExpression: 'id, organizationId, gsi3sk',
          Limit: limitPerShard,
        }),
      ),
    ),
  );
  return shards.flatMap((page) => (page.Items ?? []).map((i) => ({ id: String(i.id), organizationId: String(i.organizationId), sk: String(i.gsi3sk) })));
}

/**
 * Claims a due entry: moves it on the index to `leaseUntil` (real time) if it is still at `seenSk`. Answers false
 * when another sweep (or a worker's write) moved it first.
 */
export async function claimDue(id: string, seenSk: string, leaseUntil: string): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: SubscriptionEntity.key({ id }),
      UpdateExpression: 'SET gsi3sk = :lease',
      ConditionExpression: 'gsi3sk = :seen',
      ExpressionAttributeValues: { ':lease': subscriptionDue(id, leaseUntil).gsi3sk, ':seen': seenSk },
    }),
  );
}

/** Puts the subscription on the due index at once (real time): the next sweep queues it, whatever its place was. */
export async function queueNow(id: string): Promise<void> {
  const at = subscriptionDue(id, new Date().toISOString());
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: SubscriptionEntity.key({ id }),
      UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':pk': at.gsi3pk, ':sk': at.gsi3sk },
    }),
  );
}

/** Every subscription of the organization (the test clock's advance reads them all: sandbox only). */
export async function listAllOfOrganization(organizationId: string): Promise<Subscription[]> {
  return (await listAllOfCollection('SUBSCRIPTION', organizationId)).map(SubscriptionEntity.parse);
}

/** The subscriptions of the organization's customer `customerId`, newest first (the `limit` newest; all without one). */
export async function listCustomerSubscriptions(organizationId: string, customerId: string, limit?: number): Promise<Subscription[]> {
  return (await listOfCustomer('SUBSCRIPTION', organizationId, customerId, limit)).map(SubscriptionEntity.parse);
}

/** One page of the organization's subscriptions (see shared/platform/db/listing.ts). */
export async function listSubscriptionPage(organizationId: string, options: CatalogListOptions) {
  const page = await listCatalogPage('SUBSCRIPTION', organizationId, options);
  return { totalCount: page.totalCount, items: page.items.map(SubscriptionEntity.parse) };
}
