/**
 * Webhook signing (sender side). See the merchant API spec, "Events" → "Delivery request".
 *
 * Signature: `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<rawBody>`, where `<timestamp>` is the
 * decimal Unix-seconds value sent in `X-Webhook-Timestamp` and `<rawBody>` is the exact body sent.
 *
 * Key choice: the destination's secret is shown to the merchant as a 64-character lowercase hex string, and
 * the HMAC is keyed with **that string's UTF-8 bytes** (64 bytes), NOT with the 32 bytes it would hex-decode
 * to. That is what a receiver gets by writing `createHmac('sha256', secret)` with the string it copied, which
 * is the least surprising choice for merchants; `verify.ts` does the same.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
/** The event's type (`payment.completed`, `webhook.test`, an organization face's `transaction-processed`). */
export const EVENT_TYPE_HEADER = 'X-Webhook-Event';
/** The event's id: the same on every destination that gets the event, and the id the events API shows. */
export const EVENT_ID_HEADER = 'X-Webhook-Id';
export const SIGNATURE_PREFIX = 'sha256=';

/**
 * Header names a destination's custom headers can never set: the five the service sets itself, plus the
 * ones that frame or route the HTTP message (the transport manages them; a custom value would corrupt the
 * request). Lowercase. Destination validation may reject these up front; `deliveryHeaders` drops them anyway.
 */
/** The headers every delivery sets itself; a custom header of the same name is overwritten. */
export const DELIVERY_HEADER_NAMES: ReadonlySet<string> = new Set([
  'content-type',
  'x-webhook-event',
  'x-webhook-id',
  'x-webhook-timestamp',
  'x-webhook-signature',
]);

/** Headers of the HTTP connection itself, which a destination may not set (they would break the request). */
export const CONNECTION_HEADER_NAMES: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'host',
  'expect',
  'upgrade',
  'te',
  'trailer',
]);

export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([...DELIVERY_HEADER_NAMES, ...CONNECTION_HEADER_NAMES]);
export const isReservedHeaderName = (name: string): boolean => RESERVED_HEADER_NAMES.has(name.toLowerCase());

/** `sha256=<hex>` for a delivery; `timestamp` is in Unix seconds (a non-negative integer). */
export function signatureOf(secret: string, timestamp: number, rawBody: string): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('timestamp must be a non-negative integer number of Unix seconds');
  }
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(rawBody, 'utf8');
  return SIGNATURE_PREFIX + hmac.digest('hex');
}

/** What a delivery says about its event beside the body: its type and id (`X-Webhook-Event`, `X-Webhook-Id`). */
export interface DeliveredEvent {
  id: string;
  type: string;
}

/**
 * The headers of one delivery: the destination's custom headers first, then `Content-Type`, `X-Webhook-Event`,
 * `X-Webhook-Id`, `X-Webhook-Timestamp` and `X-Webhook-Signature`, which overwrite any custom header of the same
 * name in any letter case. Custom headers in RESERVED_HEADER_NAMES are dropped (compared case-insensitively).
 * The event's type and id travel in headers so a receiver can tell apart (and deduplicate) bodies that are the
 * bare payload: `payment.completed` and `payment.refunded` bodies have the same shape.
 */
export function deliveryHeaders(
  custom: Readonly<Record<string, string>>,
  secret: string,
  timestamp: number,
  rawBody: string,
  event: DeliveredEvent,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(custom)) {
    if (!isReservedHeaderName(name)) headers[name] = value;
  }
  headers['Content-Type'] = 'application/json';
  headers[EVENT_TYPE_HEADER] = event.type;
  headers[EVENT_ID_HEADER] = event.id;
  headers[TIMESTAMP_HEADER] = String(timestamp);
  headers[SIGNATURE_HEADER] = signatureOf(secret, timestamp, rawBody);
  return headers;
}
