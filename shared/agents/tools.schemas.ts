/**
 * The MCP tools' arguments, as valibot schemas: the tools validate with them and list them as JSON Schema
 * (`tools/list`). Where a tool takes what a REST route takes, it takes the route's own schema (a sub-merchant, an
 * order), so the two cannot drift apart.
 */
import * as v from 'valibot';
import { imageContentTypes, LOGO_MAX_BYTES, PRODUCT_IMAGE_MAX_BYTES } from '../domain/images.ts';
import { planShapeIssues } from '../catalog/plan-vocabulary.schemas.ts';
import { planAmount, recurringIntervalInput } from '../catalog/plans.schemas.ts';
import { PRODUCT_LIMITS, productStatus, productType } from '../catalog/products.schemas.ts';
import { productId } from '../catalog/ids.schemas.ts';
import { createOrderFields, linesFitCurrency } from '../checkout/orders.schemas.ts';
import { IDEMPOTENCY_KEY_MAX } from '../domain/idempotency.ts';
import { createMerchantRequest } from '../platform/http/schemas/merchant-api.ts';
import { updateCheckoutCustomizationRequest } from '../organizations/customization.schemas.ts';
import { amountFitsCurrency, currency } from '../platform/http/schemas/organization.ts';

const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const whole = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** Tools that take nothing. */
export const noArguments = v.strictObject({});

export const searchDocsArguments = v.strictObject({
  query: described(text(500), 'What to look for in the platform documentation, in plain words or keywords'),
  limit: v.optional(described(whole(1, 10), 'How many passages to return (1 to 10, default 5)'), 5),
});

/** The rules of `POST /merchants`: a name, and optionally the website and the existing user who becomes its owner. */
export const createMerchantArguments = createMerchantRequest;

/** A price for the new product: its plan. A recurring product's price needs its billing interval; a one-time product's has none. */
const priceArguments = v.pipe(
  v.strictObject({
    amount: described(planAmount, 'The price in major units of the currency (19.99 is nineteen dollars and 99 cents)'),
    currency: described(currency, 'ISO 4217 code, e.g. USD'),
    interval: v.optional(described(recurringIntervalInput, 'For a recurring product: how often it is billed, e.g. {"unit": "month", "length": 1}')),
  }),
  amountFitsCurrency('amount', 'currency'),
);

export const createProductArguments = v.pipe(
  v.strictObject({
    name: described(text(PRODUCT_LIMITS.name), 'The product name buyers see'),
    description: v.optional(described(text(PRODUCT_LIMITS.description), 'What the product is')),
    type: v.optional(described(productType, 'one-time (the default) or recurring (a subscription)'), 'one-time'),
    unitLabel: v.optional(described(text(PRODUCT_LIMITS.unitLabel), 'What one unit is called, e.g. seat')),
    price: v.optional(described(priceArguments, 'Its price: a plan is created on the product with it')),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || !dataset.value.price) return;
    const { type, price } = dataset.value;
    for (const issue of planShapeIssues(type, { recurringInterval: price.interval ?? null, trial: null, isTrialOnly: false })) {
      const where = issue.field === 'recurringInterval' ? 'interval' : issue.field.replace(/^recurringInterval/, 'interval');
      addIssue({
        message: issue.message.replace('a plan of a', 'the price of a'),
        path: [
          { type: 'object', origin: 'value', input: dataset.value, key: 'price', value: price },
          { type: 'object', origin: 'value', input: price, key: where, value: price.interval },
        ],
      });
    }
  }),
);

export const listProductsArguments = v.strictObject({
  q: v.optional(described(v.pipe(v.string(), v.trim(), v.maxCodePoints(255)), 'Words in the name or description')),
  status: v.optional(described(productStatus, 'active or archived')),
  type: v.optional(described(productType, 'one-time or recurring')),
  page: v.optional(described(whole(1, 1_000_000), 'Page number, from 1'), 1),
  limit: v.optional(described(whole(1, 100), 'Products per page, 1 to 100 (default 20)'), 20),
});

/** The rules of `POST /merchants/{merchantId}/orders`, with the idempotency key as an argument. */
export const createOrderArguments = v.pipe(
  v.strictObject({
    ...createOrderFields,
    idempotencyKey: v.optional(
      described(
        v.pipe(v.string(), v.regex(new RegExp(`^[\\x20-\\x7E]{1,${IDEMPOTENCY_KEY_MAX}}$`), `must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`)),
        'Optional: the same key answers the order first made with it, so a retried call never creates a second order',
      ),
    ),
  }),
  linesFitCurrency(),
);

// Product images and the checkout customization.

const imageType = v.picklist(imageContentTypes, `must be ${imageContentTypes.join(', ')}`);

export const createProductImageUploadArguments = v.strictObject({
  productId: described(productId, 'The product the image is for'),
  contentType: described(imageType, 'The image format: PNG, JPEG or WebP'),
  contentLength: described(whole(1, PRODUCT_IMAGE_MAX_BYTES), 'The image size in bytes (at most 5 MB)'),
});

export const confirmProductImageArguments = v.strictObject({
  productId: described(productId, 'The product the image was uploaded for'),
  uploadId: described(text(64), 'The upload id create_product_image_upload answered'),
});

/** The dashboard back end's own body: null clears a field, one left out keeps its value. */
export const updateCheckoutCustomizationArguments = updateCheckoutCustomizationRequest;

export const setCheckoutLogoArguments = v.strictObject({
  contentType: described(imageType, 'The logo format: PNG, JPEG or WebP (no SVG)'),
  dataBase64: described(v.pipe(v.string(), v.maxLength(Math.ceil(LOGO_MAX_BYTES / 3) * 4)), 'The logo file, base64 (at most 512 KB decoded)'),
});
