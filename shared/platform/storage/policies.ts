/**
 * Where sellers' policy PDFs live: one private S3 bucket (`POLICY_BUCKET`), one object per organization and
 * policy type at `policies/<organizationId>/<policyType>.pdf`. Nothing reads or writes it but through presigned
 * URLs made here (the merchant's upload, the buyer's download) and the small reads below.
 *
 * The calls are signed with the environment's credentials by `shared/platform/aws/signed-fetch.ts` (no SDK client: the
 * presigned URLs and these four calls are all this project asks of S3). On the local stack `AWS_ENDPOINT_URL_S3`
 * points at the local S3 server, addressed path-style (`MOR_LOCAL=1`).
 */
import { isMissingObject, storageBucket } from './bucket.ts';
import { awsFetch, presignS3, s3Url } from '../aws/signed-fetch.ts';
import { parseListObjectsV2 } from '../aws/s3-list.ts';
import {
  isPolicyType,
  POLICY_CONTENT_TYPE,
  POLICY_DOWNLOAD_URL_SECONDS,
  POLICY_UPLOAD_URL_SECONDS,
  policyTypes,
  type PolicyType,
} from '../../domain/policies.ts';

const prefixOf = (organizationId: string) => `policies/${organizationId}/`;
const keyOf = (organizationId: string, type: PolicyType) => `${prefixOf(organizationId)}${type}.pdf`;

export interface PolicyDocument {
  policyType: PolicyType;
  /** Bytes. */
  size: number;
  uploadedAt: string;
}

/**
 * A presigned PUT of `size` bytes of PDF: `content-type: application/pdf` and `content-length: <size>` are both
 * signed, so S3 refuses any other type or length (the size cap is enforced by S3 through the signed length).
 */
export async function policyUploadUrl(organizationId: string, type: PolicyType, size: number, now = new Date()): Promise<{ url: string; expiresAt: string }> {
  const url = await presignS3('PUT', s3Url(storageBucket(), keyOf(organizationId, type)), {
    expiresIn: POLICY_UPLOAD_URL_SECONDS,
    signingDate: now,
    headers: { 'content-type': POLICY_CONTENT_TYPE, 'content-length': String(size) },
  });
  return { url, expiresAt: new Date(now.getTime() + POLICY_UPLOAD_URL_SECONDS * 1000).toISOString() };
}

/**
 * The origin the presigned URLs point at (the bucket's, or the local S3 server's): a page whose script PUTs a PDF to
 * an upload URL lets its CSP connect there.
 */
export const policyStorageOrigin = (): string => s3Url(storageBucket(), '').origin;

/** A presigned GET of the policy, served as an inline PDF, valid for five minutes. */
export function policyDownloadUrl(organizationId: string, type: PolicyType, now = new Date()): Promise<string> {
  const url = s3Url(storageBucket(), keyOf(organizationId, type), {
    'response-content-disposition': `inline; filename="${type}.pdf"`,
    'response-content-type': POLICY_CONTENT_TYPE,
  });
  return presignS3('GET', url, { expiresIn: POLICY_DOWNLOAD_URL_SECONDS, signingDate: now });
}

/** A date header or ISO text as ISO 8601 (the epoch when S3 gave none). */
const isoOf = (date: string | null | undefined) => {
  const ms = date ? Date.parse(date) : Number.NaN;
  return new Date(Number.isNaN(ms) ? 0 : ms).toISOString();
};

/** The uploaded policy of this type, or null (one HeadObject). */
export async function policyDocument(organizationId: string, type: PolicyType): Promise<PolicyDocument | null> {
  try {
    const head = await awsFetch('s3', s3Url(storageBucket(), keyOf(organizationId, type)), { method: 'HEAD' });
    return { policyType: type, size: Number(head.headers.get('content-length') ?? 0), uploadedAt: isoOf(head.headers.get('last-modified')) };
  } catch (e) {
    if (isMissingObject(e)) return null;
    throw e;
  }
}

/**
 * Every uploaded policy of the organization, in `policyTypes` order: one ListObjectsV2 of its prefix, of whose
 * XML answer only each object's key, size and last-modified time are read (`shared/platform/aws/s3-list.ts`).
 */
export async function policyDocuments(organizationId: string): Promise<PolicyDocument[]> {
  const prefix = prefixOf(organizationId);
  const res = await awsFetch('s3', s3Url(storageBucket(), '', { 'list-type': '2', 'max-keys': '100', prefix }));
  const found = new Map<string, PolicyDocument>();
  for (const o of parseListObjectsV2(await res.text())) {
    if (!o.key.startsWith(prefix)) continue;
    const type = o.key.slice(prefix.length).replace(/\.pdf$/, '');
    if (isPolicyType(type)) found.set(type, { policyType: type, size: o.size, uploadedAt: isoOf(o.lastModified) });
  }
  return policyTypes.flatMap((t) => (found.has(t) ? [found.get(t)!] : []));
}

/** Removes the policy of this type (a no-op when there is none). */
export async function deletePolicyDocument(organizationId: string, type: PolicyType): Promise<void> {
  await awsFetch('s3', s3Url(storageBucket(), keyOf(organizationId, type)), { method: 'DELETE' });
}
