/**
 * Images buyers see at checkout (merchants' logos and product images), served from the platform's origin so the
 * hosted checkout page loads them under its CSP (`img-src 'self'`). Each image id names one file that never
 * changes, so the answer is cached for a year (`immutable`). No table read: the storage key is the merchant and
 * the image id, and the bytes are checked again (the file signature decides the content type).
 */
import { IMAGE_ID_PATTERN, imageTypeOf, type ImageContentType } from '../domain/images.ts';
import { isMerchantId } from '../domain/merchants.ts';
import { checkoutImageNotFound } from '../domain/unknown-ids.ts';
import { getImage, imageDownloadUrl } from '../platform/storage/images.ts';

/**
 * The largest image answered through the function itself: its base64 body must stay under Lambda's 6 MB response
 * limit. A larger one (product images may be up to 5 MiB) is answered by a redirect to a short-lived presigned GET.
 */
export const IMAGE_INLINE_MAX_BYTES = 4 * 1024 * 1024;
const REDIRECT_SECONDS = 5 * 60;

export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export type CheckoutImage = { bytes: Uint8Array; contentType: ImageContentType } | { redirect: string };

/** The merchant's image `imageId`; 404 `checkout.image_not_found` for an unknown or malformed id, or a file that is not an image. */
export async function checkoutImage(merchantId: string, imageId: string): Promise<CheckoutImage> {
  if (!isMerchantId(merchantId) || !IMAGE_ID_PATTERN.test(imageId)) throw checkoutImageNotFound();
  const bytes = await getImage(merchantId, imageId);
  const contentType = bytes ? imageTypeOf(bytes) : null;
  if (!bytes || !contentType) throw checkoutImageNotFound();
  if (bytes.length > IMAGE_INLINE_MAX_BYTES) return { redirect: await imageDownloadUrl(merchantId, imageId, contentType, REDIRECT_SECONDS) };
  return { bytes, contentType };
}
