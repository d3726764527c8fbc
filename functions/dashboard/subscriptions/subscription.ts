import { route } from '../../../shared/access/auth-session-page.ts';
import { subscriptionPage } from '../../../shared/dashboard/subscriptions/subscriptions.service.ts';
import * as pages from '../../../shared/dashboard/subscriptions/routes.ts';

export const handler = route(pages.subscriptionPage, ({ merchant, role, params, query, event }) =>
  subscriptionPage(merchant, role, event, params.subscriptionId, query.done),
);
