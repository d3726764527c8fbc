import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getPolicies } from '../../shared/services/checkout-policies.ts';

export const handler = route(organizationRoutes.getCheckoutPolicies, async ({ organization }) => ({
  status: 200,
  body: objectReply(await getPolicies(organization.id)),
}));
