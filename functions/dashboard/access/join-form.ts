import { route } from '../../../shared/access/auth-session-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { joinWithLink } from '../../../shared/dashboard/access/join.service.ts';

export const handler = route(pages.joinForm, ({ principal, params }) => joinWithLink(principal, params.token));
