import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { updatePlan } from '../../../shared/catalog/plans.service.ts';

export const handler = route(catalogRoutes.updatePlan, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePlan(organization.id, params.planId, body)),
}));
