/**
 * The unsettled-operations index (gsi3, sparse): a charge's transaction while it is `sending` and a refund while it
 * is `pending` carry `UNSETTLED#<shard>` / `<createdAt>#<operation>#<id>` (`unsettled`, in transaction.entity.ts),
 * written with the claim and removed by the settlement. What the reconciler reads: the operations claimed before a
 * time and still not settled, one Query per shard (never a Scan).
 */
import { queryAll, tableName } from '../platform/db/client.ts';
import { RefundEntity } from './refund.entity.ts';
import type { Refund } from './refunds.rules.ts';
import { type Transaction, TransactionEntity, UNSETTLED_SHARDS, unsettledOf } from './transaction.entity.ts';

export type Unsettled = { operation: 'charge'; transaction: Transaction } | { operation: 'refund'; refund: Refund };

/** Every operation claimed before `before` (ISO) and not settled yet, oldest first; of one organization when given. */
export async function listUnsettled(before: string, organizationId?: string): Promise<Unsettled[]> {
  const shards = await Promise.all(
    Array.from({ length: UNSETTLED_SHARDS }, (_, shard) =>
      queryAll({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before',
        ...(organizationId ? { FilterExpression: 'organizationId = :org' } : {}),
        ExpressionAttributeValues: { ':pk': unsettledOf(shard).gsi3pk, ':before': before, ...(organizationId ? { ':org': organizationId } : {}) },
      }),
    ),
  );
  return shards
    .flat()
    .sort((a, b) => String(a.gsi3sk).localeCompare(String(b.gsi3sk)))
    .map(
      (i): Unsettled =>
        i.entity === 'refund' ? { operation: 'refund', refund: RefundEntity.parse(i) } : { operation: 'charge', transaction: TransactionEntity.parse(i) },
    );
}
