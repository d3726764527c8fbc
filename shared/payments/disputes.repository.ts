/**
 * Disputes of an organization (`DISPUTE#<orgId>#<id>` / `DISPUTE`: the id is the client's, unique per organization;
 * listed through gsi1 by creation and gsi2 by last update under `DISPUTES#<orgId>`, like catalog records), and the
 * claim each dispute holds on its transaction (`TRANSACTION#<transactionId>` / `DISPUTE`: one dispute per
 * transaction). A dispute is created once (`attribute_not_exists`) together with its claim, its event and its
 * journal; its status changes only under the condition that it is still the status it was read in.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DisputeClaimEntity } from './dispute-claim.entity.ts';
import { type Dispute, DisputeEntity } from './dispute.entity.ts';
import type { DisputeStatus } from './disputes.rules.ts';
import { isDisputeId } from './disputes.rules.ts';
import { SandboxDisputeEntity } from './sandbox-dispute.entity.ts';
import { TransactionEntity } from './transaction.entity.ts';
import { db, tableName } from '../platform/db/client.ts';
import { catalogListing } from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** A new dispute, once per (organization, id). */
export function putNewDispute(d: Dispute): TransactItem {
  return { Put: { TableName: tableName(), Item: DisputeEntity.item(d), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The transaction's dispute claim, once per transaction: a second dispute of one transaction is refused. */
export function putDisputeClaim(d: Dispute): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: DisputeClaimEntity.item({ transactionId: d.transactionId, organizationId: d.organizationId, disputeId: d.id, createdAt: d.createdAt }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The condition a new dispute puts on its transaction (it does not change it): still the organization's, in one of
 * `statuses`, and refunded (or being refunded) no more than `refundedMinor`, as read when the disputed amount was
 * checked against what is left of the payment.
 */
export function transactionStillDisputable(organizationId: string, transactionId: string, statuses: readonly string[], refundedMinor: number): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: TransactionEntity.key({ id: transactionId }),
      ConditionExpression:
        `organizationId = :org AND #status IN (${statuses.map((_, n) => `:s${n}`).join(', ')})` +
        ' AND (attribute_not_exists(refundedMinor) OR refundedMinor <= :refunded)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':org': organizationId, ':refunded': refundedMinor, ...Object.fromEntries(statuses.map((x, n) => [`:s${n}`, x])) },
    },
  };
}

/** The dispute that holds `transactionId`'s claim, if any, and its decision once decided. */
export async function getDisputeClaim(
  transactionId: string,
): Promise<{ organizationId: string; disputeId: string; decidedAt: string | null; takenMinor: number } | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: DisputeClaimEntity.key({ transactionId }), ConsistentRead: true }));
  const claim = DisputeClaimEntity.parseOrNull(Item);
  return claim && { organizationId: claim.organizationId, disputeId: claim.disputeId, decidedAt: claim.decidedAt ?? null, takenMinor: claim.takenMinor ?? 0 };
}

/**
 * For a refund's claim: the transaction has no dispute (`takenMinor` null), or one decided that took `takenMinor` of it,
 * as read (the refund is bounded by what it left). An open dispute holds the payment's money: no refund then. A
 * dispute's own claim checks in turn that no refund was added since it read the transaction, so a refund and a dispute
 * never both take the same money.
 */
export const noOpenDisputeOn = (transactionId: string, takenMinor: number | null): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: DisputeClaimEntity.key({ transactionId }),
    ConditionExpression: takenMinor === null ? 'attribute_not_exists(pk)' : 'attribute_exists(decidedAt) AND takenMinor = :taken',
    ...(takenMinor === null ? {} : { ExpressionAttributeValues: { ':taken': takenMinor } }),
  },
});

/** The dispute's decision on its claim, for the transaction that decides it: what it took of the payment. */
export const decideDisputeClaim = (transactionId: string, takenMinor: number, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: DisputeClaimEntity.key({ transactionId }),
    UpdateExpression: 'SET decidedAt = :at, takenMinor = :taken',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':at': at, ':taken': takenMinor },
  },
});

/** Moves `d` (as read, in status `from`) to `d.status`, on the condition that it is still `from`. */
export function moveDispute(d: Dispute, from: DisputeStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: DisputeEntity.key(d),
      UpdateExpression: `SET #status = :to, updatedAt = :at, gsi2sk = :gsi2sk${d.resolvedAt ? ', resolvedAt = :resolved' : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #status = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':to': d.status,
        ':from': from,
        ':at': d.updatedAt,
        ':gsi2sk': catalogListing('DISPUTE', d.organizationId, d.id, d.createdAt, d.updatedAt).gsi2sk,
        ...(d.resolvedAt ? { ':resolved': d.resolvedAt } : {}),
      },
    },
  };
}

/** The organization's dispute `id`; null for unknown and malformed ids. */
export async function getDispute(organizationId: string, id: string): Promise<Dispute | null> {
  if (!isDisputeId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: DisputeEntity.key({ organizationId, id }), ConsistentRead: true }));
  return DisputeEntity.parseOrNull(Item);
}

/** One offset page of the organization's disputes (see shared/platform/db/listing.ts), optionally of some statuses only. */
export async function listDisputesPage(organizationId: string, options: Omit<CatalogListOptions, 'filter'>, statuses?: readonly DisputeStatus[]) {
  const filter: CatalogListOptions['filter'] = statuses?.length
    ? {
        expression: `#st IN (${statuses.map((_, n) => `:st${n}`).join(', ')})`,
        names: { '#st': 'status' },
        values: Object.fromEntries(statuses.map((s, n) => [`:st${n}`, s])),
      }
    : undefined;
  const page = await listCatalogPage('DISPUTE', organizationId, { ...options, ...(filter ? { filter } : {}) });
  return { totalCount: page.totalCount, items: page.items.map(DisputeEntity.parse) };
}

/** The pointer from a dispute the sandbox processor opened to its organization, written with the dispute. */
export function putSandboxDisputePointer(d: Dispute): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: SandboxDisputeEntity.item({ disputeId: d.id, organizationId: d.organizationId }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The organization of a dispute the sandbox processor opened; null when it opened none with this id. */
export async function getSandboxDisputeOrganization(disputeId: string): Promise<string | null> {
  if (!isDisputeId(disputeId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SandboxDisputeEntity.key({ disputeId }), ConsistentRead: true }));
  return SandboxDisputeEntity.parseOrNull(Item)?.organizationId ?? null;
}
