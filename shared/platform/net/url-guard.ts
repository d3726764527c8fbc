/**
 * Which webhook destination URLs the service will deliver to (merchant API spec, "Events" → "Destinations";
 * ARCHITECTURE §5). Checked when a destination is created (`assertDeliverableUrl`, with DNS) and again at send
 * time by the transport, on the address actually dialled (see transport.ts).
 *
 * Rules:
 * - at most 2048 characters, no whitespace or control characters, parses as a WHATWG URL (which also
 *   normalises odd IPv4 spellings such as `0x7f.1` or `2130706433` to dotted decimal before we look);
 * - no userinfo (`user:pass@`);
 * - scheme `https:`. Only when `allowLoopback` (local stack, never deployed): `http:` or `https:` to exactly
 *   `127.0.0.1`, `[::1]` or `localhost` WITH an explicit port (written in the URL), which is not one of the
 *   local stack's own ports (DynamoDB Local, the SQS, S3, SES and Secrets Manager servers, the gateway: `localStackPorts`);
 * - the port is 443 or at least 1024: the well-known ports below 1024 belong to other services (SSH, SMTP, …);
 * - the host is not `localhost` or `*.localhost` (otherwise);
 * - a literal IP host, and every address a name resolves to, is a public unicast address (`isPublicAddress`);
 *   a name that does not resolve, or resolves to nothing, is refused.
 *
 * Refusals throw `UnprocessableError('webhook.url_forbidden', …, { field: 'url' })` (HTTP 422). Messages name
 * the host, never the full URL (its path or query may carry a merchant's token). A destination's URL is stored
 * as the WHATWG serialisation of what passed (`normalizedWebhookUrl`), so what is checked is what is dialled.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { UnprocessableError } from '../../domain/errors.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/urls.ts';

export const WEBHOOK_URL_FORBIDDEN = 'webhook.url_forbidden';

/** Resolves a host name to every address it has (IPv4 and IPv6, as text). */
export type HostLookup = (host: string) => Promise<string[]>;

export interface UrlGuardOptions {
  /** Local stack only: accept loopback receivers (`config.webhookAllowLoopback`). */
  allowLoopback: boolean;
  /**
   * With `allowLoopback`: ports on loopback that are the local stack's own and never a receiver. Defaults to
   * `localStackPorts()` of this process's environment.
   */
  localStackPorts?: readonly number[];
  /** Name resolution; defaults to `defaultLookup` (the system resolver). Tests inject one. */
  lookup?: HostLookup;
}

/** The lowest port a destination may use, besides 443: below it are the well-known ports of other services. */
export const MIN_WEBHOOK_PORT = 1024;

/** The port a URL connects to: the one it names, or its scheme's default. */
const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** The local stack's emulators and pages, by the variables that name them to the functions. */
const LOCAL_ENDPOINT_VARIABLES = [
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_DYNAMODB_STREAMS',
  'AWS_ENDPOINT_URL_SQS',
  'AWS_ENDPOINT_URL_S3',
  'AWS_ENDPOINT_URL_SESV2',
  'AWS_ENDPOINT_URL_SECRETS_MANAGER',
  'DASHBOARD_URL',
  'LOCAL_TOKENIZATION_URL',
];

/**
 * The local stack's own ports, from the endpoints its functions are given (`LOCAL_ENDPOINT_VARIABLES`): DynamoDB
 * Local, the SQS, S3 (the policy bucket's), SES and Secrets Manager servers, the gateway (`DASHBOARD_URL`, its
 * origin) and, on a live stack, the tokenization host's gateway. Deployed functions have none of these on loopback.
 */
export function localStackPorts(env: Readonly<Record<string, string | undefined>> = process.env): number[] {
  const ports = new Set<number>();
  for (const name of LOCAL_ENDPOINT_VARIABLES) {
    const value = env[name];
    if (!value) continue;
    try {
      ports.add(portOf(new URL(value)));
    } catch {
      // not a URL: nothing to protect
    }
  }
  return [...ports];
}

/** The URL as it is stored and dialled: the WHATWG serialisation (lower-cased scheme and host, default port dropped). */
export const normalizedWebhookUrl = (raw: string): string => new URL(raw).href;

/** How long a destination's host name may take to resolve when it is checked (creation, update): then it is refused. */
export const LOOKUP_TIMEOUT_MS = 3_000;

/** `dns.lookup(host, { all: true, verbatim: true })`: what the OS resolver (and so a later connect) would use. */
export const defaultLookup: HostLookup = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export const urlForbidden = (message: string): UnprocessableError => new UnprocessableError(WEBHOOK_URL_FORBIDDEN, message, { field: 'url' });

/** Literal loopback hosts accepted when `allowLoopback` (as `URL.hostname` spells them). */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Loopback addresses a connection may reach when `allowLoopback`. Nothing else private, ever. */
export const LOOPBACK_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True only for a public unicast IP address (textual IPv4 dotted-decimal or IPv6, as `net.isIP` accepts).
 *
 * IPv4: ipaddr.js `range() === 'unicast'`, which excludes unspecified 0/8, loopback 127/8, private 10/8,
 * 172.16/12, 192.168/16, link-local 169.254/16 (cloud metadata 169.254.169.254), carrier-grade NAT 100.64/10,
 * multicast 224/4, broadcast, and the reserved/documentation/benchmark ranges (192.0.0/24, 192.0.2/24,
 * 198.18/15, 198.51.100/24, 203.0.113/24, 240/4, …).
 *
 * IPv6: `range() === 'unicast'` AND inside 2000::/3 (global unicast). So loopback, unspecified, unique-local
 * fc00::/7, link-local fe80::/10, site-local, multicast, documentation, discard, and every transition or
 * translation form that embeds an IPv4 address are refused: IPv4-mapped ::ffff:0:0/96 (even of a public IPv4:
 * the send-time agent refuses those too, so accepting one would only make every delivery fail), IPv4-compatible
 * ::/96, rfc6145, NAT64 rfc6052 64:ff9b::/96, 6to4 2002::/16 and Teredo 2001::/32. Their real target depends on
 * relays or translators we do not control; a receiver that wants one of those should publish its plain address.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return false;
  }
  if (address.range() !== 'unicast') return false;
  return address.kind() === 'ipv4' || (address as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** A short human name for why an address is not public ("loopback", "private", …), for messages. */
export function addressRange(ip: string): string {
  try {
    // process() unwraps IPv4-mapped IPv6 so ::ffff:127.0.0.1 reads as "loopback", not "ipv4Mapped".
    const processed = ipaddr.process(ip).range();
    if (processed !== 'unicast') return processed;
    const raw = ipaddr.parse(ip).range();
    if (raw !== 'unicast') return raw; // e.g. ::ffff:93.184.216.34 → "ipv4Mapped"
    return isPublicAddress(ip) ? 'unicast' : 'reserved';
  } catch {
    return 'invalid';
  }
}

/** Whether a connection may go to `ip`: a public address, or (when `allowLoopback`) exactly 127.0.0.1 or ::1. */
export const isDeliverableAddress = (ip: string, allowLoopback: boolean): boolean => isPublicAddress(ip) || (allowLoopback && LOOPBACK_ADDRESSES.includes(ip));

/** The result of the static (no DNS) checks. */
export interface StaticUrlCheck {
  url: URL;
  /** The host as a connect() takes it: `URL.hostname` without IPv6 brackets. */
  host: string;
  /** True when the host is a literal IP address (already checked). */
  literalIp: boolean;
  /** True when this is an allowed local loopback receiver (only possible with `allowLoopback`). */
  loopbackReceiver: boolean;
}

/** True when the URL's authority ends in an explicit `:<port>` (URL normalises a default port away). */
function hasExplicitPort(raw: string): boolean {
  const afterScheme = raw.slice(raw.indexOf('//') + 2);
  const authority = afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
  return /:\d+$/.test(authority);
}

/**
 * Every check that needs no DNS: length, syntax, scheme, userinfo, loopback rules, and literal IP hosts.
 * Throws the 422 `webhook.url_forbidden` error. Does not reject `localhost` NAMES (see assertDeliverableUrl):
 * at send time names are judged by the addresses they resolve to, at connect time.
 */
export function checkUrlStatic(raw: string, opts: { allowLoopback: boolean; localStackPorts?: readonly number[] }): StaticUrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) throw urlForbidden('The webhook URL is missing.');
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw urlForbidden(`The webhook URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  }
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) throw urlForbidden('The webhook URL must not contain whitespace or control characters.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlForbidden('The webhook URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw urlForbidden('The webhook URL must use HTTPS.');
  if (url.username !== '' || url.password !== '') {
    throw urlForbidden('The webhook URL must not contain a user name or password.');
  }
  const hostname = url.hostname;
  if (hostname === '') throw urlForbidden('The webhook URL has no host.');
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literalIp = isIP(host) !== 0;

  const port = portOf(url);
  const portAllowed = port >= MIN_WEBHOOK_PORT || port === 443;
  const portRefused = () => urlForbidden(`The webhook URL port ${port} is not allowed: use 443 or a port from ${MIN_WEBHOOK_PORT} up.`);

  const loopbackReceiver = opts.allowLoopback && LOOPBACK_HOSTNAMES.has(hostname) && hasExplicitPort(raw);
  if (loopbackReceiver) {
    // A scheme's default port written out (`https://127.0.0.1:443/`) is normalised away: the URL as stored, checked
    // again at each send, would no longer name a loopback receiver.
    if (url.port === '') throw urlForbidden(`The webhook URL port ${port} is not allowed for a loopback receiver: use a port from ${MIN_WEBHOOK_PORT} up.`);
    if (!portAllowed) throw portRefused();
    if ((opts.localStackPorts ?? localStackPorts()).includes(port)) {
      throw urlForbidden(
        `The webhook URL port ${port} is one of the local stack's own (DynamoDB Local, the SQS server, the S3 server, the SES or Secrets Manager server, or a gateway).`,
      );
    }
    return { url, host, literalIp, loopbackReceiver };
  }

  if (url.protocol !== 'https:') {
    throw urlForbidden(
      opts.allowLoopback
        ? 'The webhook URL must use HTTPS (plain HTTP is only accepted for 127.0.0.1, [::1] or localhost with an explicit port on the local stack).'
        : 'The webhook URL must use HTTPS.',
    );
  }
  if (literalIp && !isPublicAddress(host)) {
    throw urlForbidden(`The webhook URL host ${hostname} is not a public address (${addressRange(host)}).`);
  }
  if (!portAllowed) throw portRefused();
  return { url, host, literalIp, loopbackReceiver };
}

const isLocalhostName = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.+$/, ''); // `localhost.` is the same name
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * Throws the 422 `webhook.url_forbidden` error unless `url` is a deliverable webhook destination: the static
 * checks (checkUrlStatic), no `localhost`/`*.localhost` name, and every address the host resolves to is public.
 * Makes no connection (only a DNS lookup, through `opts.lookup`, for a host name).
 */
export async function assertDeliverableUrl(url: string, opts: UrlGuardOptions): Promise<void> {
  const checked = checkUrlStatic(url, opts);
  if (checked.loopbackReceiver || checked.literalIp) return;
  const { host } = checked;
  if (isLocalhostName(host)) throw urlForbidden('The webhook URL must not point to localhost.');

  let addresses: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // Bounded: a name whose servers never answer is refused, never a request cut off by its function's timeout.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([(opts.lookup ?? defaultLookup)(host), late]);
  } catch {
    throw urlForbidden(`The webhook URL host ${host} could not be resolved.`);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw urlForbidden(`The webhook URL host ${host} could not be resolved.`);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) {
    throw urlForbidden(`The webhook URL host ${host} resolves to a non-public address (${addressRange(refused)}).`);
  }
}
