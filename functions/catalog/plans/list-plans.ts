import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { listPlans } from '../../../shared/catalog/plans.service.ts';

export const handler = route(catalogRoutes.listPlans, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPlans(organization.id, query), query),
}));
