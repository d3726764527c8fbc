import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { remintJoinLink } from '../../shared/services/merchants.ts';

export const handler = route(routes.mintJoinLink, async ({ merchant }) => ({ status: 201, body: await remintJoinLink(merchant) }));
