import { route } from '../../../shared/access/auth-session-page.ts';
import { destinationPage } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.destinationPage, ({ merchant, role, params, query, event }) =>
  destinationPage(merchant, role, event, params.id, query, { done: query.done }),
);
