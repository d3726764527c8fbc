/**
 * Answering with a dashboard page: a fresh CSP nonce per response, the page rendered to HTML, and the headers every
 * page has. Redirects after a form (post, redirect, get) carry what happened in the query (`?done=<what>`), never a
 * secret: a secret is shown in the answer to the post that made it, once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { config } from '../../platform/config.ts';
import { csrfTokenOf, sessionTokenOfCookies } from '../../platform/http/session-cookie.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import type { PageContext } from './layout.tsx';

/**
 * The CSP of a dashboard page answered with `nonce`; `connectTo`: other origins its script may send requests to (the
 * storage a file is uploaded to through a presigned URL).
 */
export const dashboardCsp = (nonce: string, connectTo: readonly string[] = []): string =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self'",
    ["connect-src 'self'", ...connectTo].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');

/** The page context of a request: a new nonce, the deployment, and on a signed-in page its form token and merchant. */
export function pageContext(event: HttpEvent, merchant?: Merchant, role?: Role): PageContext {
  const session = sessionTokenOfCookies(event.cookies ?? []);
  return {
    nonce: randomBytes(18).toString('base64'),
    mode: config.mode,
    formKey: randomUUID(),
    ...(session ? { csrf: csrfTokenOf(session) } : {}),
    ...(merchant ? { merchant: { id: merchant.id, name: merchant.name, parentId: merchant.parentId } } : {}),
    ...(role ? { role } : {}),
  };
}

/** The answer of a page: its HTML (`<!doctype html>` first) with the nonce's CSP, and any `headers` (say `Retry-After`). */
export async function pageReply(ctx: PageContext, page: JSX.Element, status = 200, cookies?: string[], headers: Record<string, string> = {}): Promise<Reply> {
  return {
    status,
    body: `<!doctype html>${await page.toString()}\n`,
    headers: { ...headers, 'content-security-policy': dashboardCsp(ctx.nonce), 'referrer-policy': 'same-origin' },
    ...(cookies ? { cookies } : {}),
  };
}

/** 303 See Other to a path of this origin (after a form; the browser then GETs it). */
export const seeOther = (path: string, cookies?: string[]): Reply => ({
  status: 303,
  headers: { location: `${config.publicOrigin}${path}` },
  ...(cookies ? { cookies } : {}),
});

/** A path with `?done=<what>` (what the page then says happened). */
export const withDone = (path: string, done: string) => `${path}${path.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`;

/**
 * Waits until `ms` after `started` (a `Date.now()`): a form that must answer everyone alike (an address with an
 * account or not) answers no sooner, whatever it did meanwhile.
 */
export const noSoonerThan = (started: number, ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, started + ms - Date.now())));
