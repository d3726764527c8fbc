/**
 * Where `admin listen` (./cli.ts) is in a merchant's events. The events API lists events in the order they were
 * written (their ids are UUID v7; `createdAt` is the real time in the id), and `after=<eventId>` lists only the events
 * written after one: listen keeps its place by id, never by an event's `occurredAt` (a sandbox test clock dates what
 * it makes in its own time, days or months ahead) nor by this machine's clock.
 */

/** An event as far as its place goes: its id and `createdAt` (real time, the time of its id). */
export interface PlacedEvent {
  id: string;
  createdAt: string;
}

/**
 * How far behind the newest event handled the place stays: an event whose id was minted before a later one's but
 * whose transaction committed after it is still listed. Measured in the events' own `createdAt`.
 */
export const LISTEN_OVERLAP_MS = 30_000;

/**
 * The place: `after`, the id of an event up to which every event was handled (the events API's `after`; none: from
 * the start of what is asked), and the events after it handled already, so a poll that lists them again (the
 * overlap) forwards them once.
 */
export class ListenPlace {
  after: string | undefined;
  private readonly handled = new Map<string, string>();

  constructor(after: string | undefined) {
    this.after = after;
  }

  /** True the first time an event is seen since the place passed it. */
  isNew(e: PlacedEvent): boolean {
    if (this.handled.has(e.id)) return false;
    this.handled.set(e.id, e.createdAt);
    return true;
  }

  /**
   * Moves the place up to the newest event handled `LISTEN_OVERLAP_MS` or more before the newest one handled, and
   * forgets the events up to it: later polls list what follows it (the overlap again), dropping what was handled.
   */
  advance(): void {
    const key = (id: string, createdAt: string) => `${createdAt}#${id}`;
    const newest = Math.max(...[...this.handled.values()].map((t) => Date.parse(t)));
    let place: string | undefined;
    for (const [id, createdAt] of this.handled) {
      if (Date.parse(createdAt) <= newest - LISTEN_OVERLAP_MS && (!place || key(id, createdAt) > place)) place = key(id, createdAt);
    }
    if (!place) return;
    this.after = place.slice(place.indexOf('#') + 1);
    for (const [id, createdAt] of this.handled) if (key(id, createdAt) <= place) this.handled.delete(id);
  }
}
