import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getOrganization } from '../../shared/services/organizations.ts';

export const handler = route(organizationRoutes.getOrganization, async ({ organization }) => ({
  status: 200,
  body: objectReply(getOrganization(organization)),
}));
