import { route } from '../../../shared/access/auth-none-page.ts';
import { SignUpPage } from '../../../shared/dashboard/access/pages.tsx';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { pageContext, pageReply } from '../../../shared/dashboard/kit/page.ts';

export const handler = route(pages.signUpPage, ({ query, event }) => {
  const ctx = pageContext(event);
  return pageReply(ctx, SignUpPage({ ctx, next: query.next }));
});
