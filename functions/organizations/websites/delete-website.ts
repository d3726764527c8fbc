import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { deleteWebsite } from '../../../shared/organizations/websites.service.ts';

export const handler = route(organizationRoutes.deleteWebsite, async ({ organization, params }) => ({
  status: 200,
  body: await deleteWebsite(organization.id, params.websiteId),
}));
