import { route } from '../../../shared/access/auth-none-page.ts';
import { newPasswordPage } from '../../../shared/dashboard/access/password-reset.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.newPasswordPage, ({ params, event }) => newPasswordPage(params.token, event));
