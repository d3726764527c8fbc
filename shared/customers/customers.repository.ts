/**
 * Customers of an organization, in 16 partitions (`CUSTOMERS#<orgId>#<d>`, by the leading hex digit of the random
 * ids; sort key `CUSTOMER#<id>`), so a read by id is one GetItem that cannot reach another organization's customer,
 * and the list reads the 16 partitions in parallel, fetching only the attributes it filters and sorts on; the page's
 * records then come in one BatchGetItem.
 * See docs/design/customer-lists.md for what that costs as an organization grows.
 *
 * Revenue is a map of integer minor units per currency (`revenue`), changed only by payments
 * (`recordCustomerPayment`, inside the payment's own transaction); edits never touch it.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { batchReadMany } from '../platform/db/batch-read.ts';
import type { Customer, CustomerSummary } from './customers.rules.ts';
import { isCustomerId } from './customers.rules.ts';
import {
  checkoutBuyerKey,
  CustomerEntity,
  customerKey,
  customersByEmail,
  customersOf,
  formerCustomersPartition,
  parseCustomerSummary,
} from './customer.entity.ts';
import { isCurrency } from '../domain/money.ts';
import { db, putFresh, putItems, queryAll, scanTable, tableName, updateIfCondition } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { cancellationReasons } from '../platform/db/transactions.ts';

/** A new customer, for a transaction (a payment that makes its customer); never overwrites one. */
export function putNewCustomer(c: Customer): TransactItem {
  return { Put: { TableName: tableName(), Item: CustomerEntity.item(c), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The customer a checkout buyer's e-mail became in the organization, or null (see `checkoutBuyerKey`). */
export async function findCheckoutBuyer(organizationId: string, email: string): Promise<string | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: checkoutBuyerKey(organizationId, email), ConsistentRead: true }));
  return stringOrNull(Item?.customerId);
}

/** Records that the checkout buyer `email` is the new customer `customerId` (fails when the e-mail already has one). */
export function putCheckoutBuyer(organizationId: string, email: string, customerId: string, at: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...checkoutBuyerKey(organizationId, email), entity: 'checkoutBuyer', organizationId, customerId, createdAt: at },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Create on its own (the API); the id is new, so the condition only guards against an id collision (`putFresh`: a
 * write the SDK sends again after it landed is this creation's, not a collision).
 */
export const createCustomer = (c: Customer): Promise<void> => putFresh(CustomerEntity.item(c));

/** The organization's customer `customerId`; null when there is none (malformed ids and other organizations' too). */
export async function getCustomer(organizationId: string, customerId: string): Promise<Customer | null> {
  if (!isCustomerId(customerId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: customerKey(organizationId, customerId), ConsistentRead: true }));
  return CustomerEntity.parseOrNull(Item);
}

/**
 * For a payment's transaction: adds `amountMinor` (integer minor units, > 0) of `currency` to the customer's
 * revenue and makes `at` its last payment time, on the condition that the customer exists in the organization; with
 * `paidWith` (a saved card that paid), that card becomes the customer's primary one when it has none — a card is made
 * primary by a payment it made, never by one it declined.
 *
 * `lastPaymentTime` is set, not maximised: DynamoDB has no max in an update, and a condition refusing an older
 * time would fail the payment's own transaction. `at` is the time the payment is recorded, so the payments of
 * one customer are recorded in time order; two payments of the same customer in the same few milliseconds
 * conflict in DynamoDB and are serialized by `transactWrite`'s retry, which may leave the earlier of the two
 * times. The list sorts on the stored attributes themselves, so there are no sort keys to keep in step.
 */
export function recordCustomerPayment(
  organizationId: string,
  customerId: string,
  amountMinor: number,
  currency: string,
  at: string,
  paidWith?: { method: string; id: string },
): TransactItem {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0)
    throw new Error(`A payment's amount must be a positive whole number of minor units, not ${amountMinor}`);
  if (!isCurrency(currency.toUpperCase())) throw new Error(`Not an ISO 4217 currency code: ${currency}`);
  return {
    Update: {
      TableName: tableName(),
      Key: customerKey(organizationId, customerId),
      UpdateExpression: `SET revenue.#cur = if_not_exists(revenue.#cur, :zero) + :amount, lastPaymentTime = :at${
        paidWith ? ', primaryPaymentInstrument = if_not_exists(primaryPaymentInstrument, :card)' : ''
      }`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#cur': currency.toUpperCase() },
      ExpressionAttributeValues: { ':zero': 0, ':amount': amountMinor, ':at': at, ...(paidWith ? { ':card': paidWith } : {}) },
    },
  };
}

/** The fields an update may change (given ones only; null clears a nullable field). */
export type CustomerChanges = Partial<
  Pick<
    Customer,
    | 'firstName'
    | 'lastName'
    | 'organization'
    | 'email'
    | 'phoneNumber'
    | 'isEnhancedDueDiligenceRequired'
    | 'address'
    | 'dateOfBirth'
    | 'jobTitle'
    | 'tags'
    | 'primaryPaymentInstrument'
  >
>;

/**
 * Changes the given fields only (one SET or REMOVE per field, so concurrent updates of different fields both
 * land), on the condition that the customer exists; null when it does not.
 */
export async function updateCustomer(organizationId: string, customerId: string, changes: CustomerChanges, now: string): Promise<Customer | null> {
  if (!isCustomerId(customerId)) return null;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  const sets = ['updatedAt = :now'];
  const removes: string[] = [];
  const put = (field: string, value: unknown) => {
    names[`#${field}`] = field;
    if (value === null) removes.push(`#${field}`);
    else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  };
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && field !== 'address') put(field, value);
  }
  if (changes.address !== undefined) put('address', changes.address && withoutNulls(changes.address));
  // The e-mail index follows the address.
  if (changes.email !== undefined && changes.email !== null) {
    values[':emailKey'] = customersByEmail(organizationId, changes.email).gsi1pk;
    sets.push('gsi1pk = :emailKey');
  }
  const updated = await updateIfCondition({
    TableName: tableName(),
    Key: customerKey(organizationId, customerId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'attribute_exists(pk)',
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  });
  return updated ? CustomerEntity.parse(updated) : null;
}

/** The attributes the list filters and sorts on (a projection: the rest of each record is not transferred). */
const summaryProjection = {
  ProjectionExpression:
    'id, firstName, lastName, email, #org, address.country, createdAt, lastPaymentTime, tags, revenue, primaryPaymentInstrument.#method, isTestData',
  ExpressionAttributeNames: { '#org': 'organization', '#method': 'method' },
};

/** The leading hex digits of the list's segments (`cus_0…` … `cus_f…`: one partition each), read at the same time. */
const SEGMENTS = [...'0123456789abcdef'];

/**
 * What the list needs of every customer of the organization: one Query per segment, all at once, each
 * following its own pages. Eventually consistent (half the read cost of a strongly consistent read).
 */
export async function listCustomerSummaries(organizationId: string): Promise<CustomerSummary[]> {
  const segments = await Promise.all(
    SEGMENTS.map(async (digit) => {
      const { pk, skPrefix } = customersOf(organizationId, digit);
      const items = await queryAll({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ...summaryProjection,
      });
      return items.map(parseCustomerSummary);
    }),
  );
  return segments.flat();
}

/**
 * The organization's customers `ids` (one `BatchGetItem` a hundred, eventually consistent: the ids come from a list),
 * in the order of `ids`; missing ones left out.
 */
export async function getCustomers(organizationId: string, ids: readonly string[]): Promise<Customer[]> {
  const read = await batchReadMany(
    ids.map((id) => ({ key: customerKey(organizationId, id), from: CustomerEntity.parse })),
    { consistent: false },
  );
  return read.filter((c): c is Customer => c !== null);
}

/** Writes many new customers at once (`putItems`: 25 a `BatchWriteItem`; for seeding and benchmarks, not for requests). */
export const putCustomers = (customers: readonly Customer[]): Promise<void> => putItems(customers.map((c) => CustomerEntity.item(c)));

/** The ids of the organization's customers with the e-mail address `email` (any case), the oldest first, at most `limit`. */
export async function findCustomerIdsByEmail(organizationId: string, email: string, limit = 10): Promise<string[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': customersByEmail(organizationId, email).gsi1pk },
      ProjectionExpression: 'id',
      Limit: limit,
    }),
  );
  return (Items ?? []).map((i) => String(i.id));
}

/**
 * Moves every customer still in its organization's former single partition (`formerCustomersPartition`) to its own
 * partition (`customerKey`), each in one transaction: the item as read put under its new key (never over one there)
 * and the old one deleted (only while it has not changed since it was read: its `updatedAt` and `lastPaymentTime`).
 * An operator's one-off command after the partitions were split (`npm run -s admin -- move-customers`): it reads the
 * table with `scanTable`, never behind a route. Answers how many it moved and how many changed while it ran (left
 * where they are: running it again moves them, and moves nothing twice).
 */
export async function moveFormerCustomers(): Promise<{ moved: number; changedMeanwhile: number }> {
  let moved = 0;
  let changedMeanwhile = 0;
  const scan = {
    FilterExpression: 'entity = :customer AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':customer': CustomerEntity.kind, ':sk': 'CUSTOMER#' },
  };
  await scanTable(scan, async (items) => {
    for (const item of items) {
      const { organizationId, id } = CustomerEntity.parse(item);
      if (item.pk !== formerCustomersPartition(organizationId)) continue;
      const key = customerKey(organizationId, id);
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName(), Item: { ...item, ...key }, ConditionExpression: 'attribute_not_exists(pk)' } },
              {
                Delete: {
                  TableName: tableName(),
                  Key: { pk: item.pk, sk: item.sk },
                  ConditionExpression: 'updatedAt = :updated AND (attribute_not_exists(lastPaymentTime) OR lastPaymentTime = :paid)',
                  ExpressionAttributeValues: { ':updated': item.updatedAt, ':paid': item.lastPaymentTime ?? '' },
                },
              },
            ],
          }),
        );
        moved++;
      } catch (e) {
        // Changed since it was read (a payment, an edit): left for the next run.
        if (!cancellationReasons(e)) throw e;
        changedMeanwhile++;
      }
    }
  });
  return { moved, changedMeanwhile };
}
