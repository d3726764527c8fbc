/**
 * Products of an organization (catalog records: `PRODUCT#<id>` / `PRODUCT`, listed through gsi1 by creation and
 * gsi2 by last update). A product counts the plans made on it (`planCount`, incremented by plan creation in its
 * own transaction), so "delete or archive" is decided by a condition, not by a read.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { PRODUCT_ID_PATTERN } from './plans.rules.ts';
import { db, isConditionFailed, putFresh, tableName, updateOrRefused } from '../platform/db/client.ts';
import { withoutNulls } from '../platform/db/items.ts';
import { goneBySendingAgain } from '../platform/db/refused-item.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type Product, ProductEntity, type ProductImage, type ProductStatus, type ProductType, searchDescription, searchName } from './product.entity.ts';

/** Product ids: `prod_` and 32 lowercase hex digits. */
export const isProductId = (id: string): boolean => PRODUCT_ID_PATTERN.test(id);

/** The fields a PATCH may change (given ones only; null clears an optional field). */
export type ProductChanges = Partial<
  Pick<
    Product,
    | 'type'
    | 'status'
    | 'name'
    | 'unitLabel'
    | 'description'
    | 'requiresShipping'
    | 'options'
    | 'taxCategoryId'
    | 'accountingCode'
    | 'recognition'
    | 'customFields'
  >
>;

/** Create (as a transaction item); the id is new, so the condition only guards against an id collision. */
export const putNewProduct = (p: Product) =>
  ({
    Put: { TableName: tableName(), Item: ProductEntity.item(p), ConditionExpression: 'attribute_not_exists(pk)' },
  }) satisfies TransactItem;

/**
 * Create; the id is new, so the condition only guards against an id collision (`putFresh`: a write the SDK sends again
 * after it landed is this creation's, not a collision).
 */
export const createProduct = (p: Product): Promise<void> => putFresh(ProductEntity.item(p));

/** The organization's product `productId`; null when there is none (malformed ids and other organizations' products too). */
export async function getProduct(organizationId: string, productId: string): Promise<Product | null> {
  if (!isProductId(productId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: ProductEntity.key({ id: productId }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? ProductEntity.parse(Item) : null;
}

/**
 * For plan creation's transaction: counts one more plan on the product, on the condition that it exists, belongs
 * to `organizationId` and is active. It deliberately leaves the product's `updatedAt` alone (a plan is not an
 * edit of the product), so `_now` is unused.
 */
export function attachPlanToProduct(organizationId: string, productId: string, _now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: ProductEntity.key({ id: productId }),
      UpdateExpression: 'ADD planCount :one',
      ConditionExpression: 'attribute_exists(pk) AND organizationId = :org AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':org': organizationId, ':active': 'active' },
    },
  };
}

/** Why a PATCH was refused. */
export type UpdateRefusal = 'not_found' | 'type_locked';

/**
 * Changes the given fields only (one SET or REMOVE per field, so concurrent PATCHes of different fields both
 * land), on the condition that the product exists in `organizationId`; a change of `type` also needs the
 * product to have no plans (else `type_locked`, unless the type stays the same).
 */
export async function updateProduct(organizationId: string, productId: string, changes: ProductChanges, now: string): Promise<Product | UpdateRefusal> {
  if (!isProductId(productId)) return 'not_found';
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':org': organizationId, ':now': now };
  const sets = ['updatedAt = :now', 'gsi2sk = :gsi2sk'];
  const removes: string[] = [];
  values[':gsi2sk'] = keys.catalogListing('PRODUCT', organizationId, productId, '', now).gsi2sk;
  const put = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    if (value === null) removes.push(`#${attribute}`);
    else {
      values[`:${attribute}`] = value;
      sets.push(`#${attribute} = :${attribute}`);
    }
  };
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && field !== 'recognition') put(field, value);
  }
  if (changes.recognition !== undefined) put('recognition', changes.recognition && withoutNulls(changes.recognition));
  if (changes.name !== undefined) put('searchName', searchName(changes.name));
  if (changes.description !== undefined) put('searchDescription', searchDescription(changes.description));
  let condition = 'attribute_exists(pk) AND organizationId = :org';
  if (changes.type !== undefined) {
    names['#type'] = 'type';
    values[':zero'] = 0;
    condition += ' AND (attribute_not_exists(planCount) OR planCount = :zero OR #type = :type)';
  }
  const outcome = await updateOrRefused({
    TableName: tableName(),
    Key: ProductEntity.key({ id: productId }),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  if ('updated' in outcome) return ProductEntity.parse(outcome.updated);
  const old = ProductEntity.parseOrNull(outcome.refused);
  return old && old.organizationId === organizationId ? 'type_locked' : 'not_found';
}

/** What DELETE did: removed a product without plans, archived one with plans, or found nothing. */
export type RemoveOutcome = { removed: 'deleted' } | { removed: 'archived'; product: Product } | { removed: 'not_found' };

/**
 * Deletes the product when it has no plans (a condition on `planCount`), else archives it; both are decided
 * by DynamoDB, so a plan created at the same moment either lands first (archive) or is refused (deleted).
 * Archiving an archived product changes nothing.
 */
export async function removeProduct(organizationId: string, productId: string, now: string): Promise<RemoveOutcome> {
  if (!isProductId(productId)) return { removed: 'not_found' };
  const Key = ProductEntity.key({ id: productId });
  // A plan count that drops to zero between the two writes sends the loop round again (bounded).
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.send(
        new DeleteCommand({
          TableName: tableName(),
          Key,
          ConditionExpression: 'attribute_exists(pk) AND organizationId = :org AND (attribute_not_exists(planCount) OR planCount = :zero)',
          ExpressionAttributeValues: { ':org': organizationId, ':zero': 0 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { removed: 'deleted' };
    } catch (e) {
      if (!isConditionFailed(e)) throw e;
      if (goneBySendingAgain(e)) return { removed: 'deleted' };
      const old = ProductEntity.failedItem(e);
      if (!old || old.organizationId !== organizationId) return { removed: 'not_found' };
    }
    const archived = await updateOrRefused({
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #status = :archived, updatedAt = :now, gsi2sk = :gsi2sk',
      ConditionExpression: 'attribute_exists(pk) AND organizationId = :org AND planCount > :zero AND #status <> :archived',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':archived': 'archived',
        ':now': now,
        ':org': organizationId,
        ':zero': 0,
        ':gsi2sk': keys.catalogListing('PRODUCT', organizationId, productId, '', now).gsi2sk,
      },
    });
    if ('updated' in archived) return { removed: 'archived', product: ProductEntity.parse(archived.updated) };
    const old = ProductEntity.parseOrNull(archived.refused);
    if (!old || old.organizationId !== organizationId) return { removed: 'not_found' };
    if (old.planCount > 0) return { removed: 'archived', product: old };
  }
  throw new Error("The product's plan count kept changing while it was being removed.");
}

/** Filters of a product list (all optional). */
export interface ProductFilter {
  /** Lowercased substring of the name or description. */
  search?: string;
  status?: ProductStatus;
  type?: ProductType;
}

/** One offset page of the organization's products: a Query on gsi1 (createdAt) or gsi2 (updatedAt). */
export async function listProducts(organizationId: string, options: Omit<CatalogListOptions, 'filter'>, filter: ProductFilter = {}) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.status) {
    parts.push('#st = :st');
    names['#st'] = 'status';
    values[':st'] = filter.status;
  }
  if (filter.type) {
    parts.push('#ty = :ty');
    names['#ty'] = 'type';
    values[':ty'] = filter.type;
  }
  if (filter.search) {
    const search = 'contains(searchName, :q) OR contains(searchDescription, :q)';
    // The listing puts the whole filter in parentheses; DynamoDB refuses redundant ones.
    parts.push(parts.length ? `(${search})` : search);
    values[':q'] = filter.search;
  }
  const page = await listCatalogPage('PRODUCT', organizationId, {
    ...options,
    ...(parts.length ? { filter: { expression: parts.join(' AND '), ...(Object.keys(names).length ? { names } : {}), values } } : {}),
  });
  return { totalCount: page.totalCount, items: page.items.map(ProductEntity.parse) };
}

/** Why an image was not attached. */
export type AttachRefusal = 'not_found' | 'full';

/**
 * Appends `image` to the product's images in one conditional update: the product must exist in `organizationId`
 * and hold fewer than `max` images. Attaching an image it already holds changes nothing (two confirms of one upload
 * attach it once) and answers the product as it is.
 */
export async function attachProductImage(
  organizationId: string,
  productId: string,
  image: ProductImage,
  max: number,
  now: string,
): Promise<Product | AttachRefusal> {
  if (!isProductId(productId)) return 'not_found';
  const Key = ProductEntity.key({ id: productId });
  const outcome = await updateOrRefused({
    TableName: tableName(),
    Key,
    UpdateExpression:
      'SET images = list_append(if_not_exists(images, :empty), :image), imageIds = list_append(if_not_exists(imageIds, :empty), :id), updatedAt = :now, gsi2sk = :gsi2sk',
    ConditionExpression:
      'attribute_exists(pk) AND organizationId = :org AND (attribute_not_exists(images) OR (size(images) < :max AND NOT contains(imageIds, :imageId)))',
    ExpressionAttributeValues: {
      ':empty': [],
      ':image': [image],
      ':id': [image.imageId],
      ':imageId': image.imageId,
      ':org': organizationId,
      ':max': max,
      ':now': now,
      ':gsi2sk': keys.catalogListing('PRODUCT', organizationId, productId, '', now).gsi2sk,
    },
  });
  if ('updated' in outcome) return ProductEntity.parse(outcome.updated);
  const old = ProductEntity.parseOrNull(outcome.refused);
  if (!old || old.organizationId !== organizationId) return 'not_found';
  return old.images.some((i) => i.imageId === image.imageId) ? old : 'full';
}
