/**
 * The local API gateway: a node:http server that does for the route table what API Gateway's HTTP API does
 * for the deployed functions. It matches method and path, builds the payload 2.0 event, invokes the route's
 * handler in this process with a Lambda context, and turns the result into the HTTP response by the 2.0
 * response rules, with the limits the deployed pair keeps: a body over 10 MB refused, and so a request whose event is
 * over Lambda's 6 MB, before any function runs; a function's result over Lambda's 6 MB a 500; the integration timeout
 * a 503.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeMatcher } from '../../shared/platform/http/route-match.ts';
import { buildHttpApiEvent, newRequestId } from './apigw-event.ts';
import { invokeHandler, lambdaContext, LambdaTimeoutError, loadHandler as defaultLoader } from './lambda.ts';
import type { HandlerLoader } from './lambda.ts';
import { preflightRoutesOf } from '../../shared/platform/http/cors.ts';
import { errorBody, faceOfPath, securityHeaders } from '../../shared/platform/http/errors.ts';
import { defaultRouteTimeoutSeconds, type Face } from '../../shared/routes/index.ts';
import { loopbackHost } from './settings.ts';

/** What the gateway needs of a route (a `RouteDef` from `infra/routes.ts` fits). */
export interface GatewayRoute {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** Entry file relative to the repository root. */
  readonly handler: string;
  /** The function's timeout (default 10 s, as in the route table). */
  readonly timeoutSeconds?: number;
}

export type LogFn = (message: string, error?: unknown) => void;

export interface GatewayOptions {
  readonly routes: readonly GatewayRoute[];
  /** `0`: any free port. */
  readonly port: number;
  readonly region: string;
  readonly host?: string;
  readonly loadHandler?: HandlerLoader;
  /** API Gateway gives up on an integration after 30 s (answering 503). */
  readonly integrationTimeoutMs?: number;
  /** API Gateway refuses payloads above 10 MB. */
  readonly bodyLimitBytes?: number;
  /** Where errors of handlers are reported (default: stderr). */
  readonly logError?: LogFn;
  /**
   * Gets one line per answered request (`accessLine`: route key, status, milliseconds), as API Gateway's access
   * log would; none by default.
   */
  readonly accessLog?: (line: string) => void;
  /** Requests wait for this before any function runs (the stack sets the functions' environment first). */
  readonly ready?: Promise<void>;
  /**
   * The face of the gateway's own answers (no route, wrong method, too large); by default the face the path
   * belongs to. The tokenization host's gateway answers in the organization face.
   */
  readonly face?: Face;
  /** The setting that chooses `port`, named when the port is taken (default `PORT`). */
  readonly portSetting?: string;
}

export interface Gateway {
  readonly port: number;
  /** `http://localhost:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

export const defaultBodyLimitBytes = 10 * 1024 * 1024;
/**
 * The largest result a function invoked synchronously may return, serialized (Lambda's 6 MB: its error names 6,291,556
 * bytes); a larger one fails the invocation, and API Gateway answers 500.
 */
export const lambdaResponseLimitBytes = 6_291_556;
/**
 * The largest event a function invoked synchronously takes, serialized (Lambda's 6 MB for a request: 6 MiB); API
 * Gateway's invocation of a larger one fails, and it answers 413 without the function running.
 */
export const lambdaRequestLimitBytes = 6_291_456;
/**
 * More than an event holds besides its body: its request's head is at most 16 KB, and its path and query stand in it a
 * few times (raw, decoded, in the context), each at most six times as long once serialized.
 */
const eventOverheadBytes = 512 * 1024;
/**
 * The serialized size of `event` when it may be over Lambda's request limit, else 0 (not serialized): a body is at most
 * six times its length in the event (a control character's `\u0000`), so a short one cannot be over it.
 */
function oversizedEventBytes(event: unknown, bodyBytes: number): number {
  if (bodyBytes * 6 + eventOverheadBytes <= lambdaRequestLimitBytes) return 0;
  const size = Buffer.byteLength(JSON.stringify(event));
  return size > lambdaRequestLimitBytes ? size : 0;
}
export const defaultIntegrationTimeoutMs = 30_000;
/** How long a route's function may run: its own timeout, but never past the integration timeout. */
export function routeTimeouts(route: GatewayRoute, integrationTimeoutMs = defaultIntegrationTimeoutMs) {
  const functionMs = (route.timeoutSeconds ?? defaultRouteTimeoutSeconds) * 1000;
  return { functionMs, waitMs: Math.min(functionMs, integrationTimeoutMs), integrationTimeoutMs };
}

export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies: string[];
  readonly body: Buffer;
}

export class MalformedResponseError extends Error {
  constructor(reason: string) {
    super(`Malformed Lambda proxy response: ${reason}`);
    this.name = 'MalformedResponseError';
  }
}

const jsonResponse = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...headers },
  cookies: [],
  body: Buffer.from(JSON.stringify(body)),
});

/**
 * The gateway's own refusals (no route, wrong method, body or headers too large), in the error shape of the
 * face the path belongs to (or `face`), with the headers every response carries. The message never repeats the
 * request.
 */
export function gatewayError(
  path: string,
  statusCode: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  face: Face = faceOfPath(path),
): HttpResponse {
  return {
    statusCode,
    headers: { ...securityHeaders(), 'content-type': 'application/json', ...headers },
    cookies: [],
    body: Buffer.from(errorBody(face, statusCode, code, message)),
  };
}

/** Largest request head (request line and headers) the gateway reads; a larger one gets a 431. */
export const maxHeaderBytes = 16 * 1024;

/** A request line (`GET /path?query HTTP/1.1`), at the start of a packet or of one of its lines. */
const requestLine = /(?:^|\n)[A-Z]+ (\S+) HTTP\/\d(?:\.\d)?\r?\n/g;

/**
 * The path of the request whose head Node could not read (too large, not HTTP), from the bytes it was reading
 * when it failed (`clientError`'s `rawPacket`): the last request line they hold, so that the refusal is in the
 * face of the path asked for. Without one (a client that wrote its request line in an earlier packet than the
 * one that failed) it is `/`, answered in the gateway's default face.
 */
export function pathOfRawPacket(packet: Buffer | undefined): string {
  const text = packet?.toString('latin1') ?? '';
  const target = [...text.matchAll(requestLine)].at(-1)?.[1];
  if (!target) return '/';
  if (target.startsWith('/')) return target.split('?', 1)[0]!;
  // The absolute form (`GET http://host/path HTTP/1.1`) names the path after the authority.
  return URL.canParse(target) ? new URL(target).pathname : '/';
}

/** Headers a Lambda result cannot set: the gateway owns the connection and the framing. */
const ownedHeaders = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade']);

/**
 * A function's result as API Gateway (payload 2.0) turns it into a response: an object with `statusCode` is a
 * structured response; anything else that is valid JSON becomes a 200 `application/json` response whose body
 * is the result (a string as is, anything else serialized).
 */
export function toHttpResponse(result: unknown): HttpResponse {
  const structured = typeof result === 'object' && result !== null && !Array.isArray(result) && 'statusCode' in result;
  if (!structured) {
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, cookies: [], body: Buffer.from(body) };
  }
  const r = result as { statusCode: unknown; headers?: unknown; cookies?: unknown; body?: unknown; isBase64Encoded?: unknown };
  if (typeof r.statusCode !== 'number' || !Number.isInteger(r.statusCode) || r.statusCode < 100 || r.statusCode > 599) {
    throw new MalformedResponseError(`statusCode ${JSON.stringify(r.statusCode)}`);
  }
  if (r.body !== undefined && r.body !== null && typeof r.body !== 'string') throw new MalformedResponseError('body is not a string');
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  if (r.headers !== undefined && r.headers !== null) {
    if (typeof r.headers !== 'object') throw new MalformedResponseError('headers is not an object');
    for (const [name, value] of Object.entries(r.headers)) {
      if (value === undefined || value === null) continue;
      if (!['string', 'number', 'boolean'].includes(typeof value)) throw new MalformedResponseError(`header ${name} is not a string`);
      const lower = name.toLowerCase();
      if (ownedHeaders.has(lower)) continue;
      if (lower === 'set-cookie') cookies.push(String(value));
      else headers[lower] = String(value);
    }
  }
  if (r.cookies !== undefined && r.cookies !== null) {
    if (!Array.isArray(r.cookies) || r.cookies.some((c) => typeof c !== 'string')) throw new MalformedResponseError('cookies is not a list of strings');
    cookies.push(...(r.cookies as string[]));
  }
  const text = typeof r.body === 'string' ? r.body : '';
  const body = r.isBase64Encoded === true ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  if (body.length > 0 && !headers['content-type']) headers['content-type'] = 'text/plain; charset=utf-8';
  return { statusCode: r.statusCode, headers, cookies, body };
}

function pairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // An oversized body is still read to its end (and dropped): answering while the client is still
    // sending makes many clients fail with EPIPE instead of reading the 413.
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, response: HttpResponse, requestId: string): void {
  if (res.headersSent) return;
  const headers: http.OutgoingHttpHeaders = {
    ...response.headers,
    'apigw-requestid': requestId,
    'content-length': String(response.body.length),
  };
  if (response.cookies.length) headers['set-cookie'] = response.cookies;
  res.writeHead(response.statusCode, headers);
  res.end(response.body);
}

/**
 * A request's access line, as API Gateway's access log has it: the route key of the route it matched (`GET
 * /join/{token} 200 3 ms`) — never the concrete path, which can carry secrets (join links, invitations, portal and
 * password reset links) —; for a method a route's path does not take, the method and that route's path (`HEAD
 * /join/{token} 405 1 ms`); for a path no route has, its method and path without the query string.
 */
export const accessLine = (routeKey: string | undefined, method: string, url: string, status: number, ms: number): string =>
  `${routeKey ?? `${method} ${url.split('?', 1)[0]}`} ${status} ${Math.round(ms)} ms`;

export function startGateway(opts: GatewayOptions): Promise<Gateway> {
  // The CORS preflight routes of the CORS faces these routes include (as the stacks deploy them).
  const matcher = routeMatcher([...opts.routes, ...preflightRoutesOf(opts.routes)]);
  const load = opts.loadHandler ?? defaultLoader;
  const integrationTimeoutMs = opts.integrationTimeoutMs ?? defaultIntegrationTimeoutMs;
  const limit = opts.bodyLimitBytes ?? defaultBodyLimitBytes;
  const logError: LogFn = opts.logError ?? ((message, error) => console.error(`[gateway] ${message}`, error ?? ''));
  let listeningPort = opts.port;

  /** The route key each answered request matched, for its access line. */
  const routeKeys = new WeakMap<http.ServerResponse, string>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    await opts.ready;
    const requestId = newRequestId();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQueryString = q < 0 ? '' : url.slice(q + 1);

    const match = matcher.match(method, rawPath);
    if (match) routeKeys.set(res, match.routeKey);
    if (!match) {
      req.resume();
      const allowed = matcher.methodsOf(rawPath).filter((m) => m !== 'OPTIONS');
      // A path some route has, on a method it does not take: logged as that route's path, never as the concrete one.
      const taken = allowed.length ? matcher.match(allowed[0]!, rawPath) : undefined;
      if (taken) routeKeys.set(res, `${method} ${taken.routeKey.slice(taken.routeKey.indexOf(' ') + 1)}`);
      send(
        res,
        allowed.length
          ? gatewayError(
              rawPath,
              405,
              'route.method_not_allowed',
              `This path does not take that method; it takes ${allowed.join(', ')}.`,
              { allow: allowed.join(', ') },
              opts.face,
            )
          : gatewayError(rawPath, 404, 'route.not_found', 'No route has this path.', {}, opts.face),
        requestId,
      );
      return;
    }

    let body: Buffer;
    try {
      body = await readBody(req, limit);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        send(res, gatewayError(rawPath, 413, 'request.too_large', `The body is larger than ${limit} bytes.`, {}, opts.face), requestId);
        return;
      }
      throw e;
    }

    const timeEpoch = Date.now();
    const event = buildHttpApiEvent({
      method,
      rawPath,
      rawQueryString,
      headers: pairs(req.rawHeaders),
      body,
      sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
      routeKey: match.routeKey,
      pathParameters: match.pathParameters,
      requestId,
      timeEpoch,
      protocol: `HTTP/${req.httpVersion}`,
      port: listeningPort,
    });

    const eventBytes = oversizedEventBytes(event, body.length);
    if (eventBytes) {
      const message = `The request is too large: ${eventBytes} bytes with its headers (a binary body counted base64-encoded), over ${lambdaRequestLimitBytes}.`;
      send(res, gatewayError(rawPath, 413, 'request.too_large', message, {}, opts.face), requestId);
      return;
    }

    let response: HttpResponse;
    const timeouts = routeTimeouts(match.route, integrationTimeoutMs);
    try {
      const handler = await load(match.route.handler);
      const context = lambdaContext({ name: match.route.name, timeoutMs: timeouts.functionMs, region: opts.region });
      const result = await invokeHandler(handler, event, context, timeouts.waitMs);
      const size = Buffer.byteLength(JSON.stringify(result ?? null));
      if (size > lambdaResponseLimitBytes) {
        logError(`${match.routeKey}: the function's result is ${size} bytes, over Lambda's ${lambdaResponseLimitBytes}`);
        response = jsonResponse(500, { message: 'Internal Server Error' });
      } else response = toHttpResponse(result);
    } catch (e) {
      if (e instanceof LambdaTimeoutError) {
        // The function timing out is a failed invocation (500); API Gateway giving up first is a 503.
        const integration = timeouts.integrationTimeoutMs < timeouts.functionMs;
        logError(`${match.routeKey}: ${integration ? `no answer within the integration timeout (${timeouts.integrationTimeoutMs / 1000} s)` : e.message}`);
        response = integration ? jsonResponse(503, { message: 'Service Unavailable' }) : jsonResponse(500, { message: 'Internal Server Error' });
      } else {
        logError(`${match.routeKey} (${match.route.handler}) failed`, e);
        response = jsonResponse(500, { message: 'Internal Server Error' });
      }
    }
    try {
      send(res, response, requestId);
    } catch (e) {
      // An invalid header name or value from the function: API Gateway answers 500 as well.
      logError(`${match.routeKey}: response could not be sent`, e);
      send(res, jsonResponse(500, { message: 'Internal Server Error' }), requestId);
    }
  };

  const server = http.createServer({ maxHeaderSize: maxHeaderBytes }, (req, res) => {
    const { accessLog } = opts;
    if (accessLog) {
      const started = performance.now();
      res.once('finish', () => accessLog(accessLine(routeKeys.get(res), req.method ?? 'GET', req.url ?? '/', res.statusCode, performance.now() - started)));
    }
    handle(req, res).catch((e: unknown) => {
      logError(`${req.method} ${req.url} failed in the gateway`, e);
      if (!res.headersSent) send(res, jsonResponse(500, { message: 'Internal Server Error' }), newRequestId());
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`Gateway port ${opts.port} is in use (set ${opts.portSetting ?? 'PORT'})`) : e),
    );
    server.listen(opts.port, opts.host ?? loopbackHost, () => {
      server.removeAllListeners('error');
      server.on('error', (e) => logError('the gateway server failed', e));
      // A request head too large to read: answered here, since no request object exists for it, in the face of
      // the path its request line names.
      server.on('clientError', (e: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
        if (!socket.writable) return socket.destroy();
        const tooLarge = e.code === 'HPE_HEADER_OVERFLOW';
        const path = pathOfRawPacket(e.rawPacket);
        const r = tooLarge
          ? gatewayError(path, 431, 'request.headers_too_large', `The request's headers are larger than ${maxHeaderBytes} bytes.`, {}, opts.face)
          : gatewayError(path, 400, 'request.malformed', 'The request is not valid HTTP.', {}, opts.face);
        const head = [
          `HTTP/1.1 ${r.statusCode} ${http.STATUS_CODES[r.statusCode]}`,
          ...Object.entries(r.headers).map(([k, value]) => `${k}: ${value}`),
          `content-length: ${r.body.length}`,
          'connection: close',
        ].join('\r\n');
        socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), r.body]));
      });
      listeningPort = (server.address() as AddressInfo).port;
      resolve({
        port: listeningPort,
        origin: `http://localhost:${listeningPort}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
