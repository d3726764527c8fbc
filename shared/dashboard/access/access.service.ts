/** What the signed-out pages need beyond the people service. */
import { returnPathOf } from '../../platform/http/page-errors.ts';

/**
 * Where to go after signing in or up: the page asked for when the platform's one return rule (`returnPathOf`: same
 * origin, a dashboard or join path, dot segments and encodings resolved) takes it, else the merchant switcher.
 */
export function safeNext(next: string | undefined): string {
  return returnPathOf(next) ?? '/dashboard';
}
