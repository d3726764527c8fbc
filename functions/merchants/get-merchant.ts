import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { merchantView } from '../../shared/services/merchants.ts';

export const handler = route(routes.getMerchant, ({ merchant }) => ({ status: 200, body: merchantView(merchant) }));
