/**
 * Plans. Each plan is its own partition `PLAN#<id>` (buyer checkout reads a plan by id alone), listed per
 * organization through gsi1 (createdAt) and gsi2 (updatedAt). Amounts are integer minor units of the plan's
 * currency. Every update replaces the item on the condition that its `revision` is still the one read.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PricingFormula, ProductType, RecurringInterval, Trial } from './plans.rules.ts';
import { db, isConditionFailed, tableName } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

export type ProductOptionValue = string | number | boolean;
export type CustomFieldValue = string | number | boolean | null;

export interface Plan {
  id: string;
  organizationId: string;
  productId: string;
  /** The product's type when the plan was made (it cannot change while the product has plans). */
  productType: ProductType;
  name: string;
  currency: string;
  /** Minor units. */
  price: number;
  formula: PricingFormula;
  /** Minor units; null: no setup fee. */
  setupPrice: number | null;
  setupApprovalLink: string | null;
  description: string | null;
  richDescription: string | null;
  productOptions: Record<string, ProductOptionValue>;
  recurringInterval: RecurringInterval | null;
  trial: Trial | null;
  isActive: boolean;
  isTrialOnly: boolean;
  revision: number;
  customFields: Record<string, CustomFieldValue>;
  createdAt: string;
  updatedAt: string;
}

/** What `search` matches: the name, lowercased (DynamoDB's `contains` is case-sensitive). */
const searchTextOf = (p: Plan) => p.name.toLowerCase();

const toItem = (p: Plan) => ({
  ...keys.catalogItem('PLAN', p.id),
  ...keys.catalogListing('PLAN', p.organizationId, p.id, p.createdAt, p.updatedAt),
  entity: 'plan',
  searchText: searchTextOf(p),
  ...withoutNulls(p),
});

const fromItem = (i: Record<string, unknown>): Plan => ({
  id: i.id as string,
  organizationId: i.organizationId as string,
  productId: i.productId as string,
  productType: i.productType as ProductType,
  name: i.name as string,
  currency: i.currency as string,
  price: Number(i.price),
  formula: i.formula as PricingFormula,
  setupPrice: i.setupPrice === undefined || i.setupPrice === null ? null : Number(i.setupPrice),
  setupApprovalLink: stringOrNull(i.setupApprovalLink),
  description: stringOrNull(i.description),
  richDescription: stringOrNull(i.richDescription),
  productOptions: (i.productOptions as Record<string, ProductOptionValue> | undefined) ?? {},
  recurringInterval: (i.recurringInterval as RecurringInterval | undefined) ?? null,
  trial: (i.trial as Trial | undefined) ?? null,
  isActive: Boolean(i.isActive),
  isTrialOnly: Boolean(i.isTrialOnly),
  revision: Number(i.revision),
  customFields: (i.customFields as Record<string, CustomFieldValue> | undefined) ?? {},
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
});

/** Create: the id must be new. */
export const putNewPlan = (p: Plan): TransactItem => ({
  Put: { TableName: tableName(), Item: toItem(p), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The plan `id` of `organizationId`, or null (also for another organization's plan). */
export async function getPlan(organizationId: string, id: string): Promise<Plan | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('PLAN', id), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? fromItem(Item) : null;
}

/** The plan `id` of any organization (buyer checkout reads a plan by its id alone), or null. */
export async function getPlanById(id: string): Promise<Plan | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('PLAN', id) }));
  return Item ? fromItem(Item) : null;
}

/**
 * Replace the plan with `next`, on the condition that it still has `readRevision` (and belongs to the same
 * organization). False when another update won.
 */
export async function replacePlan(next: Plan, readRevision: number): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: toItem(next),
        ConditionExpression: 'revision = :read AND organizationId = :org',
        ExpressionAttributeValues: { ':read': readRevision, ':org': next.organizationId },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * A transaction condition: plan `id` exists in `organizationId` (and, when given, is priced in `currency`).
 * Plans are never deleted and their organization and currency never change, so the condition stays true.
 */
export const planExists = (organizationId: string, id: string, currency: string | null): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.catalogItem('PLAN', id),
    ConditionExpression: `attribute_exists(pk) AND organizationId = :org${currency ? ' AND currency = :cur' : ''}`,
    ExpressionAttributeValues: { ':org': organizationId, ...(currency ? { ':cur': currency } : {}) },
  },
});

export interface PlanListOptions extends Omit<CatalogListOptions, 'filter'> {
  /** Lowercased text the name must contain. */
  search?: string;
}

/** One offset page of the organization's plans and the total count of matches (Query on gsi1/gsi2, never a Scan). */
export async function listPlans(organizationId: string, o: PlanListOptions): Promise<{ totalCount: number; plans: Plan[] }> {
  const { search, ...options } = o;
  const page = await listCatalogPage('PLAN', organizationId, {
    ...options,
    ...(search ? { filter: { expression: 'contains(#search, :search)', names: { '#search': 'searchText' }, values: { ':search': search } } } : {}),
  });
  return { totalCount: page.totalCount, plans: page.items.map(fromItem) };
}
