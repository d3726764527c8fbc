import { route } from '../../../shared/access/auth-none-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { joinPage } from '../../../shared/dashboard/access/join.service.ts';

export const handler = route(pages.joinPage, ({ params, event }) => joinPage(event, params.token));
