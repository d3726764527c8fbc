/**
 * The one DynamoDB document client of a function, created at module scope. Region, credentials and (locally)
 * the endpoint come from the standard AWS environment variables: credentials from the environment only
 * (`fromEnv`), as Lambda provides them. Its timeouts: ../aws/sdk-timeouts.ts.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type BatchWriteCommandInput,
  DeleteCommand,
  PutCommand,
  type PutCommandInput,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { stillThrottled } from './busy.ts';
import { goneBySendingAgain, refusedItem } from './refused-item.ts';
import { captureAWSv3Client, withoutSdkLogging } from '../observability.ts';
import { sdkClientOptions } from '../aws/sdk-timeouts.ts';

export const db = DynamoDBDocumentClient.from(captureAWSv3Client(withoutSdkLogging(new DynamoDBClient({ credentials: fromEnv(), ...sdkClientOptions }))), {
  marshallOptions: { removeUndefinedValues: true },
});

/** Name of the single table (read per call so tests and scripts can set the environment first). */
export const tableName = (): string => config.tableName;

/** True when DynamoDB refused a write because its condition did not hold. */
export const isConditionFailed = (e: unknown): boolean => e instanceof Error && e.name === 'ConditionalCheckFailedException';

/**
 * Writes `item` as a new item (`attribute_not_exists(pk)`): true when it is written, false when another item holds
 * its key. It is `sendIfCondition`'s put, marked with its own `writeId`: the SDK sends a call again when its answer did
 * not come, and the first may have landed — found there with this write's id, it is written, not refused; two writers
 * of the very same item still write different ids, so the second loses.
 */
export const putNew = (item: Record<string, unknown>): Promise<boolean> =>
  sendIfCondition(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));

/** `putNew` of an item whose key is new by construction (a random id): another item under it is a bug, thrown. */
export async function putFresh(item: Record<string, unknown>): Promise<void> {
  if (!(await putNew(item))) throw new Error(`Another item holds the new key ${String(item.pk)} / ${String(item.sk)}`);
}

/**
 * Revoke the credential item at `key` (`revokedAt = now`, and `updatedAt` too with `stampUpdatedAt`) if it belongs to
 * `owner` (attribute names and the values they must have, e.g. `{merchantId}`): 'revoked' with the item afterwards,
 * 'already_revoked' with the item as it was (its owner's, revoked before), or 'not_found' (missing, or someone else's:
 * ids cannot be probed across owners). One conditional `UpdateItem`.
 */
export async function revokeOwnedItem(
  key: { pk: string; sk: string },
  owner: Readonly<Record<string, string>>,
  now: string,
  { stampUpdatedAt = false } = {},
): Promise<{ outcome: 'revoked' | 'already_revoked'; item: Record<string, unknown> } | { outcome: 'not_found' }> {
  const names = Object.keys(owner);
  const outcome = await updateOrRefused({
    TableName: tableName(),
    Key: key,
    UpdateExpression: stampUpdatedAt ? 'SET revokedAt = :now, updatedAt = :now' : 'SET revokedAt = :now',
    ConditionExpression: [...names.map((_, i) => `#o${i} = :o${i}`), 'attribute_not_exists(revokedAt)'].join(' AND '),
    ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#o${i}`, name])),
    ExpressionAttributeValues: { ':now': now, ...Object.fromEntries(names.map((name, i) => [`:o${i}`, owner[name]])) },
  });
  if ('updated' in outcome) return { outcome: 'revoked', item: outcome.updated };
  const old = outcome.refused;
  return old && names.every((name) => old[name] === owner[name]) ? { outcome: 'already_revoked', item: old } : { outcome: 'not_found' };
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
 * Takes the next number of the counter item `key` (1 for a new counter): one atomic increment, never refused, so
 * no two callers ever get the same number (a number is skipped when the transaction that uses it does not land).
 */
export const nextInCounter = (key: { pk: string; sk: string }): Promise<number> => addToCounter(key, 1);

/**
 * Raises the counter item `key` by `n` (from 0 for a new counter) in one atomic increment; answers its new last number.
 * Raised once however many times the SDK sends it (`updateIfCondition`: the mark is its only condition).
 */
export async function addToCounter(key: { pk: string; sk: string }, n: number): Promise<number> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD #last :n',
    ExpressionAttributeNames: { '#last': 'last' },
    ExpressionAttributeValues: { ':n': n },
  });
  return Number(item!.last);
}

/**
 * Writes `items` as they are (no condition), 25 per `BatchWriteItem`, one call after another; what DynamoDB leaves
 * unprocessed (throttling) is sent again after a short wait, a few times, then it throws.
 */
export async function putItems(items: readonly Record<string, unknown>[]): Promise<void> {
  const table = tableName();
  for (let i = 0; i < items.length; i += 25) {
    let pending: NonNullable<BatchWriteCommandInput['RequestItems']>[string] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 1; pending.length; attempt++) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = UnprocessedItems?.[table] ?? [];
      if (pending.length && attempt >= 8) throw stillThrottled('BatchWriteItem left items unwritten');
    }
  }
}

/**
 * Every item of a `Query`, following `LastEvaluatedKey` page by page; with `enough`, no page is read once that many
 * items are in (the last page read may bring more: the caller keeps what it needs).
 */
export async function queryAll(input: Omit<QueryCommandInput, 'ExclusiveStartKey'>, enough = Infinity): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < enough);
  return items;
}

/**
 * Segments of an operator's whole-table read. Each segment is read on its own, so the table is read side by side
 * instead of one page after another (on DynamoDB Local a whole table read one page at a time also gets slower with
 * each page).
 */
const SCAN_SEGMENTS = 16;

/**
 * An operator's one-off read of the whole table, never behind a route: a filtered parallel Scan (`SCAN_SEGMENTS`
 * segments read side by side, each page by page), `onPage` awaited with each page's items before its segment's next.
 */
export async function scanTable(
  input: Omit<ScanCommandInput, 'TableName' | 'Segment' | 'TotalSegments' | 'ExclusiveStartKey'>,
  onPage: (items: Record<string, unknown>[]) => Promise<void>,
): Promise<void> {
  const readSegment = async (Segment: number) => {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ ...input, TableName: tableName(), Segment, TotalSegments: SCAN_SEGMENTS, ExclusiveStartKey }));
      await onPage(page.Items ?? []);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  };
  await Promise.all(Array.from({ length: SCAN_SEGMENTS }, (_, segment) => readSegment(segment)));
}

/** Every item of one partition of `gsi1`; with `enough`, the first that many (one page of them). */
export const queryGsi1 = (gsi1pk: string, enough = Infinity) =>
  queryAll(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ...(enough < Infinity ? { Limit: enough } : {}),
    },
    enough,
  );

/** The attribute a conditional write marks its item with: its own random id (see `marked`). */
const WRITE_ID = 'writeId';

/**
 * The input of a conditional put or update marked as one write: it sets `writeId` to its own random id, asks for the
 * item a refusal found (`ALL_OLD`, no extra read), and holds only where the item does not carry that id already. The
 * SDK sends a call again when its answer did not come (a timeout, a reset connection: up to 3 attempts), and the first
 * may have landed: the second is then refused (never applied twice, an `ADD` neither), and the refusal, carrying this
 * very id, tells the write it landed. Another writer's item carries another id, so a second writer still loses.
 */
function marked<I extends PutCommandInput | UpdateCommandInput>(input: I, writeId: string): I {
  const once = 'attribute_not_exists(#writeId) OR #writeId <> :writeId';
  const marks = {
    ConditionExpression: input.ConditionExpression ? `(${input.ConditionExpression}) AND (${once})` : once,
    ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#writeId': WRITE_ID },
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':writeId': writeId },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  if ('Item' in input) return { ...input, Item: { ...input.Item, [WRITE_ID]: writeId }, ...marks };
  const expression = (input as UpdateCommandInput).UpdateExpression ?? '';
  const set = /(^|\s)SET\s/.test(expression) ? expression.replace(/(^|\s)SET\s+/, '$1SET #writeId = :writeId, ') : `SET #writeId = :writeId ${expression}`;
  return { ...input, UpdateExpression: set, ...marks };
}

/**
 * A conditional write (`PutItem`, `UpdateItem`, `DeleteItem`): true when it landed, false when its condition did not
 * hold (the item was there already, or not there, or changed); any other failure is thrown. A put or an update that
 * landed and is sent again by the SDK is answered true, once applied (`marked`); a delete sent again and refused
 * with nothing there is answered true too (`goneBySendingAgain`).
 */
export async function sendIfCondition(command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  const writeId = randomUUID();
  try {
    await (command instanceof PutCommand
      ? db.send(new PutCommand(marked(command.input, writeId)))
      : command instanceof UpdateCommand
        ? db.send(new UpdateCommand(marked(command.input, writeId)))
        : db.send(new DeleteCommand({ ...command.input, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
    return true;
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    return command instanceof DeleteCommand ? goneBySendingAgain(e) : refusedItem(e)?.[WRITE_ID] === writeId;
  }
}

/**
 * A conditional `UpdateItem` (`marked`): the item as it is afterwards, or the item its refusal found (undefined when
 * there was none), for the caller to tell why. One that landed and is sent again by the SDK answers the item its first
 * sending made.
 */
export async function updateOrRefused(
  input: Omit<UpdateCommandInput, 'ReturnValues' | 'ReturnValuesOnConditionCheckFailure'>,
): Promise<{ updated: Record<string, unknown> } | { refused: Record<string, unknown> | undefined }> {
  const writeId = randomUUID();
  try {
    const { Attributes } = await db.send(new UpdateCommand({ ...marked(input as UpdateCommandInput, writeId), ReturnValues: 'ALL_NEW' }));
    return { updated: Attributes ?? {} };
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    const there = refusedItem(e);
    return there?.[WRITE_ID] === writeId ? { updated: there } : { refused: there };
  }
}

/**
 * `updateOrRefused` answering the item afterwards, or null when the condition did not hold (typically: the item does
 * not exist, so an update never creates one).
 */
export async function updateIfCondition(input: Omit<UpdateCommandInput, 'ReturnValues'>): Promise<Record<string, unknown> | null> {
  const outcome = await updateOrRefused(input);
  return 'updated' in outcome ? outcome.updated : null;
}

/**
 * A record of settings on one item (`key`) of the kind `kind`: sets `fields` (its keys naming attributes; an undefined
 * value is left as it is) and `always` (set on every write: the owner's id, `updatedAt`), creating the item when it is
 * missing, on the condition that the key holds no other kind of item. Answers the item afterwards; throws when the key
 * holds another kind (a wiring mistake).
 */
export async function setSettings(
  key: { pk: string; sk: string },
  kind: string,
  always: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  const set = [...Object.entries(always), ...given];
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: key,
    UpdateExpression: `SET #entity = :entity, ${set.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
    ConditionExpression: 'attribute_not_exists(pk) OR #entity = :entity',
    ExpressionAttributeNames: { '#entity': 'entity', ...Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])) },
    ExpressionAttributeValues: { ':entity': kind, ...Object.fromEntries(set.map(([, value], i) => [`:f${i}`, value])) },
  });
  if (!item) throw new Error(`The ${kind} key ${key.pk} / ${key.sk} holds another kind of item`);
  return item;
}
