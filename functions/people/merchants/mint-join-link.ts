import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { remintJoinLink } from '../../../shared/people/merchants.service.ts';

export const handler = route(peopleRoutes.mintJoinLink, async ({ merchant }) => ({ status: 201, body: await remintJoinLink(merchant) }));
