import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { deletePolicy } from '../../shared/services/checkout-policies.ts';

export const handler = route(organizationRoutes.deleteCheckoutPolicyDocument, async ({ organization, params }) => {
  await deletePolicy(organization.id, params.policyType!);
  return { status: 204 };
});
