import { route } from '../../../shared/access/auth-session.ts';
import { subscriptionAction } from '../../../shared/dashboard/subscriptions/subscriptions.service.ts';
import * as pages from '../../../shared/dashboard/subscriptions/routes.ts';

export const handler = route(pages.subscriptionForm, ({ merchant, role, params, body, event }) =>
  subscriptionAction(merchant, role, event, params.subscriptionId!, body.action),
);
