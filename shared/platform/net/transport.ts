/**
 * One webhook POST (merchant API spec, "Events" → "Delivery rules"; ARCHITECTURE §5). The caller decides what
 * the outcome means (success is a 2xx `response`; the circuit counts 5xx, `network_error` and `timeout`). The same
 * guarded request (`guardedRequest`) fetches OAuth clients' metadata documents (`shared/oauth/`).
 *
 * Safety, in layers:
 * 1. Static checks before anything else (`checkUrlStatic`: length, syntax, HTTPS, no userinfo, loopback rules,
 *    literal IP hosts). A refusal is outcome `forbidden`, with no DNS lookup and no connection.
 * 2. At connect time, the address actually dialled is checked, so a name that resolved to a public address
 *    when the destination was created but now resolves to a private one (DNS rebinding) is refused:
 *    - our lookup (passed to the socket) refuses unless EVERY address of the name is public (or, with
 *      `allowLoopback`, exactly 127.0.0.1/::1), with the same `isPublicAddress` rule as destination creation;
 *    - `request-filtering-agent` checks the addresses again (and literal IP hosts) on the same connection.
 *    Either refusal is outcome `forbidden`; the socket never connects.
 * Redirects are never followed (a 3xx is just a `response`). Connect, TLS, response headers and reading up to
 * 1 KiB of the body (a webhook's answer; what the caller asks for otherwise) are all bounded by `timeoutMs`; when it
 * expires the request and socket are destroyed. A webhook's answer is its status: a receiver that sent its 2xx in time
 * and is still sending the body when the time is up has answered (its snippet is what arrived).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { DomainError } from '../../domain/errors.ts';
import { addressRange, checkUrlStatic, defaultLookup, isDeliverableAddress, LOOPBACK_ADDRESSES, type HostLookup, type StaticUrlCheck } from './url-guard.ts';

/** The most of a response body kept (and read) for the delivery record. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export type PostWebhookResult =
  | { outcome: 'response'; status: number; durationMs: number; responseSnippet: string }
  | { outcome: 'network_error'; error: string; durationMs: number }
  | { outcome: 'timeout'; durationMs: number }
  | { outcome: 'forbidden'; error: string; durationMs: number };

export interface PostWebhookInput {
  url: string;
  /** Sent as given (build them with `deliveryHeaders`). Node adds Host, Content-Length and Connection. */
  headers: Readonly<Record<string, string>>;
  /** The exact body that was signed; sent as UTF-8. */
  body: string;
  /** Bound on the whole exchange, in milliseconds (10 000 for deliveries, 15 000 for the test ping). */
  timeoutMs: number;
  /** Local stack only (`config.webhookAllowLoopback`): allow 127.0.0.1 / ::1 receivers, and http to them. */
  allowLoopback: boolean;
  /** Name resolution at connect time; defaults to the system resolver. Tests inject one. */
  lookup?: HostLookup;
}

/** Marks our own connect-time refusal, so it maps to `forbidden` rather than `network_error`. */
const FORBIDDEN_ADDRESS = 'ERR_WEBHOOK_ADDRESS_FORBIDDEN';

class ForbiddenAddressError extends Error {
  readonly code = FORBIDDEN_ADDRESS;
}

/**
 * One agent per mode for the whole process (never one per request). keepAlive is off: every delivery opens
 * (and checks) a fresh connection, and no pooled socket can outlive a Lambda freeze or a destination change.
 * In loopback mode only 127.0.0.1 and ::1 are added to what the agent allows, never private ranges.
 */
const strictHttpsAgent = new RequestFilteringHttpsAgent({ keepAlive: false });
const loopbackHttpsAgent = new RequestFilteringHttpsAgent({ keepAlive: false, allowIPAddressList: [...LOOPBACK_ADDRESSES] });
const loopbackHttpAgent = new RequestFilteringHttpAgent({ keepAlive: false, allowIPAddressList: [...LOOPBACK_ADDRESSES] });

/** The agent's own refusal: `DNS lookup <ip>(family:<n>, host:<name>) is not allowed. Because, …`. */
const AGENT_REFUSAL = /^DNS lookup .+ is not allowed\./;

function connectLookup(resolve: HostLookup, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    Promise.resolve()
      .then(() => resolve(hostname))
      .then(
        (addresses) => {
          const refused = addresses.find((address) => !isDeliverableAddress(address, allowLoopback));
          if (refused !== undefined) {
            const error = new ForbiddenAddressError(
              `The webhook host ${hostname} resolves to a non-public address (${addressRange(refused)}); refused before connecting.`,
            );
            process.nextTick(callback, error, '');
            return;
          }
          const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
          const entries = addresses
            .map((address) => ({ address, family: isIP(address) }))
            .filter((entry) => entry.family !== 0 && (family === 0 || entry.family === family));
          const first = entries[0];
          if (first === undefined) {
            const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            error.code = 'ENOTFOUND';
            process.nextTick(callback, error, '');
          } else if (options.all) {
            process.nextTick(callback, null, entries);
          } else {
            process.nextTick(callback, null, first.address, first.family);
          }
        },
        (error: NodeJS.ErrnoException) => process.nextTick(callback, error, ''),
      );
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  if (!message && error instanceof AggregateError) {
    message = error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ');
  }
  const code = (error as NodeJS.ErrnoException).code;
  return code && !message.includes(code) ? `${code}: ${message}` : message || code || 'unknown error';
}

/** True for a connect-time refusal of the address (ours or request-filtering-agent's), as opposed to a network error. */
export const isConnectRefusal = (error: unknown): boolean =>
  error instanceof Error && ((error as NodeJS.ErrnoException).code === FORBIDDEN_ADDRESS || AGENT_REFUSAL.test(error.message));

/** What one guarded request came to. */
export type GuardedResult =
  | {
      outcome: 'response';
      status: number;
      headers: http.IncomingHttpHeaders;
      /** At most `maxBodyBytes` of the body. */
      body: Buffer;
      /** `maxBodyBytes` were read (the rest, if any, was not), or the peer cut the body off. */
      truncated: boolean;
      durationMs: number;
    }
  | { outcome: 'network_error'; error: string; durationMs: number }
  | { outcome: 'timeout'; durationMs: number }
  | { outcome: 'forbidden'; error: string; durationMs: number };

export interface GuardedRequestInput {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Sent as UTF-8 (none for a GET). */
  body?: string;
  /** Bound on the whole exchange, in milliseconds. */
  timeoutMs: number;
  /** Local stack only: allow 127.0.0.1 / ::1 targets, and http to them. */
  allowLoopback: boolean;
  /** The most of the response body read; past it the connection is closed. */
  maxBodyBytes: number;
  /**
   * The answer is its status (a webhook's): once the status has arrived, a body still coming when `timeoutMs` is up
   * is cut there, and the outcome is the response (`truncated`), not a timeout.
   */
  answeredByStatus?: boolean;
  /** Name resolution at connect time; defaults to the system resolver. Tests inject one. */
  lookup?: HostLookup;
}

/**
 * One request to a URL outside the platform, through every layer of the guard above: the static checks, the
 * connect-time address checks (ours and `request-filtering-agent`'s), no redirect followed, everything bounded by
 * `timeoutMs`, at most `maxBodyBytes` of the answer read. Never rejects for problems of the other side (they are
 * outcomes); only for a non-positive `timeoutMs`. Used for webhook deliveries and for fetching OAuth clients'
 * metadata documents.
 */
export function guardedRequest(input: GuardedRequestInput): Promise<GuardedResult> {
  const { timeoutMs, allowLoopback, maxBodyBytes } = input;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) return Promise.reject(new RangeError('timeoutMs must be a positive number'));
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);

  let checked: StaticUrlCheck;
  try {
    checked = checkUrlStatic(input.url, { allowLoopback });
  } catch (error) {
    if (error instanceof DomainError) return Promise.resolve({ outcome: 'forbidden', error: error.message, durationMs: elapsed() });
    return Promise.reject(error);
  }
  const { url, host } = checked;
  const secure = url.protocol === 'https:';
  // Loopback is reached only through a loopback receiver the static checks let through (127.0.0.1, [::1] or localhost
  // with an explicit port, never one of the local stack's own): any other host that resolves to loopback is refused
  // at connect time, as on a deployed stage. checkUrlStatic only lets http through for such a receiver.
  const reachLoopback = checked.loopbackReceiver;
  const agent = secure ? (reachLoopback ? loopbackHttpsAgent : strictHttpsAgent) : loopbackHttpAgent;

  return new Promise<GuardedResult>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    /** Settles with the response as read so far (set once its status has arrived, when the status is the answer). */
    let answered: (() => void) | undefined;
    const finish = (result: GuardedResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      // The timer runs on the event loop's clock, which may be a fraction of a millisecond behind performance.now():
      // a request cut at its timeout lasted the timeout at least.
      if (answered) answered();
      else finish({ outcome: 'timeout', durationMs: Math.max(timeoutMs, elapsed()) });
      request?.destroy();
    }, timeoutMs);

    const onResponse = (response: http.IncomingMessage): void => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      const respond = (truncated: boolean): void =>
        finish({ outcome: 'response', status, headers: response.headers, body: Buffer.concat(chunks), truncated, durationMs: elapsed() });
      if (input.answeredByStatus) answered = () => respond(true);
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        const part = chunk.length > maxBodyBytes - bytes ? chunk.subarray(0, maxBodyBytes - bytes) : chunk;
        bytes += part.length;
        chunks.push(part);
        if (bytes >= maxBodyBytes) {
          respond(true);
          response.destroy();
          request?.destroy();
        }
      });
      response.on('end', () => respond(false));
      // The body was cut off (peer reset) after the status arrived: still a response.
      response.on('error', () => respond(true));
      response.on('close', () => respond(!response.complete));
    };

    try {
      const options: https.RequestOptions = {
        method: input.method,
        protocol: url.protocol,
        hostname: host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...input.headers },
        agent,
        lookup: connectLookup(input.lookup ?? defaultLookup, reachLoopback),
      };
      request = secure ? https.request(options, onResponse) : http.request(options, onResponse);
    } catch (error) {
      // e.g. a header value with a line break (ERR_INVALID_CHAR): nothing was sent.
      finish({ outcome: 'network_error', error: describeError(error), durationMs: elapsed() });
      return;
    }
    request.on('error', (error) => {
      finish(
        isConnectRefusal(error)
          ? { outcome: 'forbidden', error: error.message, durationMs: elapsed() }
          : { outcome: 'network_error', error: describeError(error), durationMs: elapsed() },
      );
    });
    request.end(input.body === undefined ? undefined : Buffer.from(input.body, 'utf8'));
  });
}

/** POSTs `body` once. Never rejects for delivery problems (they are outcomes); only for a non-positive `timeoutMs`. */
export async function postWebhook(input: PostWebhookInput): Promise<PostWebhookResult> {
  const result = await guardedRequest({ ...input, method: 'POST', maxBodyBytes: RESPONSE_SNIPPET_BYTES, answeredByStatus: true });
  if (result.outcome !== 'response') return result;
  // A multi-byte character cut at the limit is left out; one the body itself ends inside is U+FFFD.
  const decoder = new StringDecoder('utf8');
  const responseSnippet = decoder.write(result.body) + (result.truncated ? '' : decoder.end());
  return { outcome: 'response', status: result.status, durationMs: result.durationMs, responseSnippet };
}
