/** What the signed-out pages need beyond the people service. */

/**
 * Where to go after signing in or up: the page asked for when it is a dashboard or join path of this origin, else
 * the merchant switcher (an absolute URL, `//host` or anything else is never followed).
 */
export function safeNext(next: string | undefined): string {
  return next && /^\/(dashboard|join)([/?][\w\-./?=&%]*)?$/.test(next) && !next.includes('//') ? next : '/dashboard';
}
