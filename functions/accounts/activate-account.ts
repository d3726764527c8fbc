import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-account-secret.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { activate } from '../../shared/services/accounts.ts';

export const handler = route(organizationRoutes.activateAccount, async ({ principal }) => ({ status: 200, body: objectReply(await activate(principal)) }));
