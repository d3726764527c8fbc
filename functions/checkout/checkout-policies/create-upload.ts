import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { createPolicyUpload } from '../../../shared/checkout/checkout-policies.service.ts';

export const handler = route(checkoutRoutes.createCheckoutPolicyUpload, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await createPolicyUpload(organization.id, params.policyType, body.size)),
}));
