import { route } from '../../../shared/access/auth-session-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { merchantPath } from '../../../shared/dashboard/kit/layout.tsx';
import { seeOther, withDone } from '../../../shared/dashboard/kit/page.ts';
import { claimJoinLink } from '../../../shared/dashboard/access/forms.service.ts';
import { acceptInvitation, isInviteToken } from '../../../shared/dashboard/team/invitation.service.ts';

export const handler = route(pages.joinForm, async ({ principal, params }) => {
  // A team invitation (`inv_…`) is accepted; any other link claims its merchant's ownership.
  if (isInviteToken(params.token!)) return acceptInvitation(principal, params.token!);
  const claimed = await claimJoinLink(principal, params.token!);
  return seeOther(withDone(merchantPath(claimed.merchantId), 'joined'));
});
