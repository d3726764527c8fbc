import { route } from '../../../shared/access/auth-session.ts';
import { merchantsOfPerson } from '../../../shared/dashboard/access/forms.service.ts';
import { MerchantsPage } from '../../../shared/dashboard/access/pages.tsx';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { pageContext, pageReply } from '../../../shared/dashboard/kit/page.ts';

export const handler = route(pages.merchantsPage, async ({ principal, query, event }) => {
  const ctx = pageContext(event);
  const { email, merchants } = await merchantsOfPerson(principal.userId);
  return pageReply(ctx, MerchantsPage({ ctx, email, merchants, done: query.done }));
});
