import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { merchantView } from '../../../shared/people/merchants.service.ts';

export const handler = route(peopleRoutes.getMerchant, ({ merchant }) => ({ status: 200, body: merchantView(merchant) }));
