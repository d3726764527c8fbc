import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { addMember } from '../../../shared/people/members.service.ts';

export const handler = route(peopleRoutes.addMember, async ({ merchant, principal, body }) => ({
  status: 201,
  body: await addMember(merchant, principal, body),
}));
