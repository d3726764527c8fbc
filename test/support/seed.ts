/**
 * Seeding through the services, for benchmarks and tests that make many records in-process (loaded after the
 * environment names the local stack).
 */
import * as v from 'valibot';
import { createPlanRequest } from '../../shared/catalog/plans.schemas.ts';
import { createPlan } from '../../shared/catalog/plans.service.ts';
import { createProduct } from '../../shared/catalog/products.service.ts';

/** A recurring product of the organization and its plan of 10 USD every `unit`: the plan. */
export async function tenDollarPlan(organizationId: string, unit: 'day' | 'month', names: { product: string; plan: string }) {
  const product = await createProduct(organizationId, { name: names.product, type: 'recurring' });
  return createPlan(
    organizationId,
    v.parse(createPlanRequest, {
      name: names.plan,
      currency: 'USD',
      productId: product.id,
      pricing: { price: 10, formula: 'fixed-fee' },
      recurringInterval: { unit, length: 1 },
    }),
  );
}
