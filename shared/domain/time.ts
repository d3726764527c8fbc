/** Times as people read them in mail and on pages, and whether a date written in a request exists. */

/** An ISO time as `YYYY-MM-DD HH:MM UTC`. */
export const utcText = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Whether the calendar date an ISO 8601 text starts with (`YYYY-MM-DD`) exists: no 30 February, no 31 April. */
export function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day!)).getUTCDate() === day;
}
