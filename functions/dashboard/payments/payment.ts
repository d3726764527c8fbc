import { route } from '../../../shared/access/auth-session-page.ts';
import { paymentPage } from '../../../shared/dashboard/payments/payments.service.ts';
import * as pages from '../../../shared/dashboard/payments/routes.ts';

export const handler = route(pages.paymentPage, ({ merchant, role, params, query, event }) =>
  paymentPage(merchant, role, event, params.transactionId, query.done),
);
