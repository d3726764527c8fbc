import { route } from '../../../shared/access/auth-session-page.ts';
import { refundFromPage } from '../../../shared/dashboard/payments/payments.service.ts';
import * as pages from '../../../shared/dashboard/payments/routes.ts';

export const handler = route(pages.paymentRefundForm, ({ merchant, role, params, body, event }) =>
  refundFromPage(merchant, role, event, params.transactionId, body),
);
