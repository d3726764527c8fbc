/**
 * Events API rules that need no table: the form of an event id, how long the history goes back, and the list's
 * places: the opaque `cursor` (where the previous page ended) and `after` (an event id: only the events written after
 * it). Both are places in the merchant's order, the order of the event ids (UUID v7), never of a clock's time.
 */
import { HISTORY_RETENTION_DAYS } from '../platform/db/items.ts';
import { eventTimeOf } from '../platform/events/event-ids.ts';

/** `evt_` + the 32 hex digits of a UUID v7 (the outbox's ids, so they sort by the real time they were written). */
export const isEventId = (id: string): boolean => /^evt_[0-9a-f]{32}$/.test(id);

/** The oldest `createdAt` the events API shows at `now`: events live 30 days (the outbox item's TTL). */
export const oldestEventTime = (now: Date): string => new Date(now.getTime() - HISTORY_RETENTION_DAYS * 86_400_000).toISOString();

/**
 * A place in a merchant's events: an event's listing key, `<createdAt>#<eventId>` (`createdAt` being real time,
 * the time of the id).
 */
export interface EventPosition {
  createdAt: string;
  id: string;
}

/** The listing key of a place (what the merchant's events sort by). */
export const listingKeyOf = (position: EventPosition): string => `${position.createdAt}#${position.id}`;

/** The place of an event from its id alone (a UUID v7 carries its time), or null for an id the outbox never mints. */
export function positionOfEventId(id: string): EventPosition | null {
  const createdAt = eventTimeOf(id);
  return createdAt ? { createdAt, id } : null;
}

/** The longest cursor accepted: base64url of an ISO time, `#` and an event id, with room to spare. */
const MAX_CURSOR_LENGTH = 120;

/** The cursor of the page after the event listed at `listingKey`: opaque to callers (base64url of `<createdAt>#<eventId>`). */
export const eventCursorOf = (listingKey: string): string => Buffer.from(listingKey, 'utf8').toString('base64url');

/** The position a cursor names, or null when it is not one this API gave out (the query's 400). */
export function positionOfCursor(cursor: string): EventPosition | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const match = /^(\d{4}-\d{2}-\d{2}T[0-9:.]{8,15}(?:Z|[+-]\d{2}:\d{2}))#(evt_[0-9a-f]{32})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!))) return null;
  return { createdAt: match[1]!, id: match[2]! };
}
