import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { createPlan } from '../../../shared/catalog/plans.service.ts';

export const handler = route(catalogRoutes.createPlan, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createPlan(organization.id, body)),
}));
