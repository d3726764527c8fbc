/** Dates the tests share. */

/** Next calendar year (UTC): an expiry year every card of the tests still has, and a date always ahead. */
export const nextYear = new Date().getUTCFullYear() + 1;
