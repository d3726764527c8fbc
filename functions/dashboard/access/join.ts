import { route } from '../../../shared/access/auth-none-page.ts';
import { JoinPage } from '../../../shared/dashboard/access/pages.tsx';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { pageContext, pageReply } from '../../../shared/dashboard/kit/page.ts';
import { claimableMerchant, sessionOfToken } from '../../../shared/dashboard/access/forms.service.ts';
import { invitationPage, isInviteToken } from '../../../shared/dashboard/team/invitation.service.ts';
import { sessionTokenOfCookies } from '../../../shared/platform/http/session-cookie.ts';

export const handler = route(pages.joinPage, async ({ params, event }) => {
  const token = sessionTokenOfCookies(event.cookies ?? []);
  // A team invitation (`inv_…`) or an owner-claim link: told apart by the token's shape.
  if (isInviteToken(params.token!)) return invitationPage(event, params.token!, token ? await sessionOfToken(token) : null);
  const [merchant, session] = await Promise.all([claimableMerchant(params.token!), token ? sessionOfToken(token) : null]);
  const signedIn = session !== null;
  const ctx = pageContext(event);
  return pageReply(ctx, JoinPage({ ctx: signedIn ? ctx : { ...ctx, csrf: undefined }, token: params.token!, merchantName: merchant.name, signedIn }));
});
