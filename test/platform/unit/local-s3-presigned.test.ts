/**
 * The local S3 server's check of presigned URLs (`presignedRefusal`, infra/local/s3.ts): a URL made by the functions'
 * presigner (`presignS3`), or by the AWS SDK's, works for the request it was signed for, until it expires, and for no
 * other (method, path, query, signed content type or length, credentials), as S3 answers.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { presignedRefusal } from '../../../infra/local/s3.ts';
import { presignS3 } from '../../../shared/platform/aws/signed-fetch.ts';

const credentials = { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! };
const signingDate = new Date('2030-03-04T05:06:07.000Z');
const object = new URL('http://127.0.0.1:4569/bucket/image-uploads/m1/p1/upl_1');
const put = { 'content-type': 'image/png', 'content-length': '1000' };

/** A presigned PUT of 1,000 bytes of PNG, valid 900 s. */
const signedPut = async () => new URL(await presignS3('PUT', object, { expiresIn: 900, signingDate, headers: put }));
/** The request's headers as Node reads them (lower case, with the host it was sent to). */
const sent = (url: URL, headers: Record<string, string> = {}) => ({ host: url.host, ...headers });
const at = (seconds: number) => signingDate.getTime() + seconds * 1000;
const code = async (refusal: Promise<{ code: string } | null>) => (await refusal)?.code ?? null;

describe('a presigned URL on the local S3 server', () => {
  it('is taken for the request it was signed for, up to its last second, and refused after it', async () => {
    const url = await signedPut();
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(0))).toBeNull();
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(900))).toBeNull();
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(900) + 1)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired',
    });
  });

  it('is refused for another signed header (type, length), method, object, query or host', async () => {
    const url = await signedPut();
    const mismatch = 'SignatureDoesNotMatch';
    expect(await code(presignedRefusal('PUT', url, sent(url, { ...put, 'content-type': 'image/jpeg' }), credentials, at(1)))).toBe(mismatch);
    expect(await code(presignedRefusal('PUT', url, sent(url, { ...put, 'content-length': '1001' }), credentials, at(1)))).toBe(mismatch);
    expect(await code(presignedRefusal('PUT', url, sent(url, { 'content-type': 'image/png' }), credentials, at(1)))).toBe(mismatch);
    expect(await code(presignedRefusal('GET', url, sent(url, put), credentials, at(1)))).toBe(mismatch);
    const other = new URL(url);
    other.pathname = '/bucket/images/m1/img_1';
    expect(await code(presignedRefusal('PUT', other, sent(other, put), credentials, at(1)))).toBe(mismatch);
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '3600');
    expect(await code(presignedRefusal('PUT', longer, sent(longer, put), credentials, at(1)))).toBe(mismatch);
    const moved = new URL(url);
    moved.port = '4570';
    expect(await code(presignedRefusal('PUT', moved, sent(moved, put), credentials, at(1)))).toBe(mismatch);
  });

  it("takes a URL the AWS SDK's own presigner made, for the request it signed only", async () => {
    const sdk = new S3Client({
      region: 'eu-west-1',
      credentials,
      endpoint: object.origin,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const command = new PutObjectCommand({ Bucket: 'bucket', Key: 'image-uploads/m1/p1/upl_1', ContentType: 'image/png', ContentLength: 1000 });
    const url = new URL(await getSignedUrl(sdk, command, { expiresIn: 900, signingDate, signableHeaders: new Set(['content-type', 'content-length']) }));
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(900))).toBeNull();
    expect(await code(presignedRefusal('PUT', url, sent(url, { ...put, 'content-length': '999' }), credentials, at(1)))).toBe('SignatureDoesNotMatch');
    expect(await code(presignedRefusal('PUT', url, sent(url, put), credentials, at(901)))).toBe('AccessDenied');
  });

  it("signs a GET's response overrides: another content type or disposition is refused", async () => {
    const get = new URL(object);
    get.searchParams.set('response-content-disposition', 'attachment; filename="in 1.pdf"');
    const url = new URL(await presignS3('GET', get, { expiresIn: 300, signingDate }));
    expect(await presignedRefusal('GET', url, sent(url), credentials, at(299))).toBeNull();
    const changed = new URL(url);
    changed.searchParams.set('response-content-disposition', 'inline');
    expect(await code(presignedRefusal('GET', changed, sent(changed), credentials, at(1)))).toBe('SignatureDoesNotMatch');
  });

  it('is refused with other credentials, and malformed parameters are a 400', async () => {
    const url = await signedPut();
    expect(await code(presignedRefusal('PUT', url, sent(url, put), { ...credentials, accessKeyId: 'another' }, at(1)))).toBe('InvalidAccessKeyId');
    expect(await code(presignedRefusal('PUT', url, sent(url, put), { ...credentials, secretAccessKey: 'another' }, at(1)))).toBe('SignatureDoesNotMatch');
    const week = new URL(await presignS3('PUT', object, { expiresIn: 604_800, signingDate, headers: put }));
    expect(await presignedRefusal('PUT', week, sent(week, put), credentials, at(604_800))).toBeNull();
    const overAWeek = new URL(await presignS3('PUT', object, { expiresIn: 604_801, signingDate, headers: put }));
    expect(await presignedRefusal('PUT', overAWeek, sent(overAWeek, put), credentials, at(1))).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
    });
    for (const [name, value] of [
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA1'],
      ['X-Amz-Date', 'yesterday'],
      ['X-Amz-Credential', 'local/20300304/us-east-1/sqs/aws4_request'],
      ['X-Amz-SignedHeaders', 'content-type'],
    ] as const) {
      const bad = new URL(url);
      bad.searchParams.set(name, value);
      expect(await presignedRefusal('PUT', bad, sent(bad, put), credentials, at(1)), name).toMatchObject({ status: 400 });
    }
  });

  it("refuses a good URL its signer's rights do not allow (AccessDenied), once its signature holds", async () => {
    const url = await signedPut();
    const signature = url.searchParams.get('X-Amz-Signature')!;
    const signers = (s: string) => (s === signature ? 'test-image-reader may not put image-uploads/m1/p1/upl_1' : undefined);
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(1), signers)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Access Denied',
    });
    expect(await code(presignedRefusal('PUT', url, sent(url, { ...put, 'content-type': 'image/jpeg' }), credentials, at(1), signers))).toBe(
      'SignatureDoesNotMatch',
    );
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(901), signers)).toMatchObject({ message: 'Request has expired' });
    expect(await presignedRefusal('PUT', url, sent(url, put), credentials, at(1), () => undefined)).toBeNull();
  });

  it("leaves a request without a query signature, and a browser's preflight of a presigned URL, to the server", async () => {
    expect(await presignedRefusal('PUT', object, sent(object, put), credentials, at(1))).toBeNull();
    const url = await signedPut();
    expect(
      await presignedRefusal('OPTIONS', url, sent(url, { origin: 'http://localhost:3000', 'access-control-request-method': 'PUT' }), credentials, at(1)),
    ).toBeNull();
  });
});
