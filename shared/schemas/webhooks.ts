import * as v from 'valibot';
import { eventTypes } from '../events/catalog.ts';
import { CONNECTION_HEADER_NAMES } from '../webhooks/signing.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhooks/url-guard.ts';


const headerName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP header name'));
const headerValue = v.pipe(v.string(), v.maxLength(1024), v.regex(/^[^\r\n\0]*$/, 'must be one line'));

export const MAX_CUSTOM_HEADERS = 20;

export const createWebhookDestinationRequest = v.strictObject({
  url: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MAX_WEBHOOK_URL_LENGTH)),
  eventTypes: v.pipe(
    v.array(v.picklist(eventTypes, `must be one of ${eventTypes.join(', ')}`)),
    v.minLength(1, 'must name at least one event type'),
    v.check((types) => new Set(types).size === types.length, 'must not repeat an event type'),
  ),
  headers: v.optional(v.pipe(
    v.record(headerName, headerValue),
    v.check((h) => Object.keys(h).length <= MAX_CUSTOM_HEADERS, `must have at most ${MAX_CUSTOM_HEADERS} headers`),
    v.check((h) => Object.keys(h).every((name) => !CONNECTION_HEADER_NAMES.has(name.toLowerCase())), 'must not set connection headers such as Host or Content-Length'),
  )),
  receiveSubMerchantEvents: v.optional(v.boolean()),
});

/** `?limit=&cursor=` of the delivery history. */
export const listDeliveriesQuery = v.strictObject({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'must be a whole number'), v.toNumber(), v.minValue(1), v.maxValue(100))),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^evt_[0-9a-f]{32}$/, 'must be a cursor from a previous page'))),
});
