import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { assignMember } from '../../../shared/people/merchants.service.ts';

export const handler = route(peopleRoutes.assignMember, async ({ merchant, body }) => ({ status: 201, body: await assignMember(merchant, body) }));
