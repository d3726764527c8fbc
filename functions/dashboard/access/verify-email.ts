import { route } from '../../../shared/access/auth-none-page.ts';
import { verifyEmailPage } from '../../../shared/dashboard/access/email-verification.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.verifyEmailPage, ({ params, event }) => verifyEmailPage(params.token, event));
