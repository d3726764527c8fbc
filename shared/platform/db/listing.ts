/**
 * Offset pages of an organization's catalog records (websites, products, plans, promo codes), as the
 * organization API lists them: sorted by creation (gsi1) or last update (gsi2), optionally within a time
 * range (a key condition when it is on the sort attribute, a filter otherwise), optionally filtered, with the
 * total count of matching records.
 *
 * Cost: the total count reads every record of the organization's collection that matches the key condition
 * (`Select: COUNT`, so nothing is transferred but the count; DynamoDB still charges for the items read), and
 * the page reads `offset + limit` matching records from the chosen end. Both queries run at once. A list is
 * therefore one round trip of O(collection size) read capacity: fine for catalogs of thousands of records,
 * and the reason an organization's catalog is not where millions of records belong.
 *
 * A sharded collection (subscriptions, transactions, invoices: `catalogPartitions`) is read in each of its shards at
 * once: the counts are summed, and each shard's first `offset + limit` matches are merged in the index's order (its
 * sort key, `<timestamp>#<id>`, unique), so a page is what one partition would have given, in one round trip.
 */
import { QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, queryGsi1, scanTable, tableName } from './client.ts';
import * as keys from './keys.ts';
import type { CatalogCollection } from './keys.ts';

export type SortAttribute = 'createdAt' | 'updatedAt';

export interface CatalogListOptions {
  sortBy: SortAttribute;
  sortDirection: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Only records whose `attribute` lies within [from, to] (ISO timestamps, both optional). */
  range?: { attribute: SortAttribute; from?: string; to?: string };
  /** Extra DynamoDB filter on the records (placeholders must not start with `:r` or `#r`). */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

export interface CatalogPage {
  totalCount: number;
  items: Record<string, unknown>[];
}

const index = { createdAt: { name: 'gsi1', pk: 'gsi1pk', sk: 'gsi1sk' }, updatedAt: { name: 'gsi2', pk: 'gsi2pk', sk: 'gsi2sk' } } as const;

/** The query input of one listing partition shared by the count and the page: key condition, range and filter. */
function queryInput(partition: string, o: CatalogListOptions): QueryCommandInput {
  const ix = index[o.sortBy];
  const names: Record<string, string> = { '#rpk': ix.pk, ...o.filter?.names };
  const values: Record<string, unknown> = { ':rpk': partition, ...o.filter?.values };
  let keyCondition = '#rpk = :rpk';
  const filters: string[] = o.filter ? [`(${o.filter.expression})`] : [];
  const r = o.range;
  if (r && (r.from || r.to)) {
    if (r.attribute === o.sortBy) {
      // The sort key is `<timestamp>#<id>`: '#' sorts below every id character and '~' above them.
      names['#rsk'] = ix.sk;
      values[':rfrom'] = r.from ?? '0';
      values[':rto'] = `${r.to ?? '9999'}~`;
      keyCondition += ' AND #rsk BETWEEN :rfrom AND :rto';
    } else {
      names['#rat'] = r.attribute;
      if (r.from) {
        values[':rfrom'] = r.from;
        filters.push('#rat >= :rfrom');
      }
      if (r.to) {
        values[':rto'] = r.to;
        filters.push('#rat <= :rto');
      }
    }
  }
  return {
    TableName: tableName(),
    IndexName: ix.name,
    KeyConditionExpression: keyCondition,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

async function count(input: QueryCommandInput): Promise<number> {
  let total = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey }));
    total += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return total;
}

async function firstMatches(input: QueryCommandInput, ascending: boolean, wanted: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  while (items.length < wanted) {
    const page = await db.send(
      new QueryCommand({
        ...input,
        ScanIndexForward: ascending,
        // Without a filter every item read matches, so read no more than needed.
        ...(input.FilterExpression ? {} : { Limit: wanted - items.length }),
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
    if (!ExclusiveStartKey) break;
  }
  return items.slice(0, wanted);
}

/**
 * One offset page of any `Query` (its key condition and filter) and the total count of its matches: the count and
 * the page's first `offset + limit` matches read at once, as the catalog lists do (the cost above).
 */
export async function queryOffsetPage(input: QueryCommandInput, o: { ascending: boolean; offset: number; limit: number }): Promise<CatalogPage> {
  const [totalCount, matches] = await Promise.all([count(input), o.limit === 0 ? Promise.resolve([]) : firstMatches(input, o.ascending, o.offset + o.limit)]);
  return { totalCount, items: matches.slice(o.offset) };
}

/**
 * The order one partition of an index gives its items, for items read from several of its partitions (the shards of
 * a listing): by the index's sort key `sk` (`<timestamp>#<id>`, unique), ascending or not.
 */
export const inKeyOrder =
  (sk: string, ascending = true) =>
  (a: Record<string, unknown>, b: Record<string, unknown>): number =>
    (String(a[sk]) < String(b[sk]) ? -1 : 1) * (ascending ? 1 : -1);

/** Every item of the gsi1 partitions `gsi1pks` (the shards of one listing), read at once, in gsi1's order. */
export async function queryGsi1Shards(gsi1pks: readonly string[]): Promise<Record<string, unknown>[]> {
  return (await Promise.all(gsi1pks.map((pk) => queryGsi1(pk)))).flat().sort(inKeyOrder('gsi1sk'));
}

/** The queries of an organization's `collection` for `o`: one per shard of it. */
const shardQueries = (collection: CatalogCollection, organizationId: string, o: CatalogListOptions): QueryCommandInput[] =>
  keys.catalogPartitions(collection, organizationId).map((partition) => queryInput(partition, o));

/**
 * The records on `o`'s offset page of the shards' `queries`: each shard's first `offset + limit` matches, merged in
 * the index's order (its sort key, `<timestamp>#<id>`, unique), so a page is what one partition would have given.
 */
async function pageOfShards(queries: readonly QueryCommandInput[], o: CatalogListOptions): Promise<Record<string, unknown>[]> {
  if (o.limit === 0) return [];
  const ascending = o.sortDirection === 'asc';
  const wanted = o.offset + o.limit;
  const shards = await Promise.all(queries.map((input) => firstMatches(input, ascending, wanted)));
  return shards.flat().sort(inKeyOrder(index[o.sortBy].sk, ascending)).slice(o.offset, wanted);
}

/** One offset page of an organization's `collection` and the total count of matching records (every shard of it, merged). */
export async function listCatalogPage(collection: CatalogCollection, organizationId: string, o: CatalogListOptions): Promise<CatalogPage> {
  const queries = shardQueries(collection, organizationId, o);
  const [counts, items] = await Promise.all([Promise.all(queries.map(count)), pageOfShards(queries, o)]);
  return { totalCount: counts.reduce((n, c) => n + c, 0), items };
}

/**
 * The records of an organization's `collection` on one offset page, as `listCatalogPage` gives them, without their
 * total count: for a reader that shows no total, which so reads each shard once instead of twice.
 */
export const listCatalogItems = (collection: CatalogCollection, organizationId: string, o: CatalogListOptions): Promise<Record<string, unknown>[]> =>
  pageOfShards(shardQueries(collection, organizationId, o), o);

/** Every record of an organization's `collection`, in order of creation (every shard of it, merged). */
export const listAllOfCollection = (collection: CatalogCollection, organizationId: string): Promise<Record<string, unknown>[]> =>
  queryGsi1Shards(keys.catalogPartitions(collection, organizationId));

/**
 * The records of `collection` of the organization's customer `customerId`, newest first — the `limit` newest that
 * pass `filter` (all without a limit) — from the customer's own partition of gsi4, page by page until there are
 * enough: what it reads follows the customer's records, whatever the organization's size.
 */
export const listOfCustomer = (
  collection: CatalogCollection,
  organizationId: string,
  customerId: string,
  limit?: number,
  filter?: CatalogListOptions['filter'],
): Promise<Record<string, unknown>[]> => newestOf('gsi4', keys.customerListing(collection, organizationId, customerId).gsi4pk, limit, filter);

/** As `listOfCustomer`, the records of the organization's subscription `subscriptionId` (its partition of gsi5). */
export const listOfSubscription = (
  collection: CatalogCollection,
  organizationId: string,
  subscriptionId: string,
  limit?: number,
  filter?: CatalogListOptions['filter'],
): Promise<Record<string, unknown>[]> => newestOf('gsi5', keys.subscriptionListing(collection, organizationId, subscriptionId).gsi5pk, limit, filter);

/** The `limit` newest records of one partition of an index sorted by `gsi1sk` that pass `filter`. */
async function newestOf(index: 'gsi4' | 'gsi5', partition: string, limit?: number, filter?: CatalogListOptions['filter']): Promise<Record<string, unknown>[]> {
  const items = await queryAll(
    {
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ...(filter ? { FilterExpression: filter.expression, ...(filter.names ? { ExpressionAttributeNames: filter.names } : {}) } : {}),
      ExpressionAttributeValues: { ':pk': partition, ...filter?.values },
      ScanIndexForward: false,
      ...(limit === undefined ? {} : { Limit: limit }),
    },
    limit,
  );
  return items.slice(0, limit);
}

/**
 * Puts every record of a customer (`keys.customerListed`) on gsi4 and every record of a subscription
 * (`keys.subscriptionListed`) on gsi5 where it is not there yet: an operator's one-off command after deploying a
 * version that added one of the indexes (`npm run -s admin -- index-records`), for the records not written since. A
 * whole-table read (`scanTable`), never behind a route; it sets the indexes' partition keys alone (a record's
 * `updatedAt` and everything else stay, and a change written meanwhile carries them already), so it may run beside
 * traffic, and again. Answers how many records it put on an index.
 */
export async function indexListedRecords(): Promise<{ indexed: number }> {
  let indexed = 0;
  const byCustomer = Object.keys(keys.customerListed);
  const bySubscription = Object.keys(keys.subscriptionListed);
  const kindIn = (tag: string, kinds: string[]) => `entity IN (${kinds.map((_, i) => `:${tag}${i}`).join(', ')})`;
  const scan = {
    FilterExpression:
      `(${kindIn('c', byCustomer)} AND attribute_exists(customerId) AND attribute_not_exists(gsi4pk))` +
      ` OR (${kindIn('s', bySubscription)} AND attribute_exists(subscriptionId) AND attribute_not_exists(gsi5pk))`,
    ProjectionExpression: 'pk, sk, entity, organizationId, customerId, subscriptionId, gsi4pk, gsi5pk',
    ExpressionAttributeValues: {
      ...Object.fromEntries(byCustomer.map((kind, i) => [`:c${i}`, kind])),
      ...Object.fromEntries(bySubscription.map((kind, i) => [`:s${i}`, kind])),
    },
  };
  await scanTable(scan, async (items) => {
    for (const item of items) {
      const { pk, sk, entity, organizationId, customerId, subscriptionId, gsi4pk, gsi5pk } = item as Record<string, string | undefined>;
      const set: Record<string, string> = {};
      const customerCollection = keys.customerListed[entity!];
      if (customerCollection && customerId && !gsi4pk) set.gsi4pk = keys.customerListing(customerCollection, organizationId!, customerId).gsi4pk;
      const subscriptionCollection = keys.subscriptionListed[entity!];
      if (subscriptionCollection && subscriptionId && !gsi5pk) {
        set.gsi5pk = keys.subscriptionListing(subscriptionCollection, organizationId!, subscriptionId).gsi5pk;
      }
      const names = Object.keys(set);
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk, sk },
          UpdateExpression: `SET ${names.map((n) => `${n} = :${n}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: Object.fromEntries(names.map((n) => [`:${n}`, set[n]])),
        }),
      );
      indexed++;
    }
  });
  return { indexed };
}

/** A catalog list query of the organization face, as its schema (`catalogListQueryFields`) parses it. */
export interface CatalogListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: 'createdAt' | 'updatedAt';
  search?: string | undefined;
  updatedFrom?: string | undefined;
  updatedTo?: string | undefined;
}

/** Listing options of a catalog list query: its paging and sort, and `updatedFrom`/`updatedTo` on updatedAt. */
export const catalogListOptions = (q: CatalogListQuery): Omit<CatalogListOptions, 'filter'> => ({
  sortBy: q.sortBy,
  sortDirection: q.sortDirection,
  offset: q.offset,
  limit: q.limit,
  ...(q.updatedFrom || q.updatedTo
    ? { range: { attribute: 'updatedAt' as const, ...(q.updatedFrom ? { from: q.updatedFrom } : {}), ...(q.updatedTo ? { to: q.updatedTo } : {}) } }
    : {}),
});

/** A search term as the lowercased search attributes are compared (empty: no search). */
export const searchTerm = (s: string | undefined): string | undefined => (s ? s.toLowerCase() : undefined);
