import { route } from '../../../shared/access/auth-session-page.ts';
import { checkoutSettingsForm } from '../../../shared/dashboard/checkout-settings/checkout-settings.service.ts';
import * as pages from '../../../shared/dashboard/checkout-settings/routes.ts';

export const handler = route(pages.checkoutSettingsForm, ({ merchant, role, body, event }) => checkoutSettingsForm(merchant, role, body, event));
