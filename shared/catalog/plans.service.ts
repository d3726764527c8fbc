/**
 * Plans of an organization: create (on an active product of the organization, counted on it in the same
 * transaction), read, update (revision-guarded) and list.
 */
import { randomBytes } from 'node:crypto';
import type { InferOutput } from 'valibot';
import { cancellationReasons, failedParts, type NamedParts, partReasons, transactWrite } from '../platform/db/transactions.ts';
import type { Plan } from './plan.entity.ts';
import * as repo from './plans.repository.ts';
import { attachPlanToProduct, getProduct, putNewProduct } from './products.repository.ts';
import { newProduct, type ProductInput, productView } from './products.service.ts';
import type { Product } from './product.entity.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { BadRequestError, ConflictError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import { assertPlanShape, currencySign, nextRevision, unknownProductOptions, type RecurringInterval, type Trial } from './plans.rules.ts';
import { planNotFound } from '../domain/unknown-ids.ts';
import type { createPlanRequest, listPlansQuery, updatePlanRequest } from './plans.schemas.ts';
import { PLAN_ID_PATTERN } from './plans.rules.ts';
import { resolveCustomFields } from '../organizations/index.ts';
import { catalogListOptions, searchTerm } from '../platform/db/listing.ts';

export type CreatePlanInput = InferOutput<typeof createPlanRequest>;
export type UpdatePlanInput = InferOutput<typeof updatePlanRequest>;
export type ListPlansQuery = InferOutput<typeof listPlansQuery>;

/** The plan as the organization API shows it: amounts in major units, the currency's sign. */
export const planView = (p: Plan) => ({
  id: p.id,
  organizationId: p.organizationId,
  productId: p.productId,
  name: p.name,
  currency: p.currency,
  currencySign: currencySign(p.currency),
  pricing: { price: toMajorUnits(p.price, p.currency), formula: p.formula },
  setup: p.setupPrice === null ? null : { price: toMajorUnits(p.setupPrice, p.currency), approvalLink: p.setupApprovalLink },
  description: p.description,
  richDescription: p.richDescription,
  productOptions: p.productOptions,
  recurringInterval: p.recurringInterval,
  trial: p.trial,
  isActive: p.isActive,
  isTrialOnly: p.isTrialOnly,
  revision: p.revision,
  customFields: p.customFields,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const newPlanId = () => `plan_${randomBytes(16).toString('hex')}`;
const productNotFound = (productId: string) => new NotFoundError('product.not_found', `This organization has no product ${productId}.`);
const productArchived = (productId: string) =>
  new UnprocessableError('plan.product_archived', `Product ${productId} is archived: plans can only be made on active products.`, { productId });
const revisionConflict = (revision: number) =>
  new ConflictError('plan.revision_conflict', 'The plan was changed by another request; read it again and retry.', { revision });

/** A major-unit amount as minor units of `currency`; 400 naming `field` when it has too many decimals. */
function minor(amount: number, currency: string, field: string): number {
  const value = toMinorUnits(amount, currency);
  if (value === null) {
    const message = `has more decimals than ${currency} allows`;
    throw new BadRequestError('request.validation_failed', `${field}: ${message}`, { issues: [{ field, message }] });
  }
  return value;
}

/** 400 `plan.invalid_for_product` when `productOptions` names an option the product does not have. */
function assertProductOptions(productOptions: Record<string, unknown>, product: Pick<Product, 'options'>): void {
  const unknown = unknownProductOptions(productOptions, product.options);
  if (unknown.length) {
    const issues = unknown.map((name) => ({ field: `productOptions.${name}`, message: 'is not an option of the product' }));
    throw new BadRequestError('plan.invalid_for_product', `${issues[0]!.field}: ${issues[0]!.message}`, { issues });
  }
}

/**
 * The product's plan counter, with one more condition: the product still has the type the plan was checked
 * against (so a type change racing this creation cannot leave a plan that does not fit its product).
 */
function attachToProductOfType(organizationId: string, product: Product, now: string): TransactItem {
  const item = attachPlanToProduct(organizationId, product.id, now);
  const update = item.Update!;
  return {
    Update: {
      ...update,
      ConditionExpression: `(${update.ConditionExpression}) AND #planProductType = :planProductType`,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#planProductType': 'type' },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':planProductType': product.type },
    },
  };
}

/** The new plan `input` makes on `product`, its custom fields resolved: what plan creation writes. */
const newPlan = (organizationId: string, input: CreatePlanInput, product: Product, customFields: Record<string, unknown>, now: string): Plan => ({
  id: newPlanId(),
  organizationId,
  productId: product.id,
  productType: product.type,
  name: input.name,
  currency: input.currency,
  price: minor(input.pricing.price, input.currency, 'pricing.price'),
  formula: input.pricing.formula,
  setupPrice: input.setup ? minor(input.setup.price, input.currency, 'setup.price') : null,
  setupApprovalLink: input.setup?.approvalLink ?? null,
  description: input.description,
  richDescription: input.richDescription,
  productOptions: input.productOptions,
  recurringInterval: input.recurringInterval as RecurringInterval | null,
  trial: input.trial as Trial | null,
  isActive: input.isActive,
  isTrialOnly: input.isTrialOnly,
  revision: 1,
  customFields: customFields as Plan['customFields'],
  createdAt: now,
  updatedAt: now,
});

/**
 * Create a plan: reads the product and the organization's custom-field definitions at once, checks the plan
 * against the product (recurring interval by type, options), then writes the plan and counts it on the product
 * in one transaction that requires the product to still be active, the organization's, and of the same type.
 * Unknown and other organizations' products: 404 `product.not_found`; archived: 422 `plan.product_archived`.
 */
export async function createPlan(organizationId: string, input: CreatePlanInput, now = new Date().toISOString()) {
  const [productRead, fieldsRead] = await Promise.allSettled([
    getProduct(organizationId, input.productId),
    resolveCustomFields(organizationId, 'plans', input.customFields),
  ]);
  if (productRead.status === 'rejected') throw productRead.reason;
  const product = productRead.value;
  if (!product) throw productNotFound(input.productId);
  if (product.status !== 'active') throw productArchived(product.id);
  assertPlanShape(product.type, input);
  assertProductOptions(input.productOptions, product);
  if (fieldsRead.status === 'rejected') throw fieldsRead.reason;

  const plan = newPlan(organizationId, input, product, fieldsRead.value, now);
  const parts: NamedParts<'plan' | 'product'> = [
    ['plan', [repo.putNewPlan(plan)]],
    ['product', [attachToProductOfType(organizationId, product, now)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (reasons && partReasons(reasons, parts).get('product')?.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed')) {
      throw new ConflictError('plan.product_busy', 'Other plans were being created on this product at the same moment; retry.');
    }
    if (!failedParts(e, parts)?.has('product')) throw e;
    // The product changed between the read and the write: say how.
    const current = await getProduct(organizationId, product.id);
    if (!current) throw productNotFound(product.id);
    if (current.status !== 'active') throw productArchived(product.id);
    throw new ConflictError('plan.product_changed', "The product's type changed while the plan was being created; read the product and retry.");
  }
  return planView(plan);
}

/**
 * Creates an active product and its first plan at once (the MCP endpoint's `create_product` with a price): the custom
 * fields of both resolved and the plan checked against the product first, then both written in one transaction (the
 * product counting its plan), so a refusal leaves nothing behind.
 */
export async function createProductWithPlan(
  organizationId: string,
  productInput: ProductInput & { name: string },
  planOf: (product: Product) => CreatePlanInput,
  now = new Date().toISOString(),
) {
  const draft = newProduct(organizationId, productInput, {}, now);
  const input = planOf(draft);
  assertPlanShape(draft.type, input);
  assertProductOptions(input.productOptions, draft);
  const [productFields, planFields] = await Promise.all([
    resolveCustomFields(organizationId, 'products', productInput.customFields),
    resolveCustomFields(organizationId, 'plans', input.customFields),
  ]);
  const product: Product = { ...draft, customFields: productFields, planCount: 1 };
  const plan = newPlan(organizationId, input, product, planFields, now);
  await transactWrite([
    ['product', [putNewProduct(product)]],
    ['plan', [repo.putNewPlan(plan)]],
  ]);
  return { product: productView(product), plan: planView(plan) };
}

const isPlanId = (id: string) => PLAN_ID_PATTERN.test(id);

/** The organization's plan; 404 `plan.not_found` for unknown, malformed (no table call) and other organizations' ids. */
export async function getPlan(organizationId: string, planId: string) {
  const plan = isPlanId(planId) ? await repo.getPlan(organizationId, planId) : null;
  if (!plan) throw planNotFound();
  return planView(plan);
}

/**
 * Update the given fields. Reads the plan, builds the next version (revision + 1) and writes it on the condition
 * that the stored revision is still the one read: of two concurrent updates one wins, the other gets 409
 * `plan.revision_conflict`. A `revision` in the body must be the current one (409 otherwise, before any write).
 * `customFields` merges into the plan's values (null removes one); the result is checked as a whole.
 */
export async function updatePlan(organizationId: string, planId: string, input: UpdatePlanInput, now = new Date().toISOString()) {
  const current = isPlanId(planId) ? await repo.getPlan(organizationId, planId) : null;
  if (!current) throw planNotFound();
  if (input.revision !== undefined && input.revision !== current.revision) throw revisionConflict(current.revision);

  const next: Plan = { ...current, revision: nextRevision(current.revision), updatedAt: now };
  if (input.name !== undefined) next.name = input.name;
  if (input.description !== undefined) next.description = input.description;
  if (input.richDescription !== undefined) next.richDescription = input.richDescription;
  if (input.isActive !== undefined) next.isActive = input.isActive;
  if (input.isTrialOnly !== undefined) next.isTrialOnly = input.isTrialOnly;
  if (input.recurringInterval !== undefined) next.recurringInterval = input.recurringInterval as RecurringInterval | null;
  if (input.trial !== undefined) next.trial = input.trial as Trial | null;
  if (input.pricing?.price !== undefined) next.price = minor(input.pricing.price, current.currency, 'pricing.price');
  if (input.pricing?.formula !== undefined) next.formula = input.pricing.formula;
  if (input.setup !== undefined) {
    next.setupPrice = input.setup ? minor(input.setup.price, current.currency, 'setup.price') : null;
    next.setupApprovalLink = input.setup?.approvalLink ?? null;
  }
  if (input.recurringInterval !== undefined || input.trial !== undefined || input.isTrialOnly !== undefined) {
    assertPlanShape(current.productType, next);
  }
  const [product, customFields] = await Promise.all([
    input.productOptions !== undefined ? getProduct(organizationId, current.productId) : null,
    input.customFields !== undefined ? resolveCustomFields(organizationId, 'plans', { ...current.customFields, ...input.customFields }) : null,
  ]);
  if (input.productOptions !== undefined) {
    assertProductOptions(input.productOptions, product ?? { options: [] });
    next.productOptions = input.productOptions;
  }
  if (customFields) next.customFields = customFields as Plan['customFields'];

  if (!(await repo.replacePlan(next, current.revision))) {
    const latest = await repo.getPlan(organizationId, planId);
    if (!latest) throw planNotFound();
    throw revisionConflict(latest.revision);
  }
  return planView(next);
}

/** One page of the organization's plans (`search`: case-insensitive, in the name). */
export async function listPlans(organizationId: string, q: ListPlansQuery) {
  const search = searchTerm(q.search);
  const { totalCount, plans } = await repo.listPlans(organizationId, { ...catalogListOptions(q), ...(search ? { search } : {}) });
  return { totalCount, data: plans.map(planView) };
}

/**
 * One page (`offset`, `limit`) of the organization's plans, newest first, as stored: prices in integer minor units
 * (for pages that format them); with how many plans it has.
 */
export async function listPlanRecords(organizationId: string, page: { offset: number; limit: number }) {
  const { totalCount, plans } = await repo.listPlans(organizationId, { sortBy: 'createdAt', sortDirection: 'desc', ...page });
  return { totalCount, plans };
}
