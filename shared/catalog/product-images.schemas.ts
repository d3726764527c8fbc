/** Product images (merchant face): the presigned upload and its confirm. */
import * as v from 'valibot';
import { imageContentTypes, PRODUCT_IMAGE_MAX_BYTES } from '../domain/images.ts';
import { isoTime } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';

export const createProductImageUploadRequest = named(
  'CreateProductImageUploadRequest',
  v.strictObject({
    /** `image/png`, `image/jpeg` or `image/webp`: the upload must be sent with this type, and the file must be one. */
    contentType: v.pipe(v.string('must be a string'), v.maxCodePoints(100), v.description(`One of ${imageContentTypes.join(', ')}.`)),
    /** The exact size of the file in bytes (at most 5 MiB): the upload URL is signed for it. */
    sizeBytes: v.pipe(
      v.number('must be a number of bytes'),
      v.integer('must be a whole number of bytes'),
      v.minValue(1, 'must be at least 1 byte'),
      v.description(`At most ${PRODUCT_IMAGE_MAX_BYTES} bytes.`),
    ),
  }),
);

export const productImageUploadResponse = named(
  'ProductImageUpload',
  v.strictObject({
    uploadId: v.pipe(v.string(), v.regex(/^upl_[0-9a-f]{32}$/)),
    /** PUT the file here, with exactly the headers below, before `expiresAt`; then confirm the upload. */
    uploadUrl: v.pipe(v.string(), v.url()),
    headers: v.strictObject({ 'content-type': v.picklist(imageContentTypes), 'content-length': v.pipe(v.string(), v.regex(/^\d+$/)) }),
    expiresAt: isoTime,
  }),
);
