/**
 * Images merchants upload (checkout logos, product images): the accepted formats, told apart by their file
 * signature (the first bytes of the file, never the declared type alone), and the limits (pure).
 */

export const imageContentTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageContentType = (typeof imageContentTypes)[number];
export const isImageContentType = (s: string): s is ImageContentType => (imageContentTypes as readonly string[]).includes(s);

/** How many first bytes of a file `imageTypeOf` needs to tell the formats apart. */
export const IMAGE_SIGNATURE_BYTES = 12;

/** Largest checkout logo: 512 KiB of decoded bytes. */
export const LOGO_MAX_BYTES = 512 * 1024;
/** Largest product image: 5 MiB. */
export const PRODUCT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Most images a product holds. */
export const PRODUCT_IMAGES_MAX = 10;
/** How long a product image's upload URL works. */
export const PRODUCT_IMAGE_UPLOAD_URL_SECONDS = 15 * 60;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * The format of a file from its signature: PNG (`89 50 4E 47 0D 0A 1A 0A`), JPEG (`FF D8 FF`) or WebP (`RIFF`,
 * four bytes of size, `WEBP`); null for anything else (SVG, GIF, text, a truncated file).
 */
export function imageTypeOf(bytes: Uint8Array): ImageContentType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes.length >= 12 && startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** Image ids: `img_` and 32 lowercase hex digits. */
export const IMAGE_ID_PATTERN = /^img_[0-9a-f]{32}$/;
/** Upload ids of product images: `upl_` and 32 lowercase hex digits. */
export const IMAGE_UPLOAD_ID_PATTERN = /^upl_[0-9a-f]{32}$/;

/** The path an image is served at on the platform's origin (the buyer checkout face). */
export const imagePath = (merchantId: string, imageId: string) => `/api/v1/checkout/merchants/${merchantId}/images/${imageId}`;
