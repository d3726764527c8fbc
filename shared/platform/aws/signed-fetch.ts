/**
 * The few calls this project makes to S3, SES and Secrets Manager, signed with AWS Signature V4 (`aws4fetch`) and
 * sent with the runtime's `fetch`, instead of through an SDK client each: a function that makes one or two such
 * calls then carries a few KB of signer instead of a whole client (the S3 client package alone is ~100 KB of
 * bundle before its middleware and presigner, and all of it is loaded at cold start). DynamoDB and SQS, called on every request or message and in
 * batches, stay with the SDK.
 *
 * Credentials and region come from the standard environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`, `AWS_REGION`), as a Lambda function always has them; a signer is built once per container
 * (again only if the environment's credentials change, as they may between local runs in one process). Endpoints:
 * the service's own variable (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL_SESV2`, `AWS_ENDPOINT_URL_SECRETS_MANAGER`),
 * then `AWS_ENDPOINT_URL`, then the service's regional AWS endpoint, as the SDK resolves them. S3 is addressed
 * path-style on the local stack (`MOR_LOCAL=1`) and virtual-hosted style otherwise.
 *
 * Any answer other than 2xx becomes a thrown `AwsError` named after the AWS error code, with the HTTP status.
 * Like the SDK's default, a 5xx or a throttling answer (429) is retried twice with a short jittered backoff; the call
 * and its retries get `SIGNED_CALL_TIMEOUT_MS` in all (./sdk-timeouts.ts), then fail as a `TimeoutError`.
 * Where a function traces with the X-Ray SDK, the Powertools tracer records each of these requests as an HTTP
 * subsegment (it instruments `fetch`); they are not AWS-call subsegments with an operation name.
 */
import { AwsClient, AwsV4Signer } from 'aws4fetch';
import { config, requiredEnv } from '../config.ts';
import { SIGNED_CALL_TIMEOUT_MS } from './sdk-timeouts.ts';

export type AwsService = 's3' | 'sesv2' | 'secretsmanager';

const services: Record<AwsService, { signingName: string; hostPrefix: string; endpointVariable: string }> = {
  s3: { signingName: 's3', hostPrefix: 's3', endpointVariable: 'AWS_ENDPOINT_URL_S3' },
  sesv2: { signingName: 'ses', hostPrefix: 'email', endpointVariable: 'AWS_ENDPOINT_URL_SESV2' },
  secretsmanager: { signingName: 'secretsmanager', hostPrefix: 'secretsmanager', endpointVariable: 'AWS_ENDPOINT_URL_SECRETS_MANAGER' },
};

/** An error answer of an AWS service: `name` is the AWS error code (e.g. `NoSuchKey`, `ResourceNotFoundException`). */
export class AwsError extends Error {
  readonly service: AwsService;
  readonly status: number;

  constructor(service: AwsService, name: string, status: number, message: string) {
    super(`${service}: ${name} (HTTP ${status})${message ? `: ${message}` : ''}`);
    this.name = name;
    this.service = service;
    this.status = status;
  }
}

const region = (): string => process.env.AWS_REGION || requiredEnv('AWS_DEFAULT_REGION');

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

function credentials(): Credentials {
  const sessionToken = process.env.AWS_SESSION_TOKEN || undefined;
  return { accessKeyId: requiredEnv('AWS_ACCESS_KEY_ID'), secretAccessKey: requiredEnv('AWS_SECRET_ACCESS_KEY'), ...(sessionToken ? { sessionToken } : {}) };
}

let signer: { id: string; client: AwsClient } | undefined;

/** The container's signer; its key cache keeps each day's derived signing key. */
function client(): AwsClient {
  const c = credentials();
  const id = `${c.accessKeyId}\n${c.secretAccessKey}\n${c.sessionToken ?? ''}`;
  if (signer?.id !== id) signer = { id, client: new AwsClient({ ...c, retries: 2 }) };
  return signer.client;
}

/** The base URL of a service (no trailing slash). */
export function endpointOf(service: AwsService): string {
  const custom = process.env[services[service].endpointVariable] || process.env.AWS_ENDPOINT_URL;
  if (custom) return custom.replace(/\/+$/, '');
  const r = region();
  return `https://${services[service].hostPrefix}.${r}.amazonaws.com${r.startsWith('cn-') ? '.cn' : ''}`;
}

/** RFC 3986 encoding of one path segment or query component (what S3 and SigV4 expect: a space is `%20`). */
export const encodeRfc3986 = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The URL of an object (or, with `key` empty, the bucket) with the query parameters given: path-style
 * (`<endpoint>/<bucket>/<key>`) on the local stack, virtual-hosted (`<bucket>.<endpoint host>/<key>`) otherwise.
 */
export function s3Url(bucket: string, key: string, query: Record<string, string> = {}): URL {
  const base = new URL(endpointOf('s3'));
  const path = key.split('/').map(encodeRfc3986).join('/');
  // A bucket name with a dot is addressed path-style too, as the SDK does (a certificate's wildcard covers one label).
  if (config.localStack || bucket.includes('.')) base.pathname = `${base.pathname.replace(/\/+$/, '')}/${encodeRfc3986(bucket)}${key ? `/${path}` : ''}`;
  else {
    base.hostname = `${bucket}.${base.hostname}`;
    base.pathname = `/${path}`;
  }
  base.search = queryString(Object.entries(query));
  return base;
}

const queryString = (pairs: ReadonlyArray<readonly [string, string]>): string => pairs.map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join('&');

/** SigV4's `YYYYMMDDTHHMMSSZ`. */
const amzDate = (d: Date): string => d.toISOString().replace(/[:-]|\.\d{3}/g, '');

/**
 * A presigned S3 URL (query-string SigV4) for `method`, valid `expiresIn` seconds from `signingDate`. Every header
 * in `headers` is signed (`X-Amz-SignedHeaders`), so S3 refuses a request that sends another value of any of
 * them. The payload is unsigned, as in every presigned S3 URL.
 */
export async function presignS3(
  method: 'GET' | 'PUT',
  url: URL,
  options: { expiresIn: number; signingDate: Date; headers?: Record<string, string> },
): Promise<string> {
  const unsigned = new URL(url);
  unsigned.searchParams.set('X-Amz-Expires', String(options.expiresIn));
  // As the SDK's presigner does: the (unsigned) payload's hash is named in the query too.
  unsigned.searchParams.set('X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD');
  const c = client();
  const signed = await new AwsV4Signer({
    method,
    url: unsigned.toString(),
    headers: options.headers ?? {},
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    sessionToken: c.sessionToken,
    service: 's3',
    region: region(),
    cache: c.cache,
    datetime: amzDate(options.signingDate),
    signQuery: true,
    allHeaders: true,
  }).sign();
  // The signer re-serialises the query as a form (a space as `+`); S3 is given the RFC 3986 form the signature covers.
  const out = new URL(signed.url);
  out.search = queryString([...signed.url.searchParams]);
  return out.toString();
}

/** The AWS error code and message of an error answer (S3's XML, the JSON protocols' `__type`/`code` and `message`). */
async function errorOf(service: AwsService, res: Response): Promise<AwsError> {
  const text = await res.text().catch(() => '');
  let name = res.headers.get('x-amzn-errortype')?.split(':')[0] ?? '';
  let message = '';
  if (text.trimStart().startsWith('<')) {
    name = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? name;
    message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
  } else if (text) {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      const type = body.__type ?? body.code ?? body.Code;
      if (typeof type === 'string') name = type;
      const m = body.message ?? body.Message;
      if (typeof m === 'string') message = m;
    } catch {
      message = text.slice(0, 200);
    }
  }
  // `com.amazonaws.secretsmanager#ResourceNotFoundException` → `ResourceNotFoundException`.
  name = name.slice(name.lastIndexOf('#') + 1);
  // A HEAD answer has no body: named as the SDK names it.
  if (!name) name = res.status === 404 ? 'NotFound' : res.status === 403 ? 'Forbidden' : `Http${res.status}`;
  return new AwsError(service, name, res.status, message);
}

/** A signed request to `service`; answers the 2xx response, throws an `AwsError` for any other. */
export async function awsFetch(service: AwsService, url: URL | string, init: RequestInit = {}): Promise<Response> {
  const res = await client().fetch(url.toString(), {
    signal: AbortSignal.timeout(SIGNED_CALL_TIMEOUT_MS),
    ...init,
    aws: { service: services[service].signingName, region: region() },
  });
  if (res.ok) return res;
  throw await errorOf(service, res);
}

/** A call of an AWS JSON 1.1 API (`X-Amz-Target: <target>`, e.g. `secretsmanager.GetSecretValue`) at the service's root. */
export async function awsJsonCall<T>(service: AwsService, target: string, input: unknown): Promise<T> {
  const res = await awsFetch(service, `${endpointOf(service)}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
    body: JSON.stringify(input),
  });
  return (await res.json()) as T;
}

/** Secrets Manager `GetSecretValue`: the secret's `SecretString` (undefined for a binary secret). */
export async function getSecretString(secretId: string): Promise<string | undefined> {
  const { SecretString } = await awsJsonCall<{ SecretString?: string }>('secretsmanager', 'secretsmanager.GetSecretValue', { SecretId: secretId });
  return SecretString;
}

/**
 * A deployment key read once per container: the Secrets Manager secret that `arnVariable` names (its string; empty is
 * an error; the local stack has a Secrets Manager of its own). A failed read is tried again on the next call. `what`
 * names the key in errors.
 */
export function containerSecret(arnVariable: string, what: string): () => Promise<string> {
  let value: Promise<string> | undefined;
  const load = async (): Promise<string> => {
    const secret = await getSecretString(requiredEnv(arnVariable));
    if (!secret) throw new Error(`The ${what} secret is empty`);
    return secret;
  };
  return () => {
    value ??= load().catch((e: unknown) => {
      value = undefined; // try again on the next call
      throw e;
    });
    return value;
  };
}
