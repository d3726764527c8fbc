import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getPlan } from '../../shared/services/plans.ts';

export const handler = route(organizationRoutes.getPlan, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getPlan(organization.id, params.planId!)),
}));
