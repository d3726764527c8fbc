import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { getPlan } from '../../../shared/catalog/plans.service.ts';

export const handler = route(catalogRoutes.getPlan, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getPlan(organization.id, params.planId)),
}));
