/**
 * A team invitation link on the join page (`/join/{token}`, whose owner-claim links are the access area's): the page
 * for the person who opened it, and accepting it. The people service decides (shared/people/invites.service.ts);
 * every link that cannot be accepted is the join page's one 404.
 */
import { acceptInvite, invitationOfLink, type SessionPrincipal } from '../../people/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { merchantPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { InvitationPage } from './invitation.tsx';

export { isInviteToken } from '../../people/index.ts';

/** The page of an invitation link, for `session`'s person or for nobody (then without a form token). */
export async function invitationPage(event: HttpEvent, token: string, session: SessionPrincipal | null): Promise<Reply> {
  const invitation = await invitationOfLink(token, session?.userId ?? null);
  const ctx = pageContext(event);
  return pageReply(ctx, InvitationPage({ ctx: session ? ctx : { ...ctx, csrf: undefined }, token, invitation }));
}

/** Accept the invitation of a link as the signed-in person: the merchant's home, which says they joined. */
export async function acceptInvitation(principal: SessionPrincipal, token: string): Promise<Reply> {
  const joined = await acceptInvite(principal, token);
  return seeOther(withDone(merchantPath(joined.merchantId), 'team_joined'));
}
