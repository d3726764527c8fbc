import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { deletePolicy } from '../../../shared/checkout/checkout-policies.service.ts';

export const handler = route(checkoutRoutes.deleteCheckoutPolicyDocument, async ({ organization, params }) => {
  await deletePolicy(organization.id, params.policyType);
  return { status: 204 };
});
