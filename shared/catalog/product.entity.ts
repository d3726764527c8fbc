/**
 * A product of an organization's catalog: `PRODUCT#<id>` / `PRODUCT`, listed through gsi1 by creation and gsi2 by
 * last update (`PRODUCTS#<orgId>`). It counts the plans made on it (`planCount`, incremented by plan creation in its
 * own transaction), so "delete or archive" is decided by a condition, not by a read; `searchName` and
 * `searchDescription` are lowercased copies a list's search filters on (one attribute per field, so concurrent
 * PATCHes never mix them).
 */
import * as v from 'valibot';
import { imageContentTypes, type ImageContentType } from '../domain/images.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';

export type ProductType = 'one-time' | 'recurring';
export type ProductStatus = 'active' | 'archived';

export interface Recognition {
  debitAccountId: string | null;
  creditAccountId: string | null;
}

/** An image of a product: the file under the platform's images (`shared/platform/storage/images.ts`). */
export interface ProductImage {
  imageId: string;
  contentType: ImageContentType;
  /** Bytes. */
  size: number;
}

export interface Product {
  id: string;
  organizationId: string;
  type: ProductType;
  status: ProductStatus;
  name: string;
  unitLabel: string | null;
  description: string | null;
  requiresShipping: boolean;
  options: string[];
  taxCategoryId: string | null;
  accountingCode: string | null;
  recognition: Recognition | null;
  customFields: Record<string, unknown>;
  /** Its images, in the order they were attached (the first is shown at checkout). */
  images: ProductImage[];
  /** How many plans were made on the product (never shown; decides delete vs archive). */
  planCount: number;
  createdAt: string;
  updatedAt: string;
}

export const searchName = (name: string) => name.toLowerCase();
export const searchDescription = (description: string | null) => description?.toLowerCase() ?? null;

export const ProductEntity = entity<Product, { id: string }>({
  kind: 'product',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    type: v.picklist(['one-time', 'recurring']),
    status: v.picklist(['active', 'archived']),
    name: v.string(),
    unitLabel: orNull(v.string()),
    description: orNull(v.string()),
    requiresShipping: v.optional(v.boolean(), false),
    options: v.optional(v.array(v.string()), []),
    taxCategoryId: orNull(v.string()),
    accountingCode: orNull(v.string()),
    recognition: orNull(v.object({ debitAccountId: orNull(v.string()), creditAccountId: orNull(v.string()) })),
    customFields: v.optional(v.record(v.string(), v.unknown()), {}),
    images: v.optional(v.array(v.object({ imageId: v.string(), contentType: v.picklist(imageContentTypes), size: v.number() })), []),
    planCount: v.optional(v.number(), 0),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (p) => catalogItem('PRODUCT', p.id),
  attributes: (p) => ({
    ...catalogListing('PRODUCT', p.organizationId, p.id, p.createdAt, p.updatedAt),
    searchName: searchName(p.name),
    ...(p.description === null ? {} : { searchDescription: searchDescription(p.description) }),
  }),
});
