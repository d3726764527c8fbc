/**
 * The delivery statuses other modules' pages filter by, apart from the webhook schemas: a page that only lists them
 * does not carry the destinations' and deliveries' schemas.
 */

/** What a delivery record says happened: being sent, answered 2xx, failed, or skipped (an open circuit). */
export const deliveryStatuses = ['sending', 'succeeded', 'failed', 'skipped'] as const;
