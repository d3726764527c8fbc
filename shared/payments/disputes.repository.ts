/**
 * Disputes of an organization (`DISPUTE#<orgId>#<id>` / `DISPUTE`: the id is the client's, unique per organization;
 * listed through gsi1 by creation and gsi2 by last update under `DISPUTES#<orgId>`, like catalog records), and the
 * claim each dispute holds on its transaction (`TRANSACTION#<transactionId>` / `DISPUTE`: one dispute per
 * transaction). A dispute is created once (`attribute_not_exists`) together with its claim, its event and its
 * journal; its status changes only under the condition that it is still the status it was read in.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DisputeCategory, DisputeStatus } from './disputes.rules.ts';
import { isDisputeId } from './disputes.rules.ts';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

export interface DisputeCustomer {
  id: string | null;
  name: string | null;
}

export interface Dispute {
  id: string;
  organizationId: string;
  transactionId: string;
  /** The processor's id of the dispute; null when the organization reported it. */
  externalDisputeId: string | null;
  /** The card network's case number, when the processor gave one. */
  caseId: string | null;
  status: DisputeStatus;
  category: DisputeCategory;
  reasonCode: string;
  /** Positive integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  customer: DisputeCustomer | null;
  gatewaySlug: string;
  /** When the processor posted the dispute. */
  postedAt: string;
  deadlineAt: string;
  /** When it became won, lost or forfeited. */
  resolvedAt: string | null;
  /** The create request's fingerprint: a repeat with the same body answers the dispute, another body is refused. */
  requestFingerprint: string;
  createdAt: string;
  updatedAt: string;
}

function toItem(d: Dispute): Record<string, unknown> {
  return {
    ...keys.dispute(d.organizationId, d.id),
    ...keys.catalogListing('DISPUTE', d.organizationId, d.id, d.createdAt, d.updatedAt),
    entity: 'dispute',
    ...d,
  };
}

export function fromItem(i: Record<string, unknown>): Dispute {
  const c = i.customer as Record<string, unknown> | null | undefined;
  return {
    id: i.id as string,
    organizationId: i.organizationId as string,
    transactionId: i.transactionId as string,
    externalDisputeId: stringOrNull(i.externalDisputeId),
    caseId: stringOrNull(i.caseId),
    status: i.status as DisputeStatus,
    category: i.category as DisputeCategory,
    reasonCode: i.reasonCode as string,
    amountMinor: Number(i.amountMinor),
    currency: i.currency as string,
    customer: c ? { id: stringOrNull(c.id), name: stringOrNull(c.name) } : null,
    gatewaySlug: i.gatewaySlug as string,
    postedAt: i.postedAt as string,
    deadlineAt: i.deadlineAt as string,
    resolvedAt: stringOrNull(i.resolvedAt),
    requestFingerprint: i.requestFingerprint as string,
    createdAt: i.createdAt as string,
    updatedAt: i.updatedAt as string,
  };
}

/** A new dispute, once per (organization, id). */
export function putNewDispute(d: Dispute): TransactItem {
  return { Put: { TableName: tableName(), Item: toItem(d), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The transaction's dispute claim, once per transaction: a second dispute of one transaction is refused. */
export function putDisputeClaim(d: Dispute): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.transactionDispute(d.transactionId), entity: 'disputeClaim', organizationId: d.organizationId, disputeId: d.id, createdAt: d.createdAt },
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
      Key: keys.catalogItem('TRANSACTION', transactionId),
      ConditionExpression:
        `organizationId = :org AND #status IN (${statuses.map((_, n) => `:s${n}`).join(', ')})` +
        ' AND (attribute_not_exists(refundedMinor) OR refundedMinor <= :refunded)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':org': organizationId, ':refunded': refundedMinor, ...Object.fromEntries(statuses.map((x, n) => [`:s${n}`, x])) },
    },
  };
}

/**
 * For a refund's claim: the transaction has no dispute. A dispute's own claim checks in turn that no refund was
 * added since it read the transaction, so a refund and a dispute never both take the same money.
 */
export const noDisputeOn = (transactionId: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: keys.transactionDispute(transactionId), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The dispute that holds `transactionId`'s claim, if any. */
export async function getDisputeClaim(transactionId: string): Promise<{ organizationId: string; disputeId: string } | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.transactionDispute(transactionId), ConsistentRead: true }));
  return Item ? { organizationId: Item.organizationId as string, disputeId: Item.disputeId as string } : null;
}

/** Moves `d` (as read, in status `from`) to `d.status`, on the condition that it is still `from`. */
export function moveDispute(d: Dispute, from: DisputeStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.dispute(d.organizationId, d.id),
      UpdateExpression: `SET #status = :to, updatedAt = :at, gsi2sk = :gsi2sk${d.resolvedAt ? ', resolvedAt = :resolved' : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #status = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':to': d.status,
        ':from': from,
        ':at': d.updatedAt,
        ':gsi2sk': keys.catalogListing('DISPUTE', d.organizationId, d.id, d.createdAt, d.updatedAt).gsi2sk,
        ...(d.resolvedAt ? { ':resolved': d.resolvedAt } : {}),
      },
    },
  };
}

/** The organization's dispute `id`; null for unknown and malformed ids. */
export async function getDispute(organizationId: string, id: string): Promise<Dispute | null> {
  if (!isDisputeId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.dispute(organizationId, id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
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
  return { totalCount: page.totalCount, items: page.items.map(fromItem) };
}

/** The pointer from a dispute the sandbox processor opened to its organization, written with the dispute. */
export function putSandboxDisputePointer(d: Dispute): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.sandboxDispute(d.id), entity: 'sandboxDispute', organizationId: d.organizationId, disputeId: d.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The organization of a dispute the sandbox processor opened; null when it opened none with this id. */
export async function getSandboxDisputeOrganization(disputeId: string): Promise<string | null> {
  if (!isDisputeId(disputeId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.sandboxDispute(disputeId), ConsistentRead: true }));
  return Item ? (Item.organizationId as string) : null;
}
