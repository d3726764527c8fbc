import { route } from '../../../shared/access/auth-none-page.ts';
import { setNewPassword } from '../../../shared/dashboard/access/password-reset.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.newPasswordForm, ({ params, body, event }) => setNewPassword(params.token, body, event));
