/** Event ids: `evt_` + a UUID v7, whose first 48 bits are the Unix milliseconds it was minted at (pure: no I/O). */

/**
 * The real time in an event id minted by `outboxEvent` (`evt_` + a UUID v7: its first 48 bits are Unix
 * milliseconds), as ISO 8601; null for an id that is not one.
 */
export function eventTimeOf(id: string): string | null {
  const hex = /^evt_([0-9a-f]{12})7[0-9a-f]{3}[89ab][0-9a-f]{15}$/.exec(id)?.[1];
  return hex ? new Date(Number.parseInt(hex, 16)).toISOString() : null;
}
