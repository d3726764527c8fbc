/**
 * The records of changes to subscriptions: cancellations, pauses and reactivations. Each is a catalog record of the
 * organization (`SUBCANCEL#<id>`, `SUBPAUSE#<id>`, `SUBREACT#<id>`), listed through gsi1 by creation and gsi2 by last
 * update. Each is written in the same transaction as the change of its subscription (whose version condition makes
 * the pair happen once), so a record and its subscription never disagree.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import type { Entity } from '../platform/db/entity.ts';
import { catalogPartition } from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { CancellationEntity } from './cancellation.entity.ts';
import type { Cancellation, ChangeRecord, PauseRecord, Reactivation } from './changes.rules.ts';
import { PauseEntity } from './pause.entity.ts';
import { ReactivationEntity } from './reactivation.entity.ts';

export type ChangeKind = 'SUBCANCEL' | 'SUBPAUSE' | 'SUBREACT';

/** The record of each kind of change. */
export interface ChangeRecords {
  SUBCANCEL: Cancellation;
  SUBPAUSE: PauseRecord;
  SUBREACT: Reactivation;
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

const entities: { [K in ChangeKind]: Entity<ChangeRecords[K], { id: string }> } = {
  SUBCANCEL: CancellationEntity,
  SUBPAUSE: PauseEntity,
  SUBREACT: ReactivationEntity,
};

/** The item of a change record (written whole: every change replaces it). */
export const putChange = <K extends ChangeKind>(kind: K, r: ChangeRecords[K]): TransactItem => ({
  Put: { TableName: tableName(), Item: entities[kind].item(r) },
});

/** The organization's record of `kind` with this id, or null (another organization's is null too). */
export async function getChange<K extends ChangeKind>(kind: K, organizationId: string, id: string): Promise<ChangeRecords[K] | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: entities[kind].key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? entities[kind].parse(Item) : null;
}

/** One page of the organization's records of `kind`. */
export async function listChangePage<K extends ChangeKind>(kind: K, organizationId: string, options: CatalogListOptions) {
  const page = await listCatalogPage(kind, organizationId, options);
  return { totalCount: page.totalCount, items: page.items.map((i) => entities[kind].parse(i)) };
}

/** Every record of `kind` of the organization (for sorts that are not an index: at most a few thousand). */
export async function listAllChanges<K extends ChangeKind>(kind: K, organizationId: string): Promise<ChangeRecords[K][]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': catalogPartition(kind, organizationId) },
  });
  return items.map((i) => entities[kind].parse(i));
}
