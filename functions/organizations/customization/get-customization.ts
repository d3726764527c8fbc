import { route } from '../../../shared/access/auth-session.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { getCheckoutCustomization } from '../../../shared/organizations/customization.service.ts';

export const handler = route(organizationRoutes.getCheckoutCustomization, async ({ merchant }) => ({
  status: 200,
  body: await getCheckoutCustomization(merchant.id),
}));
