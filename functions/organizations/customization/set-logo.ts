import { route } from '../../../shared/access/auth-session.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { setCheckoutLogo } from '../../../shared/organizations/customization.service.ts';

export const handler = route(organizationRoutes.setCheckoutLogo, async ({ merchant, body }) => ({
  status: 200,
  body: await setCheckoutLogo(merchant.id, body),
}));
