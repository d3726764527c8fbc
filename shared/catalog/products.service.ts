/**
 * Products of an organization: create, read, change, delete-or-archive and list them (organization face), and
 * list them on the merchant face (an organization is a merchant: same record, same id).
 */
import { randomBytes } from 'node:crypto';
import * as repo from './products.repository.ts';
import type { Product, ProductStatus, ProductType, Recognition } from './product.entity.ts';
import { type CatalogListQuery, catalogListOptions, searchTerm } from '../platform/db/listing.ts';
import { ConflictError } from '../domain/errors.ts';
import { productNotFound } from '../domain/unknown-ids.ts';
import { resolveCustomFields } from '../organizations/index.ts';
import { imagePath } from '../domain/images.ts';
import { config } from '../platform/config.ts';
import { paginationOf } from '../platform/http/pagination.ts';

/** The organization face's catalog list query, as the schema gives it. */
export interface ProductInput {
  name?: string | undefined;
  unitLabel?: string | null | undefined;
  description?: string | null | undefined;
  requiresShipping?: boolean | undefined;
  options?: string[] | undefined;
  taxCategoryId?: string | null | undefined;
  accountingCode?: string | null | undefined;
  recognition?: { debitAccountId?: string | null | undefined; creditAccountId?: string | null | undefined } | null | undefined;
  type?: ProductType | undefined;
  status?: ProductStatus | undefined;
  customFields?: Record<string, unknown> | undefined;
}

const recognitionOf = (r: ProductInput['recognition']): Recognition | null =>
  r ? { debitAccountId: r.debitAccountId ?? null, creditAccountId: r.creditAccountId ?? null } : null;

const viewFields = (p: Product) => ({
  id: p.id,
  name: p.name,
  unitLabel: p.unitLabel,
  description: p.description,
  requiresShipping: p.requiresShipping,
  options: p.options,
  taxCategoryId: p.taxCategoryId,
  accountingCode: p.accountingCode,
  recognition: p.recognition,
  status: p.status,
  type: p.type,
  customFields: p.customFields,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** The product as the organization API shows it (never its plan count). */
export const productView = (p: Product) => ({ ...viewFields(p), organizationId: p.organizationId });

/** The URLs of a product's images, on the platform's origin (served by the buyer checkout face). */
export const productImageUrls = (p: Product, origin = p.images.length ? config.publicOrigin : ''): string[] =>
  p.images.map((i) => `${origin}${imagePath(p.organizationId, i.imageId)}`);

/** The product as the merchant API shows it, with its `images` (URLs). */
export const publicApiProductView = (p: Product) => ({ ...viewFields(p), images: productImageUrls(p), merchantId: p.organizationId });

/** A new product of the organization from `input`, its custom fields resolved: what `createProduct` writes. */
export const newProduct = (organizationId: string, input: ProductInput & { name: string }, customFields: Record<string, unknown>, now: string): Product => ({
  id: `prod_${randomBytes(16).toString('hex')}`,
  organizationId,
  type: input.type ?? 'one-time',
  status: 'active',
  name: input.name,
  unitLabel: input.unitLabel ?? null,
  description: input.description ?? null,
  requiresShipping: input.requiresShipping ?? false,
  options: input.options ?? [],
  taxCategoryId: input.taxCategoryId ?? null,
  accountingCode: input.accountingCode ?? null,
  recognition: recognitionOf(input.recognition),
  customFields,
  images: [],
  planCount: 0,
  createdAt: now,
  updatedAt: now,
});

/**
 * Creates an active product: its `customFields` are resolved against the organization's product fields (one
 * Query; 400 `custom_field.invalid`), then it is written (one Put).
 */
export async function createProduct(organizationId: string, input: ProductInput & { name: string }) {
  const customFields = await resolveCustomFields(organizationId, 'products', input.customFields);
  const product = newProduct(organizationId, input, customFields, new Date().toISOString());
  await repo.createProduct(product);
  return productView(product);
}

/** The organization's product; 404 `product.not_found` for unknown, malformed and other organizations' ids. */
export async function getProduct(organizationId: string, productId: string) {
  const product = await repo.getProduct(organizationId, productId);
  if (!product) throw productNotFound();
  return productView(product);
}

/**
 * Changes the given fields of the organization's product (one conditional Update; `customFields`, when given,
 * replace the product's values after being resolved like on create). 404 `product.not_found`; 409
 * `product.type_locked` when `type` would change on a product that has plans.
 */
export async function updateProduct(organizationId: string, productId: string, input: ProductInput) {
  if (!repo.isProductId(productId)) throw productNotFound();
  const { customFields, recognition, ...rest } = input;
  const changes: repo.ProductChanges = Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined));
  if (recognition !== undefined) changes.recognition = recognitionOf(recognition);
  if (customFields !== undefined) changes.customFields = await resolveCustomFields(organizationId, 'products', customFields);
  const result = await repo.updateProduct(organizationId, productId, changes, new Date().toISOString());
  if (result === 'not_found') throw productNotFound();
  if (result === 'type_locked') throw new ConflictError('product.type_locked', 'The type of a product that has plans cannot change.');
  return productView(result);
}

/**
 * Deletes the organization's product when it has no plans (`{success: true}`), else archives it and answers
 * the archived product. 404 `product.not_found`.
 */
export async function deleteProduct(organizationId: string, productId: string) {
  const outcome = await repo.removeProduct(organizationId, productId, new Date().toISOString());
  if (outcome.removed === 'not_found') throw productNotFound();
  if (outcome.removed === 'deleted') return { success: true as const };
  return { type: 'object' as const, data: productView(outcome.product) };
}

/** One page of the organization's products (a Query on gsi1 or gsi2, see shared/platform/db/listing.ts). */
export async function listProducts(organizationId: string, q: CatalogListQuery) {
  const search = searchTerm(q.search);
  const page = await repo.listProducts(organizationId, catalogListOptions(q), search ? { search } : {});
  return { totalCount: page.totalCount, data: page.items.map(productView) };
}

export interface MerchantProductListQuery {
  q?: string | undefined;
  status?: ProductStatus | undefined;
  type?: ProductType | undefined;
  dateRangeStart?: string | undefined;
  dateRangeEnd?: string | undefined;
  page: number;
  limit: number;
}

/**
 * The merchant API's product list: the merchant's products newest first (a Query on gsi1, createdAt within
 * [dateRangeStart, dateRangeEnd] as a key condition), filtered by `q` (name or description), `status` and
 * `type`; page `page` of `limit`.
 */
export async function listMerchantProducts(merchantId: string, q: MerchantProductListQuery) {
  const search = searchTerm(q.q);
  const page = await repo.listProducts(
    merchantId,
    {
      sortBy: 'createdAt',
      sortDirection: 'desc',
      offset: (q.page - 1) * q.limit,
      limit: q.limit,
      ...(q.dateRangeStart || q.dateRangeEnd
        ? {
            range: {
              attribute: 'createdAt' as const,
              ...(q.dateRangeStart ? { from: q.dateRangeStart } : {}),
              ...(q.dateRangeEnd ? { to: q.dateRangeEnd } : {}),
            },
          }
        : {}),
    },
    {
      ...(search ? { search } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.type ? { type: q.type } : {}),
    },
  );
  return {
    data: page.items.map(publicApiProductView),
    pagination: paginationOf(q, page.totalCount),
  };
}
