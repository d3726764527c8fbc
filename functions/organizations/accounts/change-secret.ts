import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-account-secret.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { changeSecret } from '../../../shared/organizations/accounts.service.ts';

export const handler = route(organizationRoutes.changeAccountSecret, async ({ principal, body }) => ({
  status: 200,
  body: objectReply(await changeSecret(principal, body.newSecret)),
}));
