import { route } from '../../../shared/access/auth-session-page.ts';
import { payoutsForm } from '../../../shared/dashboard/payouts/payouts.service.ts';
import * as pages from '../../../shared/dashboard/payouts/routes.ts';

export const handler = route(pages.payoutsForm, ({ merchant, role, body, event }) => payoutsForm(merchant, role, body, event));
