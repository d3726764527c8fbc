import { route } from '../../../shared/access/auth-none-page.ts';
import { SignInPage } from '../../../shared/dashboard/access/pages.tsx';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { pageContext, pageReply } from '../../../shared/dashboard/kit/page.ts';

export const handler = route(pages.signInPage, ({ query, event }) => {
  const ctx = pageContext(event);
  return pageReply(ctx, SignInPage({ ctx, next: query.next, done: query.done }));
});
