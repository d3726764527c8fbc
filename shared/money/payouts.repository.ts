/**
 * Withdrawals (payouts) `WITHDRAWAL#<id>` / `WITHDRAWAL`: written once when requested, then moved from status to
 * status by updates conditioned on the status they leave (so each transition happens once). Listed per merchant by
 * creation (gsi1 `WITHDRAWALS#<merchantId>`), in offset pages like the catalog's records.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Withdrawal, WithdrawalStatus } from './payouts.rules.ts';
import { db, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { listCatalogPage } from '../platform/db/listing.ts';
import { WithdrawalEntity } from './withdrawal.entity.ts';

export const putNewWithdrawal = (w: Withdrawal): TransactItem => ({
  Put: { TableName: tableName(), Item: WithdrawalEntity.item(w), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Moves a withdrawal to `to` when it is still `from` (setting `externalWithdrawalId` when given). */
export function moveWithdrawal(id: string, from: WithdrawalStatus, to: WithdrawalStatus, at: string, externalWithdrawalId?: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: WithdrawalEntity.key({ id }),
      UpdateExpression: `SET #status = :to, updatedAt = :at${externalWithdrawalId ? ', externalWithdrawalId = :ext' : ''}`,
      ConditionExpression: '#status = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':from': from, ':at': at, ...(externalWithdrawalId ? { ':ext': externalWithdrawalId } : {}) },
    },
  };
}

export async function getWithdrawal(id: string): Promise<Withdrawal | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: WithdrawalEntity.key({ id }), ConsistentRead: true }));
  return WithdrawalEntity.parseOrNull(Item);
}

/** One page of a merchant's withdrawals, newest first, and how many it has. */
export async function listWithdrawals(merchantId: string, page: { offset: number; limit: number }): Promise<{ totalCount: number; withdrawals: Withdrawal[] }> {
  const { totalCount, items } = await listCatalogPage('WITHDRAWAL', merchantId, { sortBy: 'createdAt', sortDirection: 'desc', ...page });
  return { totalCount, withdrawals: items.map(WithdrawalEntity.parse) };
}
