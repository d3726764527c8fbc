/**
 * Where merchants' images live (checkout logos, product images): the platform's private storage bucket
 * (`POLICY_BUCKET`, the one that also holds the policy PDFs), under two prefixes:
 *
 * - `images/<merchantId>/<imageId>`: images that passed their checks, served to buyers from the platform's origin by
 *   `GET /api/v1/checkout/merchants/{merchantId}/images/{imageId}`. An image is never overwritten (a new one has a
 *   new id), so it can be cached for good.
 * - `image-uploads/<merchantId>/<productId>/<uploadId>`: a product image a merchant PUT through a presigned URL and
 *   has not confirmed yet. The confirm checks it, copies it under `images/` and removes it; nothing serves it.
 *
 * Calls are signed by `shared/platform/aws/signed-fetch.ts`, as for the policy PDFs.
 */
import { isMissingObject, storageBucket } from './bucket.ts';
import { awsFetch, encodeRfc3986, presignS3, s3Url } from '../aws/signed-fetch.ts';

const imageKey = (merchantId: string, imageId: string) => `images/${merchantId}/${imageId}`;
const uploadKey = (merchantId: string, productId: string, uploadId: string) => `image-uploads/${merchantId}/${productId}/${uploadId}`;

/** Stores an image's bytes (a logo, sent through the API) under its new id. */
export async function putImage(merchantId: string, imageId: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await awsFetch('s3', s3Url(storageBucket(), imageKey(merchantId, imageId)), {
    method: 'PUT',
    headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
    body: bytes,
  });
}

/** An image's bytes, or null when there is none. */
export async function getImage(merchantId: string, imageId: string): Promise<Uint8Array | null> {
  try {
    const res = await awsFetch('s3', s3Url(storageBucket(), imageKey(merchantId, imageId)));
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    if (isMissingObject(e)) return null;
    throw e;
  }
}

/** A presigned GET of an image, valid `seconds` (for an image too large to answer through a function). */
export function imageDownloadUrl(merchantId: string, imageId: string, contentType: string, seconds: number, now = new Date()): Promise<string> {
  const url = s3Url(storageBucket(), imageKey(merchantId, imageId), {
    'response-content-type': contentType,
    'response-cache-control': 'public, max-age=31536000, immutable',
  });
  return presignS3('GET', url, { expiresIn: seconds, signingDate: now });
}

/** Removes an image (a no-op when there is none). */
export async function deleteImage(merchantId: string, imageId: string): Promise<void> {
  await awsFetch('s3', s3Url(storageBucket(), imageKey(merchantId, imageId)), { method: 'DELETE' });
}

/**
 * A presigned PUT of a product image of exactly `size` bytes of `contentType`: both headers are signed, so S3
 * refuses another type or length (a presigned PUT cannot sign a range of lengths, so the size is fixed here).
 */
export async function imageUploadUrl(
  merchantId: string,
  productId: string,
  uploadId: string,
  contentType: string,
  size: number,
  expiresIn: number,
  now = new Date(),
): Promise<{ url: string; expiresAt: string }> {
  const url = await presignS3('PUT', s3Url(storageBucket(), uploadKey(merchantId, productId, uploadId)), {
    expiresIn,
    signingDate: now,
    headers: { 'content-type': contentType, 'content-length': String(size) },
  });
  return { url, expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() };
}

/** An uploaded (unconfirmed) product image's size in bytes and stored type, or null when nothing was uploaded (one HeadObject). */
export async function uploadedHead(merchantId: string, productId: string, uploadId: string): Promise<{ size: number; contentType: string | null } | null> {
  try {
    const head = await awsFetch('s3', s3Url(storageBucket(), uploadKey(merchantId, productId, uploadId)), { method: 'HEAD' });
    return { size: Number(head.headers.get('content-length') ?? 0), contentType: head.headers.get('content-type') };
  } catch (e) {
    if (isMissingObject(e)) return null;
    throw e;
  }
}

/** The first `count` bytes of an uploaded product image (one ranged GetObject); fewer when the file is shorter. */
export async function uploadedPrefix(merchantId: string, productId: string, uploadId: string, count: number): Promise<Uint8Array> {
  const res = await awsFetch('s3', s3Url(storageBucket(), uploadKey(merchantId, productId, uploadId)), { headers: { range: `bytes=0-${count - 1}` } });
  return new Uint8Array(await res.arrayBuffer()).slice(0, count);
}

/** Copies an uploaded product image to its place among the served images (one CopyObject, keeping its content type). */
export async function promoteUpload(merchantId: string, productId: string, uploadId: string, imageId: string): Promise<void> {
  const source = `/${storageBucket()}/${uploadKey(merchantId, productId, uploadId)}`.split('/').map(encodeRfc3986).join('/');
  await awsFetch('s3', s3Url(storageBucket(), imageKey(merchantId, imageId)), { method: 'PUT', headers: { 'x-amz-copy-source': source } });
}

/** Removes an uploaded product image (a no-op when there is none). */
export async function deleteUpload(merchantId: string, productId: string, uploadId: string): Promise<void> {
  await awsFetch('s3', s3Url(storageBucket(), uploadKey(merchantId, productId, uploadId)), { method: 'DELETE' });
}
