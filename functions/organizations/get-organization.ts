import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/organizations/routes.ts';
import { getOrganization } from '../../shared/organizations/organizations.service.ts';

export const handler = route(organizationRoutes.getOrganization, async ({ organization }) => ({
  status: 200,
  body: objectReply(getOrganization(organization)),
}));
