import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { updatePlan } from '../../shared/services/plans.ts';

export const handler = route(organizationRoutes.updatePlan, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePlan(organization.id, params.planId!, body)),
}));
