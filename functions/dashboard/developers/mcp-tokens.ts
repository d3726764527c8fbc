import { route } from '../../../shared/access/auth-session-page.ts';
import { mcpTokensPage } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.mcpTokensPage, ({ merchant, role, principal, query, event }) =>
  mcpTokensPage(merchant, role, event, principal.userId, { done: query.done }),
);
