/**
 * Product images: a merchant uploads a PNG, JPEG or WebP file of at most 5 MiB straight to storage through a
 * presigned PUT, then confirms it; the confirm checks the stored file (its size with a HeadObject, its signature
 * with a ranged GetObject of its first bytes), moves it among the served images and attaches it to the product
 * (`images`, shown at checkout). A refused upload is deleted.
 */
import { randomBytes } from 'node:crypto';
import { attachProductImage, getProduct } from './products.repository.ts';
import { publicApiProductView } from './products.service.ts';
import { ConflictError, UnprocessableError, BadRequestError } from '../domain/errors.ts';
import {
  IMAGE_SIGNATURE_BYTES,
  IMAGE_UPLOAD_ID_PATTERN,
  imageContentTypes,
  imageTypeOf,
  isImageContentType,
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGE_UPLOAD_URL_SECONDS,
  PRODUCT_IMAGES_MAX,
  type ImageContentType,
} from '../domain/images.ts';
import { productImageUploadNotFound, productNotFound } from '../domain/unknown-ids.ts';
import { deleteImage, deleteUpload, imageUploadUrl, promoteUpload, uploadedHead, uploadedPrefix } from '../platform/storage/images.ts';

export interface ProductImageUploadInput {
  contentType: string;
  /** The exact size of the file to upload, in bytes: the upload URL is signed for it. */
  sizeBytes: number;
}

const imagesFull = () =>
  new ConflictError('product_image.limit_reached', `A product holds at most ${PRODUCT_IMAGES_MAX} images.`, { maxImages: PRODUCT_IMAGES_MAX });

const tooLarge = (size: number) =>
  new UnprocessableError('product_image.too_large', `The image is ${size} bytes; at most ${PRODUCT_IMAGE_MAX_BYTES} bytes (5 MiB) are accepted.`, {
    size,
    maxBytes: PRODUCT_IMAGE_MAX_BYTES,
  });

/** The merchant's product, or 404 `product.not_found` (unknown, malformed, another merchant's). */
async function productOf(merchantId: string, productId: string) {
  const product = await getProduct(merchantId, productId);
  if (!product) throw productNotFound();
  return product;
}

/**
 * A presigned PUT for one image of the merchant's product: `content-type` and `content-length` are signed, so S3
 * refuses another type or size. Refusals: 422 `product_image.unsupported_type` (not PNG, JPEG or WebP),
 * `product_image.too_large` (over 5 MiB), 400 `product_image.invalid_size` (not a whole number ≥ 1), 404
 * `product.not_found`, 409 `product_image.limit_reached` (the product holds 10 images).
 */
export async function createProductImageUpload(merchantId: string, productId: string, input: ProductImageUploadInput, now = new Date()) {
  const { contentType, sizeBytes } = input;
  if (!isImageContentType(contentType)) {
    throw new UnprocessableError('product_image.unsupported_type', `This contentType is not accepted: a product image is ${imageContentTypes.join(', ')}.`, {
      field: 'contentType',
      accepted: [...imageContentTypes],
    });
  }
  if (!Number.isInteger(sizeBytes) || sizeBytes < 1) {
    throw new BadRequestError('product_image.invalid_size', 'sizeBytes: must be the whole number of bytes of the file (at least 1).', { field: 'sizeBytes' });
  }
  if (sizeBytes > PRODUCT_IMAGE_MAX_BYTES) throw tooLarge(sizeBytes);
  const product = await productOf(merchantId, productId);
  if (product.images.length >= PRODUCT_IMAGES_MAX) throw imagesFull();
  const uploadId = `upl_${randomBytes(16).toString('hex')}`;
  const { url, expiresAt } = await imageUploadUrl(merchantId, product.id, uploadId, contentType, sizeBytes, PRODUCT_IMAGE_UPLOAD_URL_SECONDS, now);
  return { uploadId, uploadUrl: url, headers: { 'content-type': contentType as ImageContentType, 'content-length': String(sizeBytes) }, expiresAt };
}

/**
 * Checks the uploaded file and attaches it to the product; answers the product (merchant API view, with `images`).
 * The file must exist (404 `product_image.upload_not_found`), be at most 5 MiB (422 `product_image.too_large`) and
 * start with a PNG, JPEG or WebP signature of the type it was uploaded as (422 `product_image.not_an_image`);
 * a refused file is deleted. Accepted, it is copied among the served images under `img_<upload hex>` and attached
 * in one conditional update (409 `product_image.limit_reached` past 10 images), then the upload is removed. A
 * second confirm of the same upload answers 404 once the first has finished.
 */
export async function confirmProductImage(merchantId: string, productId: string, uploadId: string, now = new Date()) {
  const product = await productOf(merchantId, productId);
  if (!IMAGE_UPLOAD_ID_PATTERN.test(uploadId)) throw productImageUploadNotFound();
  const head = await uploadedHead(merchantId, product.id, uploadId);
  if (!head) throw productImageUploadNotFound();
  const refuse = async (error: Error): Promise<never> => {
    await deleteUpload(merchantId, product.id, uploadId);
    throw error;
  };
  if (head.size > PRODUCT_IMAGE_MAX_BYTES) return refuse(tooLarge(head.size));
  const detected = head.size > 0 ? imageTypeOf(await uploadedPrefix(merchantId, product.id, uploadId, IMAGE_SIGNATURE_BYTES)) : null;
  const declared = head.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
  if (!detected || detected !== declared) {
    return refuse(
      new UnprocessableError(
        'product_image.not_an_image',
        detected
          ? `The uploaded file is ${detected}, not the ${declared ?? 'unknown'} it was uploaded as; it was deleted.`
          : `The uploaded file is not a PNG, JPEG or WebP image (its file signature does not match); it was deleted.`,
        { declared, detected },
      ),
    );
  }
  const imageId = `img_${uploadId.slice('upl_'.length)}`;
  await promoteUpload(merchantId, product.id, uploadId, imageId);
  const attached = await attachProductImage(merchantId, product.id, { imageId, contentType: detected, size: head.size }, PRODUCT_IMAGES_MAX, now.toISOString());
  if (attached === 'not_found' || attached === 'full') {
    await Promise.all([deleteImage(merchantId, imageId), deleteUpload(merchantId, product.id, uploadId)]);
    throw attached === 'full' ? imagesFull() : productNotFound();
  }
  await deleteUpload(merchantId, product.id, uploadId);
  return publicApiProductView(attached);
}
