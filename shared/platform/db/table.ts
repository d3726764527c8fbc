/**
 * The single table's shape, shared by the CDK stack and the local stack so both create the same table.
 * Items carry generic key attributes (`pk`, `sk`, `gsiNpk`, `gsiNsk`) and an `entity` attribute.
 */
export const tableKeys = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Generic secondary indexes; every one projects all attributes. */
export const globalIndexes = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  // A customer's records, in the order of gsi1 (creation): its sort key is theirs.
  { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi1sk' },
  // A subscription's payments, in the order of gsi1 (creation) too.
  { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi1sk' },
] as const;

/** Attribute DynamoDB TTL deletes items by (epoch seconds). */
export const ttlAttribute = 'ttl';

/** Value of `entity` on transactional-outbox event items; the stream filter matches on it. */
export const eventEntity = 'event';
