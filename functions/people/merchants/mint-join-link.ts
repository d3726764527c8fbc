import * as merchantRoutes from '../../../shared/routes/merchant.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { remintJoinLink } from '../../../shared/people/merchants.service.ts';

export const handler = route(merchantRoutes.mintJoinLink, async ({ merchant }) => ({ status: 201, body: await remintJoinLink(merchant) }));
