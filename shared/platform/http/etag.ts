/**
 * Entity tags of cacheable documents (RFC 9110 §8.8.3, §13.1.2): a strong tag that is a hash of the body, and the
 * `If-None-Match` rule that turns a request holding it into 304 Not Modified.
 */
import { createHash } from 'node:crypto';

/** The strong entity tag of a body: `"<32 hex of its SHA-256>"`. */
export const entityTagOf = (body: string): string => `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;

/**
 * Whether a request's `If-None-Match` holds `tag`: `*`, or a comma-separated list of tags one of which is `tag`
 * (compared weakly, as `If-None-Match` does: `W/"x"` matches `"x"`).
 */
export function notModified(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}
