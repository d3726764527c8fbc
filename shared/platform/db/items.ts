/**
 * Null fields are stored as absent attributes, so that conditions can say `attribute_not_exists(x)` and
 * readers treat a missing attribute as null.
 */
export const withoutNulls = <T extends object>(record: T): Partial<T> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as Partial<T>;

/** A string attribute as read, or null when the item has none (absent, or not a string). */
export const stringOrNull = (x: unknown): string | null => (typeof x === 'string' ? x : null);

/** Event and delivery history is kept this long, then DynamoDB's TTL removes it. */
export const HISTORY_RETENTION_DAYS = 30;

/** The `ttl` (epoch seconds) of a history item written at `isoTime`. */
export const historyTtl = (isoTime: string): number => Math.ceil(Date.parse(isoTime) / 1000) + HISTORY_RETENTION_DAYS * 86_400;
