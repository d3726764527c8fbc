import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/organizations/routes.ts';
import { registerOrganization } from '../../shared/organizations/organizations.service.ts';

export const handler = route(organizationRoutes.registerOrganization, async ({ principal, body }) => ({
  status: 201,
  body: objectReply(await registerOrganization(principal, body)),
}));
