/** Dates the tests share. */

/** Next calendar year (UTC): an expiry year every card of the tests still has, and a date always ahead. */
export const nextYear = new Date().getUTCFullYear() + 1;

/**
 * Waits, when fewer than `marginMs` are left of the current fixed window of `windowSeconds` (windows aligned to the
 * epoch, as the throttles' counters are), until the next one has begun: attempts made within `marginMs` afterwards all
 * count in one window, never in two that each stay under the limit.
 */
export async function inOneWindow(windowSeconds: number, marginMs = 15_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
