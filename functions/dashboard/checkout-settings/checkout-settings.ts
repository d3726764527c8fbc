import { route } from '../../../shared/access/auth-session-page.ts';
import { checkoutSettingsGet } from '../../../shared/dashboard/checkout-settings/checkout-settings.service.ts';
import * as pages from '../../../shared/dashboard/checkout-settings/routes.ts';

export const handler = route(pages.checkoutSettingsPage, ({ merchant, role, query, event }) => checkoutSettingsGet(merchant, role, event, query));
