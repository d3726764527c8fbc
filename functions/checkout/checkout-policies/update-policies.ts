import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { updatePolicies } from '../../../shared/checkout/checkout-policies.service.ts';

export const handler = route(checkoutRoutes.updateCheckoutPolicies, async ({ organization, body }) => ({
  status: 200,
  body: objectReply(await updatePolicies(organization.id, body)),
}));
