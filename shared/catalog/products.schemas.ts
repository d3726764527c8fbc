/**
 * Products (organization face), the list query every catalog list of the organization face takes, and the
 * merchant face's product list (`PublicApiProductListResponse`).
 */
import * as v from 'valibot';
import { isoTime, uuid, pageQuery, pagination } from '../platform/http/schemas/common.ts';
import { productId } from './ids.schemas.ts';
import { customFieldValues, customFieldValuesView } from '../organizations/custom-fields.schemas.ts';
import { named } from '../platform/http/schemas/named.ts';
import { catalogListQueryFields, listEnvelope, objectEnvelope, instantInput, rangeInOrder } from '../platform/http/schemas/organization.ts';

/** Field limits of a product (characters unless stated). */
export const PRODUCT_LIMITS = {
  name: 255,
  unitLabel: 50,
  description: 1000,
  taxCategoryId: 50,
  accountingCode: 50,
  accountId: 50,
  /** Most entries of `options`, and the longest entry. */
  options: 50,
  option: 100,
} as const;

export const productType = v.picklist(['one-time', 'recurring'], 'must be one-time or recurring');
export const productStatus = v.picklist(['active', 'archived'], 'must be active or archived');

const text = (max: number) => v.pipe(v.string(), v.maxCodePoints(max, `must be at most ${max} characters`));
const requiredText = (max: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const optionalText = (max: number) => v.optional(v.nullable(text(max)));

const recognitionInput = v.strictObject({
  debitAccountId: optionalText(PRODUCT_LIMITS.accountId),
  creditAccountId: optionalText(PRODUCT_LIMITS.accountId),
});

const options = v.pipe(
  v.array(requiredText(PRODUCT_LIMITS.option)),
  v.maxLength(PRODUCT_LIMITS.options, `must have at most ${PRODUCT_LIMITS.options} entries`),
);

const productInputFields = {
  name: requiredText(PRODUCT_LIMITS.name),
  unitLabel: optionalText(PRODUCT_LIMITS.unitLabel),
  description: optionalText(PRODUCT_LIMITS.description),
  requiresShipping: v.optional(v.boolean()),
  options: v.optional(options),
  taxCategoryId: optionalText(PRODUCT_LIMITS.taxCategoryId),
  accountingCode: optionalText(PRODUCT_LIMITS.accountingCode),
  recognition: v.optional(v.nullable(recognitionInput)),
  type: v.optional(productType),
  customFields: v.optional(customFieldValues),
};

/** `{product: {...}}`: `name` is required; `type` defaults to `one-time`; every new product is `active`. */
export const createProductRequest = named(
  'CreateProductRequest',
  v.strictObject({
    product: v.strictObject(productInputFields),
  }),
);

/** `{product: {...}}`: the fields to change (at least one); null clears an optional field. */
export const updateProductRequest = named(
  'UpdateProductRequest',
  v.strictObject({
    product: v.pipe(
      v.strictObject({ ...productInputFields, name: v.optional(productInputFields.name), status: v.optional(productStatus) }),
      v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
    ),
  }),
);

const productFields = {
  id: productId,
  name: v.string(),
  unitLabel: v.nullable(v.string()),
  description: v.nullable(v.string()),
  requiresShipping: v.boolean(),
  options: v.array(v.string()),
  taxCategoryId: v.nullable(v.string()),
  accountingCode: v.nullable(v.string()),
  recognition: v.nullable(v.strictObject({ debitAccountId: v.nullable(v.string()), creditAccountId: v.nullable(v.string()) })),
  status: productStatus,
  type: productType,
  customFields: customFieldValuesView,
  createdAt: isoTime,
  updatedAt: isoTime,
};

export const product = named('Product', v.strictObject({ ...productFields, organizationId: uuid }));
export const productResponse = objectEnvelope('ProductResponse', product);
export const productListResponse = listEnvelope('ProductListResponse', product);

/** `{success: true}`: the product had no plans and is gone. */
export const productDeletedResponse = named('ProductDeletedResponse', v.strictObject({ success: v.literal(true) }));

/** DELETE answers `{success: true}` when the product is deleted, or the archived product when it has plans. */
export const deleteProductResponse = v.union([productDeletedResponse, productResponse]);

export const listProductsQuery = v.pipe(v.strictObject(catalogListQueryFields), rangeInOrder('updatedFrom', 'updatedTo'));

// Merchant face

/** Product list query of the merchant API: filters, and `page` ≥ 1 with `limit` 1..100 (default 20). */
export const merchantProductListQuery = v.pipe(
  v.strictObject({
    q: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(255))),
    status: v.optional(productStatus),
    type: v.optional(productType),
    dateRangeStart: v.optional(instantInput),
    dateRangeEnd: v.optional(instantInput),
    ...pageQuery,
  }),
  rangeInOrder('dateRangeStart', 'dateRangeEnd'),
);

/** `PublicApiProduct`: a product as the merchant API shows it (`merchantId` = the organization's id). */
export const publicApiProduct = named(
  'PublicApiProduct',
  v.strictObject({
    ...productFields,
    /** The product's images, in the order attached (the first is shown at checkout), each a URL on the platform's origin. */
    images: v.array(v.pipe(v.string(), v.url())),
    merchantId: uuid,
  }),
);

/** `PublicApiProductListResponse`: one page of the merchant's products, newest first. */
export const publicApiProductListResponse = named(
  'PublicApiProductListResponse',
  v.strictObject({
    data: v.array(publicApiProduct),
    pagination,
  }),
);
