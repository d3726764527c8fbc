import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { createPolicyUpload } from '../../shared/services/checkout-policies.ts';

export const handler = route(organizationRoutes.createCheckoutPolicyUpload, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await createPolicyUpload(organization.id, params.policyType!, body.size)),
}));
