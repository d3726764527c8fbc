/**
 * The one DynamoDB document client of a function, created at module scope. Region, credentials and (locally)
 * the endpoint come from the standard AWS environment variables: credentials from the environment only
 * (`fromEnv`), as Lambda provides them.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { captureAWSv3Client } from '../observability.ts';
import type { TransactItem } from './types.ts';

export const db = DynamoDBDocumentClient.from(captureAWSv3Client(new DynamoDBClient({ credentials: fromEnv() })), {
  marshallOptions: { removeUndefinedValues: true },
});

/** Name of the single table (read per call so tests and scripts can set the environment first). */
export const tableName = (): string => config.tableName;

/** True when DynamoDB refused a write because its condition did not hold. */
export const isConditionFailed = (e: unknown): boolean => e instanceof Error && e.name === 'ConditionalCheckFailedException';

/**
 * For a cancelled transaction, the reason code of each item in order (`None` for the items that were fine),
 * or null when the error is not a transaction cancellation.
 */
export function cancellationReasons(e: unknown): string[] | null {
  if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') return null;
  const reasons = (e as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? 'None');
}

/**
 * The items of one transaction in named parts, in order: `[name, items]`. What DynamoDB answers about a cancelled
 * transaction (a reason per item, in the order sent) is read by part name (`failedParts`), never by position, so
 * adding an item to a transaction cannot change what a refusal means.
 */
export type NamedParts<N extends string> = ReadonlyArray<readonly [N, readonly TransactItem[]]>;

/** The items of `parts`, in order, for `transactWrite` / `tryTransactWrite`. */
export const partItems = <N extends string>(parts: NamedParts<N>): TransactItem[] => parts.flatMap(([, items]) => items);

/**
 * The names of the parts with an item whose condition failed (`ConditionalCheckFailed`), from a cancelled
 * transaction of `parts` (its error, or its reasons as `tryTransactWrite` gives them); null when `e` is no
 * transaction cancellation.
 */
export function failedParts<N extends string>(e: unknown, parts: NamedParts<N>): Set<N> | null {
  const reasons = Array.isArray(e) ? (e as string[]) : cancellationReasons(e);
  if (!reasons) return null;
  const failed = new Set<N>();
  let at = 0;
  for (const [name, items] of parts) {
    if (reasons.slice(at, at + items.length).includes('ConditionalCheckFailed')) failed.add(name);
    at += items.length;
  }
  return failed;
}

/** The reason codes of each part of a cancelled transaction of `parts` (from `cancellationReasons`), by name. */
export function partReasons<N extends string>(reasons: readonly string[], parts: NamedParts<N>): Map<N, string[]> {
  const byName = new Map<N, string[]>();
  let at = 0;
  for (const [name, items] of parts) {
    byName.set(name, [...(byName.get(name) ?? []), ...reasons.slice(at, at + items.length)]);
    at += items.length;
  }
  return byName;
}

/** What a cancelled transaction answered about one of its items: its reason code, and the item as it was. */
export interface CancelledItem {
  /** `ConditionalCheckFailed`, `TransactionConflict`, …; `None` for an item that was fine. */
  code: string;
  /** The item as it was when its condition failed (sent back by `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), unmarshalled. */
  item: Record<string, unknown> | undefined;
}

/**
 * What the cancelled transaction `e` answered about each item of its part `name`, in order; null when `e` is no
 * transaction cancellation. `parts` end the transaction: all of its items, or only the last ones (a charge's claim
 * items, which the charge engine sends after its own), so they are counted from its end.
 */
export function cancelledPart<N extends string>(e: unknown, parts: NamedParts<N>, name: N): CancelledItem[] | null {
  if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') return null;
  const reasons = (e as Error & { CancellationReasons?: Array<{ Code?: string; Item?: Parameters<typeof unmarshall>[0] }> }).CancellationReasons ?? [];
  const answered: CancelledItem[] = [];
  let at = Math.max(0, reasons.length - partItems(parts).length);
  for (const [part, items] of parts) {
    if (part === name) {
      answered.push(...reasons.slice(at, at + items.length).map((r) => ({ code: r.Code ?? 'None', item: r.Item ? unmarshall(r.Item) : undefined })));
    }
    at += items.length;
  }
  return answered;
}

/**
 * The item of part `name` as it was when its condition failed, from the cancelled transaction `e` of `parts` (see
 * `cancelledPart`); undefined when there was none.
 */
export const cancelledPartItem = <N extends string>(e: unknown, parts: NamedParts<N>, name: N): Record<string, unknown> | undefined =>
  cancelledPart(e, parts, name)?.find((r) => r.item)?.item;

/**
 * `TransactWriteItems`, retried a few times when DynamoDB cancels it only because another transaction was
 * touching the same items (`TransactionConflict`); a failed condition is never retried.
 */
export async function transactWrite(items: TransactItem[], attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (e) {
      if (!isContentionOnly(cancellationReasons(e)) || attempt >= attempts) throw e;
      await backoff(attempt);
    }
  }
}

/**
 * Waits before retry number `attempt` (1-based) of a write that contention stood in the way of: a random time up
 * to `min(capMs, baseMs · 2^attempt)` ("full jitter"), so writers that collided spread out instead of colliding again.
 */
export const backoff = (attempt: number, baseMs = 10, capMs = 250): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

/** True when DynamoDB cancelled a transaction only because other transactions were writing the same items. */
export const isContentionOnly = (reasons: readonly string[] | null): boolean =>
  !!reasons?.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');

/**
 * Revoke the credential item at `key` (`revokedAt = now`) if it belongs to `owner` (attribute names and the values
 * they must have, e.g. `{merchantId}`): 'revoked', 'already_revoked' (its owner's, revoked before), or 'not_found'
 * (missing, or someone else's: ids cannot be probed across owners). One conditional `UpdateItem`.
 */
export async function revokeOwnedItem(
  key: { pk: string; sk: string },
  owner: Readonly<Record<string, string>>,
  now: string,
): Promise<'revoked' | 'already_revoked' | 'not_found'> {
  const names = Object.keys(owner);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET revokedAt = :now',
        ConditionExpression: [...names.map((_, i) => `#o${i} = :o${i}`), 'attribute_not_exists(revokedAt)'].join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#o${i}`, name])),
        ExpressionAttributeValues: { ':now': now, ...Object.fromEntries(names.map((name, i) => [`:o${i}`, owner[name]])) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'revoked';
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    // The item that failed the condition comes in DynamoDB's typed form: the document client does not convert it.
    const raw = (e as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    const old = raw ? unmarshall(raw) : undefined;
    return old && names.every((name) => old[name] === owner[name]) ? 'already_revoked' : 'not_found';
  }
}

/** A credential's `lastUsedAt` is recorded at most once a minute, to keep its reads cheap. */
export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Records the use of a credential's item (`lastUsedAt = now`) when its last use, as read (`lastUsedAt`), is a minute
 * old or more — otherwise there is no call at all — and never on a revoked or missing item: one conditional
 * `UpdateItem`, whose failed condition is no error.
 */
export async function touchLastUsed(key: { pk: string; sk: string }, lastUsedAt: string | null, now: Date): Promise<void> {
  if (lastUsedAt && now.getTime() - Date.parse(lastUsedAt) < LAST_USED_INTERVAL_MS) return;
  await updateIfCondition({
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET lastUsedAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':cutoff': new Date(now.getTime() - LAST_USED_INTERVAL_MS).toISOString() },
  });
}

/**
 * One item of a batch read: its key, and how its record is made from the item. A module offers reads of its own
 * records (`merchantRead`, …) so another can fetch them in the same `BatchGetItem` as its own, through its service.
 */
/**
 * Takes the next number of the counter item `key` (1 for a new counter): one atomic increment, never refused, so
 * no two callers ever get the same number (a number is skipped when the transaction that uses it does not land).
 */
export async function nextInCounter(key: { pk: string; sk: string }): Promise<number> {
  const out = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #last :one',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes!.last);
}

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

/** Every item of a `Query`, following `LastEvaluatedKey` page by page. */
export async function queryAll(input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Every item of one partition of `gsi1`. */
export const queryGsi1 = (gsi1pk: string) =>
  queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi1pk },
  });

/**
 * A conditional `UpdateItem` that answers the item as it is afterwards, or null when the condition did not hold
 * (typically: the item does not exist, so an update never creates one).
 */
export async function updateIfCondition(input: Omit<UpdateCommandInput, 'ReturnValues'>): Promise<Record<string, unknown> | null> {
  try {
    const { Attributes } = await db.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return Attributes ?? null;
  } catch (e) {
    if (isConditionFailed(e)) return null;
    throw e;
  }
}

/**
 * One `TransactWriteItems` try (no retry of its own): null when it landed, else why DynamoDB cancelled it (the reasons
 * per item, and the error); any other failure is thrown. An attempt of `untilLanded` decides what the reasons mean.
 */
export async function tryTransactWrite(items: TransactItem[]): Promise<{ reasons: string[]; error: unknown } | null> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return null;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    return { reasons, error };
  }
}

/** What an attempt of `untilLanded` answers when only contention stood in the way (it is tried again). */
export const CONTENDED = Symbol('contended');

/**
 * How long a request keeps retrying a write that only contention stands in the way of (well inside the default
 * 10 s function timeout). An operation whose settlement still has not landed by then is left to the reconciler.
 */
export const CONTENTION_BUDGET_MS = 6_000;

/**
 * Runs `attempt` until it answers something other than `CONTENDED`, waiting a full-jitter backoff between tries,
 * for at most `budgetMs`: then it answers `CONTENDED`. An attempt re-reads whatever its writes' conditions depend on.
 */
export async function untilLanded<T>(attempt: () => Promise<T | typeof CONTENDED>, budgetMs = CONTENTION_BUDGET_MS): Promise<T | typeof CONTENDED> {
  const deadline = Date.now() + budgetMs;
  for (let n = 1; ; n++) {
    const answer = await attempt();
    if (answer !== CONTENDED || Date.now() >= deadline) return answer;
    await backoff(Math.min(n, 5));
  }
}
