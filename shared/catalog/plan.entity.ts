/**
 * A plan: its own partition `PLAN#<id>` / `PLAN` (buyer checkout reads a plan by id alone), listed per organization
 * through gsi1 (createdAt) and gsi2 (updatedAt). Amounts are integer minor units of the plan's currency.
 * `searchText` is the lowercased name a list's search filters on (DynamoDB's `contains` is case-sensitive).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';
import {
  anchorMethods,
  billingTimings,
  intervalUnits,
  type PricingFormula,
  pricingFormulas,
  type ProductType,
  productTypes,
  type RecurringInterval,
  type Trial,
} from './plans.rules.ts';

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

/** What `search` matches: the name, lowercased. */
const searchTextOf = (p: Plan) => p.name.toLowerCase();

const productOptionValue = v.union([v.string(), v.number(), v.boolean()]);

export const PlanEntity = entity<Plan, { id: string }>({
  kind: 'plan',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    productId: v.string(),
    productType: v.picklist(productTypes),
    name: v.string(),
    currency: v.string(),
    price: v.number(),
    formula: v.picklist(pricingFormulas),
    setupPrice: orNull(v.number()),
    setupApprovalLink: orNull(v.string()),
    description: orNull(v.string()),
    richDescription: orNull(v.string()),
    productOptions: v.optional(v.record(v.string(), productOptionValue), {}),
    recurringInterval: orNull(
      v.object({
        unit: v.picklist(intervalUnits),
        length: v.number(),
        billingTiming: v.picklist(billingTimings),
        periodAnchorInstruction: orNull(v.object({ method: v.picklist(anchorMethods), day: v.number(), time: v.string() })),
      }),
    ),
    trial: orNull(v.object({ unit: v.picklist(intervalUnits), length: v.number() })),
    isActive: v.optional(v.boolean(), false),
    isTrialOnly: v.optional(v.boolean(), false),
    revision: v.number(),
    customFields: v.optional(v.record(v.string(), v.nullable(productOptionValue)), {}),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (p) => catalogItem('PLAN', p.id),
  attributes: (p) => ({ ...catalogListing('PLAN', p.organizationId, p.id, p.createdAt, p.updatedAt), searchText: searchTextOf(p) }),
});
