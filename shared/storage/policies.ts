/**
 * Where sellers' policy PDFs live: one private S3 bucket (`POLICY_BUCKET`), one object per organization and
 * policy type at `policies/<organizationId>/<policyType>.pdf`. Nothing reads or writes it but through presigned
 * URLs made here (the merchant's upload, the buyer's download) and the two small reads below.
 *
 * The client is created once per container. Region and credentials come from the standard AWS environment; on the
 * local stack `AWS_ENDPOINT_URL_S3` points at the local S3 server, addressed path-style (`MOR_LOCAL=1`).
 */
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  isPolicyType, POLICY_CONTENT_TYPE, POLICY_DOWNLOAD_URL_SECONDS, POLICY_UPLOAD_URL_SECONDS, policyTypes, type PolicyType,
} from '../domain/policies.ts';
import { captureAWSv3Client } from '../observability.ts';


const s3 = captureAWSv3Client(new S3Client({
  credentials: fromEnv(),
  forcePathStyle: process.env.MOR_LOCAL === '1',
  // Checksums only where S3 requires them: a presigned PUT must not carry the checksum of an empty body.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
}));

function bucket(): string {
  const name = process.env.POLICY_BUCKET;
  if (!name) throw new Error('Missing environment variable POLICY_BUCKET');
  return name;
}

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
  const command = new PutObjectCommand({ Bucket: bucket(), Key: keyOf(organizationId, type), ContentType: POLICY_CONTENT_TYPE, ContentLength: size });
  const url = await getSignedUrl(s3, command, {
    expiresIn: POLICY_UPLOAD_URL_SECONDS,
    signingDate: now,
    signableHeaders: new Set(['content-type', 'content-length']),
  });
  return { url, expiresAt: new Date(now.getTime() + POLICY_UPLOAD_URL_SECONDS * 1000).toISOString() };
}

/** A presigned GET of the policy, served as an inline PDF, valid for five minutes. */
export function policyDownloadUrl(organizationId: string, type: PolicyType, now = new Date()): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: bucket(),
    Key: keyOf(organizationId, type),
    ResponseContentType: POLICY_CONTENT_TYPE,
    ResponseContentDisposition: `inline; filename="${type}.pdf"`,
  });
  return getSignedUrl(s3, command, { expiresIn: POLICY_DOWNLOAD_URL_SECONDS, signingDate: now });
}

const isMissing = (e: unknown) => e instanceof Error && (e.name === 'NotFound' || e.name === 'NoSuchKey' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/** The uploaded policy of this type, or null (one HeadObject). */
export async function policyDocument(organizationId: string, type: PolicyType): Promise<PolicyDocument | null> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: keyOf(organizationId, type) }));
    return { policyType: type, size: head.ContentLength ?? 0, uploadedAt: (head.LastModified ?? new Date(0)).toISOString() };
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
}

/** Every uploaded policy of the organization, in `policyTypes` order (one ListObjectsV2 of its prefix). */
export async function policyDocuments(organizationId: string): Promise<PolicyDocument[]> {
  const prefix = prefixOf(organizationId);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, MaxKeys: 100 }));
  const found = new Map<string, PolicyDocument>();
  for (const o of listed.Contents ?? []) {
    const type = o.Key?.slice(prefix.length).replace(/\.pdf$/, '') ?? '';
    if (isPolicyType(type)) found.set(type, { policyType: type, size: o.Size ?? 0, uploadedAt: (o.LastModified ?? new Date(0)).toISOString() });
  }
  return policyTypes.flatMap((t) => (found.has(t) ? [found.get(t)!] : []));
}

/** Removes the policy of this type (a no-op when there is none). */
export async function deletePolicyDocument(organizationId: string, type: PolicyType): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: bucket(), Key: keyOf(organizationId, type) }));
}
