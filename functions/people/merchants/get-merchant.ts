import * as merchantRoutes from '../../../shared/routes/merchant.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { merchantView } from '../../../shared/people/merchants.service.ts';

export const handler = route(merchantRoutes.getMerchant, ({ merchant }) => ({ status: 200, body: merchantView(merchant) }));
