/**
 * The join link's page and form (`/join/<token>`): a team invitation (`inv_…`) or an owner-claim link, told apart by
 * the token's shape. The page reads the session when there is one (signed out, it leads through sign-in or sign-up
 * and back); the form, posted signed in, accepts the invitation or claims the merchant.
 */
import { claimableMerchant, claimJoinLink, sessionOfToken, type SessionPrincipal } from '../../people/index.ts';
import { sessionTokenOfCookies } from '../../platform/http/session-cookie.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { acceptInvitation, invitationPage, isInviteToken } from '../team/invitation.service.ts';
import { JoinPage } from './pages.tsx';

/** The join page of `token`, for whoever opens it (signed in or not). */
export async function joinPage(event: HttpEvent, token: string): Promise<Reply> {
  const sessionToken = sessionTokenOfCookies(event.cookies ?? []);
  const session = sessionToken ? sessionOfToken(sessionToken) : Promise.resolve(null);
  if (isInviteToken(token)) return invitationPage(event, token, await session);
  const [merchant, signedIn] = await Promise.all([claimableMerchant(token), session.then((s) => s !== null)]);
  const ctx = pageContext(event);
  return pageReply(ctx, JoinPage({ ctx: signedIn ? ctx : { ...ctx, csrf: undefined }, token, merchantName: merchant.name, signedIn }));
}

/** The join form, posted signed in: the invitation accepted, or the merchant claimed (then its home page). */
export async function joinWithLink(principal: SessionPrincipal, token: string): Promise<Reply> {
  if (isInviteToken(token)) return acceptInvitation(principal, token);
  const claimed = await claimJoinLink(principal, token);
  return seeOther(withDone(merchantPath(claimed.merchantId), 'joined'));
}
