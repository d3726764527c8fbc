/**
 * The one DynamoDB document client of a function, created at module scope. Region, credentials and (locally)
 * the endpoint come from the standard AWS environment variables: credentials from the environment only
 * (`fromEnv`), as Lambda provides them.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { captureAWSv3Client } from '../observability.ts';
import type { TransactItem } from './types.ts';

export const db = DynamoDBDocumentClient.from(captureAWSv3Client(new DynamoDBClient({ credentials: fromEnv() })), {
  marshallOptions: { removeUndefinedValues: true },
});

/** Name of the single table (read per call so tests and scripts can set the environment first). */
export const tableName = (): string => config.tableName;

/** True when DynamoDB refused a write because its condition did not hold. */
export const isConditionFailed = (e: unknown): boolean =>
  e instanceof Error && e.name === 'ConditionalCheckFailedException';

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
 * The item as it was when the condition of the cancelled transaction's item `index` failed (sent back by
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), unmarshalled; undefined when there was none.
 */
export function cancelledItem(e: unknown, index: number): Record<string, unknown> | undefined {
  if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') return undefined;
  const reason = (e as Error & { CancellationReasons?: Array<{ Item?: Parameters<typeof unmarshall>[0] }> }).CancellationReasons?.[index];
  return reason?.Item ? unmarshall(reason.Item) : undefined;
}

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
      const reasons = cancellationReasons(e);
      const conflictOnly = reasons?.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
      if (!conflictOnly || attempt >= attempts) throw e;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
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
export const queryGsi1 = (gsi1pk: string) => queryAll({
  TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk },
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
