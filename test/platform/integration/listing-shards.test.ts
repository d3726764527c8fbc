/**
 * A sharded listing (shared/platform/db/listing.ts): the records of a collection whose listing partitions are spread
 * over shards are listed as one partition would list them — every offset page in order, both directions, both
 * indexes, with the total count — and a record from before the shards (in the unsharded partition) with them.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { catalogListing, catalogPartition, catalogPartitions } from '../../../shared/platform/db/keys.ts';
import { listCatalogPage } from '../../../shared/platform/db/listing.ts';
import { requireLocalEndpoint } from '../../support/local-endpoint.ts';

requireLocalEndpoint();

describe('a sharded listing', () => {
  it('lists the records of every shard as one partition would, page by page', async () => {
    const organizationId = randomUUID();
    const records = Array.from({ length: 40 }, (_, i) => ({
      id: `txn_${randomUUID()}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      updatedAt: new Date(Date.UTC(2026, 0, 2, 0, 0, 40 - i)).toISOString(),
    }));
    // The first record as one written before the shards: in the unsharded partition, whatever its id's shard.
    const [old, ...rest] = records;
    const items = [
      {
        ...catalogListing('TRANSACTION', organizationId, old!.id, old!.createdAt, old!.updatedAt),
        gsi1pk: catalogPartition('TRANSACTION', organizationId),
        gsi2pk: catalogPartition('TRANSACTION', organizationId),
      },
      ...rest.map((r) => catalogListing('TRANSACTION', organizationId, r.id, r.createdAt, r.updatedAt)),
    ].map((keys, i) => ({ pk: `TEST#${records[i]!.id}`, sk: 'TEST', id: records[i]!.id, ...keys }));
    await Promise.all(items.map((Item) => db.send(new PutCommand({ TableName: tableName(), Item }))));
    expect(catalogPartitions('TRANSACTION', organizationId)).toHaveLength(8);
    expect(new Set(items.map((i) => i.gsi1pk)).size).toBeGreaterThan(4); // spread over the shards

    for (const sortBy of ['createdAt', 'updatedAt'] as const) {
      for (const sortDirection of ['asc', 'desc'] as const) {
        const expected = [...records].sort((a, b) => (a[sortBy] < b[sortBy] ? -1 : 1) * (sortDirection === 'asc' ? 1 : -1)).map((r) => r.id);
        for (const [offset, limit] of [
          [0, 10],
          [10, 10],
          [35, 10],
          [0, 40],
          [40, 5],
        ] as const) {
          const page = await listCatalogPage('TRANSACTION', organizationId, { sortBy, sortDirection, offset, limit });
          expect(page.totalCount).toBe(40);
          expect(
            page.items.map((i) => i.id),
            `${sortBy} ${sortDirection} ${offset}+${limit}`,
          ).toEqual(expected.slice(offset, offset + limit));
        }
      }
    }
    // A range on the sort attribute, in every shard.
    const ranged = await listCatalogPage('TRANSACTION', organizationId, {
      sortBy: 'createdAt',
      sortDirection: 'asc',
      offset: 0,
      limit: 100,
      range: { attribute: 'createdAt', from: records[10]!.createdAt, to: records[19]!.createdAt },
    });
    expect(ranged.totalCount).toBe(10);
    expect(ranged.items.map((i) => i.id)).toEqual(records.slice(10, 20).map((r) => r.id));
  });
});
