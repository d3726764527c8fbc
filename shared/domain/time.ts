/** Times as people read them in mail and on pages. */

/** An ISO time as `YYYY-MM-DD HH:MM UTC`. */
export const utcText = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
