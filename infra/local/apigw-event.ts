/**
 * API Gateway HTTP API (payload format 2.0) events, shared by the local gateway, the `events/` generator and
 * the tests (route matching is in shared/platform/http/route-match.ts). The event is what API Gateway hands a Lambda proxy integration:
 * lower-cased headers with duplicates comma-joined, cookies split out of the Cookie header, query and path
 * parameters decoded, and the body base64-encoded unless its content type is text.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { decodeSegment } from '../../shared/platform/http/route-match.ts';
import { localAccountId } from './settings.ts';

/** Content types API Gateway hands to Lambda as plain text; every other body (even none) is base64. */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || type === 'application/json' || type === 'application/xml' || type === 'application/javascript';
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `requestContext.time`: `12/Mar/2020:19:03:58 +0000`. */
export function requestTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad2(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
}

/** An API Gateway style request id (`JKJaXmPLvHcESHA=`). */
export const newRequestId = (): string => randomBytes(11).toString('base64');

/** An X-Ray trace header like the one API Gateway adds (`Root=1-<time>-<24 hex>`). */
export const newTraceId = (epochMs: number): string => `Root=1-${Math.floor(epochMs / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;

function decodeQueryComponent(raw: string): string {
  return decodeSegment(raw.replace(/\+/g, ' '));
}

/**
 * `queryStringParameters`: decoded, a repeated name's values comma-joined; undefined without a query. Every name is
 * an own property, as the deployed event's JSON makes it (`__proto__` and `constructor` are names like any other).
 */
export function parseQuery(rawQueryString: string): Record<string, string> | undefined {
  if (!rawQueryString) return undefined;
  const out = new Map<string, string>();
  for (const pair of rawQueryString.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeQueryComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeQueryComponent(pair.slice(eq + 1));
    out.set(name, out.has(name) ? `${out.get(name)},${value}` : value);
  }
  return out.size ? Object.fromEntries(out) : undefined;
}

export interface HttpRequestInput {
  readonly method: string;
  /** Path as received, still percent-encoded, without the query. */
  readonly rawPath: string;
  readonly rawQueryString?: string;
  /** Header name/value pairs as received (any case, duplicates allowed), like Node's `rawHeaders` paired up. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: Buffer | string;
  readonly sourceIp: string;
  readonly routeKey: string;
  readonly pathParameters?: Readonly<Record<string, string>>;
  /** Fixed for generated samples; random otherwise. */
  readonly requestId?: string;
  readonly timeEpoch?: number;
  readonly traceId?: string;
  readonly protocol?: string;
  readonly apiId?: string;
  /** Port the client connected to (`x-forwarded-port`). */
  readonly port?: number;
}

/** The API Gateway HTTP API payload 2.0 event for one request. */
export function buildHttpApiEvent(input: HttpRequestInput): APIGatewayProxyEventV2 {
  const timeEpoch = input.timeEpoch ?? Date.now();
  const requestId = input.requestId ?? newRequestId();
  // Joined by name in a Map, so a name an object has of itself (`constructor`) is a header like any other.
  const joined = new Map<string, string>();
  const cookies: string[] = [];
  for (const [rawName, value] of input.headers) {
    const name = rawName.toLowerCase();
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      );
      continue;
    }
    joined.set(name, joined.has(name) ? `${joined.get(name)},${value}` : value);
  }
  const headers: Record<string, string> = Object.fromEntries(joined);
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${input.sourceIp}` : input.sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  if (input.port !== undefined) headers['x-forwarded-port'] ??= String(input.port);
  headers['x-amzn-trace-id'] = input.traceId ?? newTraceId(timeEpoch);

  const domainName = (headers.host ?? 'localhost').replace(/:\d+$/, '');
  const rawQueryString = input.rawQueryString ?? '';
  const method = input.method.toUpperCase();
  const bytes = input.body === undefined ? undefined : Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8');
  const hasBody = bytes !== undefined && bytes.length > 0;
  const text = isTextContentType(headers['content-type']);
  const queryStringParameters = parseQuery(rawQueryString);
  const pathParameters = input.pathParameters && Object.keys(input.pathParameters).length ? { ...input.pathParameters } : undefined;

  return {
    version: '2.0',
    routeKey: input.routeKey,
    rawPath: input.rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: localAccountId,
      apiId: input.apiId ?? 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method,
        path: input.rawPath,
        protocol: input.protocol ?? 'HTTP/1.1',
        sourceIp: input.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: input.routeKey,
      stage: '$default',
      time: requestTime(timeEpoch),
      timeEpoch,
    },
    ...(pathParameters ? { pathParameters } : {}),
    ...(hasBody ? { body: text ? bytes.toString('utf8') : bytes.toString('base64') } : {}),
    isBase64Encoded: hasBody && !text,
  };
}
