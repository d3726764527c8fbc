import { route } from '../../../shared/access/auth-session-page.ts';
import { cancelFromPage } from '../../../shared/dashboard/subscriptions/cancel.service.ts';
import * as pages from '../../../shared/dashboard/subscriptions/routes.ts';

export const handler = route(pages.subscriptionCancelForm, ({ merchant, params, body }) => cancelFromPage(merchant, params.subscriptionId, body.action));
