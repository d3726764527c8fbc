import { route } from '../../../shared/access/auth-session-page.ts';
import { subscriptionsPage } from '../../../shared/dashboard/subscriptions/subscriptions.service.ts';
import * as pages from '../../../shared/dashboard/subscriptions/routes.ts';

export const handler = route(pages.subscriptionsPage, ({ merchant, role, query, event }) => subscriptionsPage(merchant, role, event, query));
