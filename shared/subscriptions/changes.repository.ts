/**
 * The records of changes to subscriptions: cancellations, pauses and reactivations. Each is a catalog record of the
 * organization (`SUBCANCEL#<id>`, `SUBPAUSE#<id>`, `SUBREACT#<id>`), listed through gsi1 by creation and gsi2 by last
 * update. Each is written in the same transaction as the change of its subscription (whose version condition makes
 * the pair happen once), so a record and its subscription never disagree.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import { withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { CatalogCollection } from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

export type ChangeKind = 'SUBCANCEL' | 'SUBPAUSE' | 'SUBREACT';

/** What every change record has (the rest is its kind's). */
export interface ChangeRecord {
  id: string;
  organizationId: string;
  subscriptionId: string;
  isTestData: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What every new change record of subscription `s` starts with: its id, owner and test-data flag, made at `at`. */
export const newChangeRecord = (s: { id: string; organizationId: string; isTestData: boolean }, id: string, at: string): ChangeRecord => ({
  id,
  organizationId: s.organizationId,
  subscriptionId: s.id,
  isTestData: s.isTestData,
  createdAt: at,
  updatedAt: at,
});

const entityOf: Record<ChangeKind, string> = { SUBCANCEL: 'subscriptionCancellation', SUBPAUSE: 'subscriptionPause', SUBREACT: 'subscriptionReactivation' };

/** The item of a change record (written whole: every change replaces it). */
export const putChange = <T extends ChangeRecord>(kind: ChangeKind, r: T): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.catalogItem(kind as CatalogCollection, r.id),
      ...keys.catalogListing(kind as CatalogCollection, r.organizationId, r.id, r.createdAt, r.updatedAt),
      entity: entityOf[kind],
      ...withoutNulls(r as unknown as Record<string, unknown>),
    },
  },
});

/** Fields of each kind stored only when set (absent attributes): read back as null. */
const nullable: Record<ChangeKind, readonly string[]> = {
  SUBCANCEL: ['proratedInvoiceId', 'appliedInvoiceId', 'reason', 'description', 'cancelledAt', 'churnedAt', 'churnTimePolicy', 'cancelAt', 'refundId'],
  SUBPAUSE: ['description', 'endAt'],
  SUBREACT: ['cancellationId', 'description', 'renewalAt', 'paymentInstrumentId', 'transactionId'],
};

const fromItem = <T>(kind: ChangeKind, i: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, entity: _e, ...rest } = i;
  return { ...Object.fromEntries(nullable[kind].map((f) => [f, null])), ...rest } as T;
};

/** The organization's record of `kind` with this id, or null (another organization's is null too). */
export async function getChange<T extends ChangeRecord>(kind: ChangeKind, organizationId: string, id: string): Promise<T | null> {
  const out = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem(kind as CatalogCollection, id), ConsistentRead: true }));
  return out.Item && out.Item.organizationId === organizationId ? fromItem<T>(kind, out.Item) : null;
}

/** One page of the organization's records of `kind`. */
export async function listChangePage<T>(kind: ChangeKind, organizationId: string, options: CatalogListOptions) {
  const page = await listCatalogPage(kind as CatalogCollection, organizationId, options);
  return { totalCount: page.totalCount, items: page.items.map((i) => fromItem<T>(kind, i)) };
}

/** Every record of `kind` of the organization (for sorts that are not an index: at most a few thousand). */
export async function listAllChanges<T>(kind: ChangeKind, organizationId: string): Promise<T[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.catalogPartition(kind as CatalogCollection, organizationId) },
  });
  return items.map((i) => fromItem<T>(kind, i));
}
