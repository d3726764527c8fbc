import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/organizations/routes.ts';
import { submitOnboarding } from '../../shared/organizations/organizations.service.ts';

export const handler = route(organizationRoutes.submitOnboarding, async ({ organization, link, body }) => ({
  status: 201,
  body: objectReply(await submitOnboarding(organization, link, body)),
}));
