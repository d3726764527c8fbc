/**
 * Every item of the gsi1 partitions `gsi1pks` (the shards of one listing), in gsi1's order: the items
 * `queryGsi1Shards` reads with a Query per shard, read here with ONE PartiQL `SELECT` on the index with the partitions
 * `IN` a list (DynamoDB Local answers it as one request). The checks that read a whole sharded listing after every step
 * of a property (the transactions of an organization after each command) then cost one request instead of one a shard.
 */
import { ExecuteStatementCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/platform/db/client.ts';
import { inKeyOrder } from '../../shared/platform/db/listing.ts';
import { type CatalogCollection, catalogPartitions } from '../../shared/platform/db/keys.ts';

export async function gsi1Items(gsi1pks: readonly string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let NextToken: string | undefined;
  do {
    const page = await db.send(
      new ExecuteStatementCommand({
        Statement: `SELECT * FROM "${tableName()}"."gsi1" WHERE gsi1pk IN [${gsi1pks.map(() => '?').join(', ')}]`,
        Parameters: [...gsi1pks],
        NextToken,
      }),
    );
    items.push(...(page.Items ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return items.sort(inKeyOrder('gsi1sk'));
}

/** Every record of an organization's `collection`, in order of creation: what `listAllOfCollection` reads, in one request. */
export const allOfCollection = (collection: CatalogCollection, organizationId: string): Promise<Record<string, unknown>[]> =>
  gsi1Items(catalogPartitions(collection, organizationId));
