/**
 * The S3-compatible server of the local stack (`s3rver`; its files in a temporary folder removed on stop, in memory
 * where the system allows, or in a kept folder), with the policy bucket created at start. It listens on loopback only; presigned URLs the functions make point at it, so
 * a browser or test on this machine can follow them.
 *
 * It accepts the local functions' fake credentials. A presigned URL is checked as S3 checks it (`presignedRefusal`):
 * its signature over the request as sent (method, path, query and every signed header: a content type or length other
 * than the signed ones fails it) and its expiry, then its signer's rights (`presignRefusal`, from function-rights.ts).
 * Requests signed in their headers (the functions' own calls) are not checked here; the local stack holds those to each
 * function's rights before they are sent.
 *
 * Like the deployed bucket, the bucket lets a page PUT a PDF to a presigned URL from the browser (CORS: the checkout
 * settings page's policy upload); it allows any origin, as the gateway's port may not be known when it starts.
 */
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { AwsV4Signer } from 'aws4fetch';
import { emulatorServer, listenOnLoopback, type LoopbackServer } from './loopback.ts';
import { signedHeaderValues, timeOfAmzDate } from './sigv4.ts';

const require = createRequire(import.meta.url);

/** The bucket's CORS rule: a browser may PUT (with its `content-type`) to a presigned URL. */
const corsConfiguration = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** The longest a presigned URL may be valid, in seconds (S3's week). */
const maxPresignedSeconds = 604_800;

/** How much room a memory-backed folder must have to take a temporary S3 folder (a test run stores tens of MB). */
const MEMORY_FOLDER_ROOM = 1024 ** 3;

/**
 * Where a temporary S3 folder goes: in memory (`/dev/shm`) when the system has one with room to spare, as the stack's
 * database is in memory; otherwise the system's temporary folder. On disk, s3rver's writes of a renewal storm's
 * invoice PDFs held its other answers: 100 PUTs at once took about 1.8 times as long and a HEAD beside them twice as
 * long as in memory.
 */
function temporaryRoot(): string {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= MEMORY_FOLDER_ROOM) return '/dev/shm';
  } catch {
    // No such folder (macOS, Windows): the temporary folder.
  }
  return os.tmpdir();
}

/** An S3 refusal: its status, error code and message. */
export interface S3Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/**
 * Why S3 would refuse a request to a presigned URL (`X-Amz-Signature` in its query), or null when it would not (or the
 * request is not presigned, or is a CORS preflight): a key other than `credentials`', a malformed or too long expiry,
 * an expired URL, a signature that does not cover this request (its method, path, query, and each signed header as
 * sent), or, the signature good, its signer's rights (`signerRefusal` knows the signature). `url` is the request's,
 * with the host it was sent to.
 */
export async function presignedRefusal(
  method: string,
  url: URL,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: number,
  signerRefusal: (signature: string) => string | undefined = () => undefined,
): Promise<S3Refusal | null> {
  const q = url.searchParams;
  const signature = q.get('X-Amz-Signature');
  // A browser's CORS preflight carries the URL it asks about, unsigned for its own method: S3 answers it by the CORS rules.
  if (signature === null || method === 'OPTIONS') return null;
  const [accessKeyId, day, region, service, terminator] = (q.get('X-Amz-Credential') ?? '').split('/');
  const date = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const malformed = (message: string): S3Refusal => ({ status: 400, code: 'AuthorizationQueryParametersError', message });
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return malformed('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  if (!region || service !== 's3' || terminator !== 'aws4_request' || day !== date.slice(0, 8))
    return malformed('Error parsing the X-Amz-Credential parameter');
  const signedAt = timeOfAmzDate(date);
  if (Number.isNaN(signedAt)) return malformed("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  if (!Number.isInteger(expires) || expires < 1) return malformed('X-Amz-Expires should be a number');
  if (expires > maxPresignedSeconds) return malformed(`X-Amz-Expires must be less than a week (in seconds) that is ${maxPresignedSeconds}`);
  if (!signedHeaders.includes('host')) return malformed('Query-string authentication requires the host header to be signed');
  if (accessKeyId !== credentials.accessKeyId)
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  if (now > signedAt + expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  const unsigned = new URL(url);
  unsigned.searchParams.delete('X-Amz-Signature');
  const signed = signedHeaderValues(signedHeaders, headers);
  const expected = await new AwsV4Signer({
    method,
    url: unsigned.toString(),
    headers: signed,
    accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    service,
    region,
    datetime: date,
    signQuery: true,
    allHeaders: true,
  }).sign();
  if (expected.url.searchParams.get('X-Amz-Signature') !== signature) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  return signerRefusal(signature) ? { status: 403, code: 'AccessDenied', message: 'Access Denied' } : null;
}

interface S3rverApp {
  configureBuckets(): Promise<unknown>;
  callback(): http.RequestListener;
  logger: { close(): void; exceptions: { unhandle(): void } };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverApp;

export type S3Server = LoopbackServer;

/**
 * Starts the S3 server on loopback (`port` 0: any free port) with the bucket `bucketName`; rejects when the port is
 * taken. `credentials` are the fake keys the local functions sign with. With `dataDir` the objects are kept there
 * across restarts (created if missing); otherwise in a temporary folder removed on stop. A valid presigned URL is
 * refused 403 `AccessDenied` when `presignRefusal` knows its signature: its signer's rights do not allow it.
 */
export async function startS3Server(
  port: number,
  bucketName: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  dataDir?: string,
  presignRefusal: (signature: string) => string | undefined = () => undefined,
): Promise<S3Server> {
  const S3rver = require('s3rver') as S3rverClass;
  const Account = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
  Account.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const directory = dataDir || mkdtempSync(path.join(temporaryRoot(), 'mor-local-s3-'));
  const removeDirectory = () => {
    if (!dataDir) rmSync(directory, { recursive: true, force: true });
  };
  let server: http.Server | undefined;
  try {
    const app = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucketName, configs: [corsConfiguration] }] });
    await app.configureBuckets();
    const serve = app.callback();
    const s3Error = (res: http.ServerResponse, status: number, code: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/xml', 'access-control-allow-origin': '*' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
    };
    const listening = emulatorServer(
      async (req, res) => {
        const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
        const refusal = await presignedRefusal(req.method ?? 'GET', url, req.headers, credentials, Date.now(), presignRefusal);
        if (!refusal) return serve(req, res);
        // The body is read to its end (and dropped) before the answer, so the connection can take the next request.
        req.once('end', () => s3Error(res, refusal.status, refusal.code, refusal.message));
        req.resume();
      },
      // S3's own answer to a failure of its own, its cause not echoed.
      (res) => s3Error(res, 500, 'InternalError', 'We encountered an internal error. Please try again.'),
    );
    server = listening;
    return await listenOnLoopback(listening, port, 'S3', 'S3_PORT', () => {
      app.logger.exceptions.unhandle();
      app.logger.close();
      removeDirectory();
    });
  } catch (e) {
    server?.close();
    removeDirectory();
    throw e;
  }
}
