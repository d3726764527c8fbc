/**
 * Webhook destination rules that need no network: what request schemas check before `webhooks/url-guard.ts`
 * (DNS, address ranges) looks at a URL at all.
 */

/** The longest webhook destination URL accepted, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
