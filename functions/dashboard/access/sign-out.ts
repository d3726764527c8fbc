import { route } from '../../../shared/access/auth-session-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { seeOther } from '../../../shared/dashboard/kit/page.ts';
import { clearedSessionCookie, signOut } from '../../../shared/dashboard/access/forms.service.ts';

export const handler = route(pages.signOutForm, async ({ principal }) => {
  await signOut(principal);
  return seeOther('/dashboard/sign-in?done=signed_out', [clearedSessionCookie]);
});
