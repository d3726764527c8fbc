import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { createWebsite } from '../../../shared/organizations/websites.service.ts';

export const handler = route(organizationRoutes.createWebsite, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createWebsite(organization.id, body)),
}));
