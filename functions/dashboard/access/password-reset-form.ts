import { route } from '../../../shared/access/auth-none-page.ts';
import { requestPasswordReset } from '../../../shared/dashboard/access/password-reset.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.passwordResetForm, ({ body, event }) => requestPasswordReset(body, event));
