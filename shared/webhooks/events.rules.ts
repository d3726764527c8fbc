/**
 * Events API rules that need no table: the form of an event id, how long the history goes back, and the list's
 * opaque cursor (where the previous page ended).
 */
import { HISTORY_RETENTION_DAYS } from '../platform/db/items.ts';

/** `evt_` + the 32 hex digits of a UUID v7 (the outbox's ids, so they sort by time). */
export const isEventId = (id: string): boolean => /^evt_[0-9a-f]{32}$/.test(id);

/** The oldest `createdAt` the events API shows at `now`: events live 30 days (the outbox item's TTL). */
export const oldestEventTime = (now: Date): string => new Date(now.getTime() - HISTORY_RETENTION_DAYS * 86_400_000).toISOString();

/** Where a page of events ended: its last event's time and id (its place in the merchant's listing). */
export interface EventPosition {
  occurredAt: string;
  id: string;
}

/** The longest cursor accepted: base64url of an ISO time, `#` and an event id, with room to spare. */
const MAX_CURSOR_LENGTH = 120;

/** The cursor of the page after `position`: opaque to callers (base64url of `<occurredAt>#<eventId>`). */
export const eventCursorOf = (position: EventPosition): string => Buffer.from(`${position.occurredAt}#${position.id}`, 'utf8').toString('base64url');

/** The position a cursor names, or null when it is not one this API gave out (the query's 400). */
export function positionOfCursor(cursor: string): EventPosition | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const match = /^(\d{4}-\d{2}-\d{2}T[0-9:.]{8,15}(?:Z|[+-]\d{2}:\d{2}))#(evt_[0-9a-f]{32})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!))) return null;
  return { occurredAt: match[1]!, id: match[2]! };
}
