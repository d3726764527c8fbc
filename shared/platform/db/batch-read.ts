/**
 * Reads of several records, of several kinds and modules, in one `BatchGetItem`. A module offers reads of its own
 * records (`merchantRead`, …) so another can fetch them in the same call as its own, through its service.
 */
import { BatchGetCommand, type BatchGetCommandInput, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

/** One item of a batch read: its key, and how its record is made from the item. */
export interface ItemRead<T> {
  readonly key: { readonly pk: string; readonly sk: string };
  readonly from: (item: Record<string, unknown>) => T;
}

/** The records of a tuple of reads, each null when its item does not exist. */
export type ReadRecords<R extends readonly ItemRead<unknown>[]> = { -readonly [K in keyof R]: R[K] extends ItemRead<infer T> ? T | null : never };

/** Times a `BatchGetItem` is sent again for the keys DynamoDB left unprocessed (throttling) before giving up. */
const BATCH_GET_ATTEMPTS = 4;

/**
 * The items of `reads` (distinct keys, at most 100) in ONE `BatchGetItem` of strongly consistent reads — sent again,
 * a few times, for the keys DynamoDB left unprocessed — each made into its record, in the order of `reads`; null
 * for an item that does not exist.
 */
export async function batchRead<const R extends readonly ItemRead<unknown>[]>(reads: R): Promise<ReadRecords<R>> {
  const table = tableName();
  let requestItems: BatchGetCommandInput['RequestItems'] = { [table]: { Keys: reads.map((r) => r.key), ConsistentRead: true } };
  const items: Record<string, unknown>[] = [];
  for (let attempt = 1; ; attempt++) {
    const out: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: requestItems }));
    items.push(...(out.Responses?.[table] ?? []));
    const left: BatchGetCommandInput['RequestItems'] = out.UnprocessedKeys?.[table]?.Keys?.length ? out.UnprocessedKeys : undefined;
    if (!left) break;
    if (attempt >= BATCH_GET_ATTEMPTS) throw new Error('BatchGetItem left keys unprocessed after retries');
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    requestItems = left;
  }
  return reads.map((r) => {
    const item = items.find((i) => i.pk === r.key.pk && i.sk === r.key.sk);
    return item ? r.from(item) : null;
  }) as ReadRecords<R>;
}

/** The records of `reads` of one kind (distinct keys, any number), in their order: `batchRead`s of 100 at once. */
export async function batchReadMany<T>(reads: readonly ItemRead<T>[]): Promise<Array<T | null>> {
  const batches: Array<Promise<Array<T | null>>> = [];
  for (let i = 0; i < reads.length; i += 100) batches.push(batchRead(reads.slice(i, i + 100)));
  return (await Promise.all(batches)).flat();
}
