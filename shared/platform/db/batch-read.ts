/**
 * Reads of several records, of several kinds and modules, in one `BatchGetItem`. A module offers reads of its own
 * records (`merchantRead`, …) so another can fetch them in the same call as its own, through its service.
 */
import { BatchGetCommand, type BatchGetCommandInput, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { stillThrottled } from './busy.ts';
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
 * How a batch read reads: strongly consistent (the default) or not (a list's records after the index named them,
 * where a moment's lag is harmless and costs half); only some attributes (`projection`, with its names: the keys are
 * always read too, to match items to reads).
 */
export interface BatchReadOptions {
  readonly consistent?: boolean;
  readonly projection?: { readonly expression: string; readonly names?: Readonly<Record<string, string>> };
}

/** An item's key as one string (a map's key): its `pk` and `sk`. */
export const itemKeyOf = (k: { pk: unknown; sk: unknown }): string => `${String(k.pk)}\u0000${String(k.sk)}`;

/**
 * The items of `reads` (at most 100; a key read twice is asked once) in ONE `BatchGetItem` — sent again, with a
 * growing wait, for the keys DynamoDB left unprocessed (throttling), then it throws — each made into its record, in the
 * order of `reads`; null for an item that does not exist.
 */
export async function batchRead<const R extends readonly ItemRead<unknown>[]>(reads: R, options: BatchReadOptions = {}): Promise<ReadRecords<R>> {
  const table = tableName();
  const keys = [...new Map(reads.map((r) => [itemKeyOf(r.key), { pk: r.key.pk, sk: r.key.sk }])).values()];
  const found = new Map<string, Record<string, unknown>>();
  if (keys.length) {
    const { projection } = options;
    let requestItems: BatchGetCommandInput['RequestItems'] = {
      [table]: {
        Keys: keys,
        ConsistentRead: options.consistent ?? true,
        ...(projection
          ? { ProjectionExpression: `pk, sk, ${projection.expression}`, ...(projection.names ? { ExpressionAttributeNames: { ...projection.names } } : {}) }
          : {}),
      },
    };
    for (let attempt = 1; ; attempt++) {
      const out: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: requestItems }));
      for (const item of out.Responses?.[table] ?? []) found.set(itemKeyOf(item as { pk: unknown; sk: unknown }), item);
      const left: BatchGetCommandInput['RequestItems'] = out.UnprocessedKeys?.[table]?.Keys?.length ? out.UnprocessedKeys : undefined;
      if (!left) break;
      if (attempt >= BATCH_GET_ATTEMPTS) throw stillThrottled('BatchGetItem left keys unprocessed');
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
      requestItems = left;
    }
  }
  return reads.map((r) => {
    const item = found.get(itemKeyOf(r.key));
    return item ? r.from(item) : null;
  }) as ReadRecords<R>;
}

/** The records of `reads` of one kind (any number), in their order: `batchRead`s of 100 at once. */
export async function batchReadMany<T>(reads: readonly ItemRead<T>[], options: BatchReadOptions = {}): Promise<Array<T | null>> {
  const batches: Array<Promise<Array<T | null>>> = [];
  for (let i = 0; i < reads.length; i += 100) batches.push(batchRead(reads.slice(i, i + 100), options));
  return (await Promise.all(batches)).flat();
}
