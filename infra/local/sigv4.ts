/**
 * SigV4 as the local emulators check it: a request signed in its `Authorization` header (SES, Secrets Manager) is taken
 * only with the local functions' key, within five minutes of its `X-Amz-Date`, and with a signature over the request
 * as sent (its method, path, query, each signed header and its body), as AWS checks it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { AwsV4Signer } from 'aws4fetch';

/** An AWS refusal: its status, error type and message. */
export interface AwsRefusal {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

/** How far a request's `X-Amz-Date` may be from now (SigV4's five minutes). */
const maxClockSkewMs = 5 * 60_000;

/** SigV4's `YYYYMMDDTHHMMSSZ` as a time, or NaN. */
export const timeOfAmzDate = (d: string): number => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(d);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : Number.NaN;
};

/**
 * Why `service` (its signing name, answering a refusal with `status`: 403 for the REST protocols, 400 for the JSON
 * ones) would refuse a request for its signature, or null when the signature is `credentials`' over this request.
 */
export async function signatureRefusal(
  expected: { readonly service: string; readonly status: number },
  method: string,
  url: URL,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: number,
): Promise<AwsRefusal | null> {
  const { status } = expected;
  const authorization = String(headers.authorization ?? '');
  if (!authorization) return { status, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const date = String(headers['x-amz-date'] ?? '');
  const mismatch: AwsRefusal = {
    status,
    type: 'InvalidSignatureException',
    message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
  };
  const [, accessKeyId, day, region, service, signedHeaderNames, signature] =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(authorization) ??
    [];
  if (!accessKeyId || !region || !signedHeaderNames || !signature || service !== expected.service || day !== date.slice(0, 8)) return mismatch;
  if (accessKeyId !== credentials.accessKeyId)
    return { status, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (!(Math.abs(now - timeOfAmzDate(date)) <= maxClockSkewMs))
    return { ...mismatch, message: `Signature expired: ${date} is not within five minutes of the server's time.` };
  const signed = signedHeaderValues(signedHeaderNames.split(';'), headers);
  const recomputed = await new AwsV4Signer({
    method,
    url: url.toString(),
    headers: signed,
    body,
    accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    service,
    region,
    datetime: date,
    allHeaders: true,
  }).sign();
  return recomputed.headers.get('authorization')?.endsWith(`Signature=${signature}`) ? null : mismatch;
}

/** The values of the headers a signature names (`host` aside: the signer takes it from the URL), as the signer reads them. */
export function signedHeaderValues(names: readonly string[], headers: IncomingHttpHeaders): Record<string, string> {
  const signed: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (name !== 'host') signed[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
  }
  return signed;
}
