import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/catalog/routes.ts';
import { listPlans } from '../../../shared/catalog/plans.service.ts';

export const handler = route(organizationRoutes.listPlans, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPlans(organization.id, query), query),
}));
