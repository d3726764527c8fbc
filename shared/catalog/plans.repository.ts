/**
 * Plans. Each plan is its own partition `PLAN#<id>` (buyer checkout reads a plan by id alone), listed per
 * organization through gsi1 (createdAt) and gsi2 (updatedAt). Amounts are integer minor units of the plan's
 * currency. Every update replaces the item on the condition that its `revision` is still the one read.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, sendIfCondition } from '../platform/db/client.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type Plan, PlanEntity } from './plan.entity.ts';

/** Create: the id must be new. */
export const putNewPlan = (p: Plan): TransactItem => ({
  Put: { TableName: tableName(), Item: PlanEntity.item(p), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The plan `id` of `organizationId`, or null (also for another organization's plan). */
export async function getPlan(organizationId: string, id: string): Promise<Plan | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PlanEntity.key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? PlanEntity.parse(Item) : null;
}

/** The plan `id` of any organization (buyer checkout reads a plan by its id alone), or null. */
export async function getPlanById(id: string): Promise<Plan | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PlanEntity.key({ id }) }));
  return PlanEntity.parseOrNull(Item);
}

/**
 * Replace the plan with `next`, on the condition that it still has `readRevision` (and belongs to the same
 * organization). False when another update won.
 */
export async function replacePlan(next: Plan, readRevision: number): Promise<boolean> {
  return sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: PlanEntity.item(next),
      ConditionExpression: 'revision = :read AND organizationId = :org',
      ExpressionAttributeValues: { ':read': readRevision, ':org': next.organizationId },
    }),
  );
}

/**
 * A transaction condition: plan `id` exists in `organizationId` (and, when given, is priced in `currency`; with
 * `chargesBeyondPlanLine`, is recurring or has a setup price: something is left to charge when its plan line is all
 * taken off). Plans are never deleted and their organization, currency and recurrence never change (a setup fee
 * removed later leaves a 100 % code to checkout's refusal of a purchase of nothing).
 */
export const planExists = (organizationId: string, id: string, currency: string | null, chargesBeyondPlanLine = false): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: PlanEntity.key({ id }),
    // A null field is an absent attribute: a plan sold once has no recurringInterval, one without a setup fee no setupPrice.
    ConditionExpression: `attribute_exists(pk) AND organizationId = :org${currency ? ' AND currency = :cur' : ''}${
      chargesBeyondPlanLine ? ' AND (attribute_exists(recurringInterval) OR attribute_exists(setupPrice))' : ''
    }`,
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
  return { totalCount: page.totalCount, plans: page.items.map(PlanEntity.parse) };
}
