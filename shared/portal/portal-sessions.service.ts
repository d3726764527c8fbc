/**
 * Signing a customer in to the portal. A **link** (`/portal/<merchantId>/link/<token>`) is made by the merchant (its
 * API: valid an hour) and opens the portal once: its page only shows a button (a GET changes nothing, so a mail
 * scanner or a chat's link preview cannot spend it), whose post spends the link and starts a **session** of an hour
 * in the `__Host-mor_portal` cookie, signed in as that customer of that merchant and nothing else. Only hashes of
 * both tokens are stored. Every unusable link — unknown, another merchant's, spent, expired, of the other
 * deployment — is the same 404.
 */
import { portalPath } from '../domain/portal-paths.ts';
import { customerNotFound, portalLinkInvalid } from '../domain/unknown-ids.ts';
import { UnauthorizedError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { randomHex, sha256Hex } from '../domain/secrets.ts';
import { findCustomer } from '../customers/index.ts';
import { config } from '../platform/config.ts';
import { failedParts, transactWrite } from '../platform/db/transactions.ts';
import { clearedPortalSessionCookie, cookieValue, hostSessionCookie, PORTAL_SESSION_COOKIE } from '../platform/http/session-cookie.ts';
import type { PortalLink, PortalLinkSource, PortalSession } from './portal-session.entity.ts';
import { deletePortalSession, getPortalLink, getPortalSession, putNewPortalLink, spendLinkParts } from './portal-sessions.repository.ts';

/** How long a link opens the portal: an hour when the merchant made it, 15 minutes when it was mailed. */
export const LINK_TTL_SECONDS: Readonly<Record<PortalLinkSource, number>> = { merchant: 3600, email: 900 };
/** How long a portal session lasts. */
export const PORTAL_SESSION_TTL_SECONDS = 3600;

const LINK_TOKEN = /^mor_portal_[0-9a-f]{64}$/;
const SESSION_TOKEN = /^mor_psess_[0-9a-f]{64}$/;

/** Who is signed in to the portal: one customer of one merchant. */
export interface PortalPrincipal {
  readonly kind: 'portalSession';
  readonly sessionId: string;
  readonly merchantId: string;
  readonly customerId: string;
  readonly returnUrl: string | null;
}

/** A return URL the portal may link to: https, or loopback http on a local stack (which serves its pages over http). */
function checkReturnUrl(returnUrl: string | undefined): string | null {
  if (returnUrl === undefined) return null;
  if (returnUrl.startsWith('http://') && !config.publicOrigin.startsWith('http://')) {
    throw new UnprocessableError('portal_session.return_url', 'returnUrl must be an https URL.');
  }
  return returnUrl;
}

/**
 * A link that opens the portal of `merchant` signed in as its customer `customerId` (404 `customer.not_found` for
 * another merchant's or an unknown customer): its id, its URL (shown this once) and when it expires.
 */
export async function createPortalLink(
  merchant: Merchant,
  customerId: string,
  input: { returnUrl?: string | undefined },
  source: PortalLinkSource = 'merchant',
  now = new Date(),
): Promise<{ id: string; url: string; expiresAt: string }> {
  const returnUrl = checkReturnUrl(input.returnUrl);
  const customer = await findCustomer(merchant.id, customerId);
  if (!customer) throw customerNotFound();
  const token = `mor_portal_${randomHex(32)}`;
  const link: PortalLink = {
    id: sha256Hex(token),
    publicId: `pls_${randomHex(16)}`,
    merchantId: merchant.id,
    customerId,
    returnUrl,
    source,
    mode: merchant.mode,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LINK_TTL_SECONDS[source] * 1000).toISOString(),
    spentAt: null,
  };
  await putNewPortalLink(link);
  return { id: link.publicId, url: `${config.publicOrigin}${portalPath(merchant.id, `/link/${token}`)}`, expiresAt: link.expiresAt };
}

/** The link of `token` while it can open the portal of `merchantId`, else 404 `portal_link.invalid`. */
export async function usablePortalLink(merchantId: string, token: string, now = new Date()): Promise<PortalLink> {
  const link = LINK_TOKEN.test(token) ? await getPortalLink(sha256Hex(token)) : null;
  if (!link || link.merchantId !== merchantId || link.spentAt || link.expiresAt <= now.toISOString() || link.mode !== config.mode) throw portalLinkInvalid();
  return link;
}

/**
 * Spends `link` (read by `usablePortalLink`) and starts the customer's portal session: the session's cookie. Of
 * requests spending one link at once, the first has it and the others are refused (the link's condition).
 */
export async function openPortal(link: PortalLink, now = new Date()): Promise<string> {
  const sessionToken = `mor_psess_${randomHex(32)}`;
  const session: PortalSession = {
    id: sha256Hex(sessionToken),
    merchantId: link.merchantId,
    customerId: link.customerId,
    returnUrl: link.returnUrl,
    mode: link.mode,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + PORTAL_SESSION_TTL_SECONDS * 1000).toISOString(),
  };
  const parts = spendLinkParts(link, session, now.toISOString());
  try {
    await transactWrite(parts);
  } catch (e) {
    if (failedParts(e, parts)?.has('link')) throw portalLinkInvalid();
    throw e;
  }
  return hostSessionCookie(PORTAL_SESSION_COOKIE, sessionToken, PORTAL_SESSION_TTL_SECONDS);
}

const signedOut = () => new UnauthorizedError('auth.portal_session', 'Your portal session has ended. Open a new link to continue.');

/** The portal session of a request's cookie (401 when it has none, or one that ended). */
export async function authenticatePortalSession(cookies: readonly string[], now = new Date()): Promise<PortalPrincipal> {
  const token = cookieValue(cookies, PORTAL_SESSION_COOKIE);
  if (!token || !SESSION_TOKEN.test(token)) throw signedOut();
  const session = await getPortalSession(sha256Hex(token));
  if (!session || session.expiresAt <= now.toISOString() || session.mode !== config.mode) throw signedOut();
  return { kind: 'portalSession', sessionId: session.id, merchantId: session.merchantId, customerId: session.customerId, returnUrl: session.returnUrl };
}

/** Ends the session: its item is deleted and the cookie cleared. */
export async function signOutOfPortal(principal: PortalPrincipal): Promise<string> {
  await deletePortalSession(principal.sessionId);
  return clearedPortalSessionCookie;
}
