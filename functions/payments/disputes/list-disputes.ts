import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { listDisputes } from '../../../shared/payments/disputes.service.ts';

export const handler = route(paymentRoutes.listDisputes, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listDisputes(organization.id, query), query),
}));
