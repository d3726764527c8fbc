import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/organizations/routes.ts';
import { setOwnerFlag } from '../../shared/organizations/organizations.service.ts';

export const handler = route(organizationRoutes.setAccountOwnerFlag, async ({ organization, link, params, body }) => ({
  status: 200,
  body: objectReply(await setOwnerFlag(organization, link, params.accountId, body.isOwner)),
}));
