import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-account-secret.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { changeSecret } from '../../shared/services/accounts.ts';

export const handler = route(organizationRoutes.changeAccountSecret, async ({ principal, body }) => ({
  status: 200,
  body: objectReply(await changeSecret(principal, body.newSecret)),
}));
