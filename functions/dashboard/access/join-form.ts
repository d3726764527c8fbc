import { route } from '../../../shared/access/auth-session.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { merchantPath } from '../../../shared/dashboard/kit/layout.tsx';
import { seeOther, withDone } from '../../../shared/dashboard/kit/page.ts';
import { claimJoinLink } from '../../../shared/dashboard/access/forms.service.ts';

export const handler = route(pages.joinForm, async ({ principal, params }) => {
  const claimed = await claimJoinLink(principal, params.token!);
  return seeOther(withDone(merchantPath(claimed.merchantId), 'joined'));
});
