import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { createWebsite } from '../../shared/services/websites.ts';

export const handler = route(organizationRoutes.createWebsite, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createWebsite(organization.id, body)),
}));
