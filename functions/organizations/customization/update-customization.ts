import { route } from '../../../shared/access/auth-session.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { updateCheckoutCustomization } from '../../../shared/organizations/customization.service.ts';

export const handler = route(organizationRoutes.updateCheckoutCustomization, async ({ merchant, body }) => ({
  status: 200,
  body: await updateCheckoutCustomization(merchant.id, body),
}));
