import { route } from '../../../shared/access/auth-session-page.ts';
import { payoutsPage } from '../../../shared/dashboard/payouts/payouts.service.ts';
import * as pages from '../../../shared/dashboard/payouts/routes.ts';

export const handler = route(pages.payoutsPage, ({ merchant, role, query, event }) => payoutsPage(merchant, role, event, query));
