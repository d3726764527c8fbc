import { route } from '../../../shared/access/auth-none-page.ts';
import { confirmEmail } from '../../../shared/dashboard/access/email-verification.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.verifyEmailForm, ({ params, body, event }) => confirmEmail(params.token, body, event));
