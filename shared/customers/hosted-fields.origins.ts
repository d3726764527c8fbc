/**
 * Page origins that hosted fields may be mounted on: exactly `https://host[:port]` (scheme, lowercase host and a
 * non-default port only, as browsers serialize an origin, so it compares equal to `location.origin` and to a CSP
 * source), or, on the local stack only, `http://` on a loopback host.
 */

/** Where a page loads the hosted fields' SDK from (`MorHostedFields.mount`), on the platform's origin. */
export const HOSTED_FIELDS_SDK_PATH = '/api/v1/hosted-fields/sdk.js';

/** The longest origin accepted (a 253-character host, the scheme and a port fit well inside). */
export const MAX_ORIGIN_LENGTH = 300;

const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

/** True when `value` is an origin hosted fields may be mounted on (`allowLoopbackHttp`: the local stack). */
export function isPageOrigin(value: string, allowLoopbackHttp: boolean): boolean {
  if (value.length > MAX_ORIGIN_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // Exactly as a browser serializes it, and a host of DNS letters, digits, dots and dashes or an IP literal (never
  // a CSP wildcard such as `*.shop.example`).
  if (url.origin !== value || !/^(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)$/.test(url.hostname)) return false;
  if (url.protocol === 'https:') return true;
  return allowLoopbackHttp && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}
