/**
 * Null fields are stored as absent attributes, so that conditions can say `attribute_not_exists(x)` and
 * readers treat a missing attribute as null.
 */
export const withoutNulls = <T extends object>(record: T): Partial<T> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as Partial<T>;
