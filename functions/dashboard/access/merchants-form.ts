import { route } from '../../../shared/access/auth-session-page.ts';
import { sendVerificationWithForm } from '../../../shared/dashboard/access/email-verification.service.ts';
import { createMerchantWithForm } from '../../../shared/dashboard/access/switcher.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.merchantsForm, ({ principal, body, event }) =>
  body.action === 'send_verification' ? sendVerificationWithForm(principal.userId, event) : createMerchantWithForm(principal.userId, body, event),
);
