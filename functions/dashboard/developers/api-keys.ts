import { route } from '../../../shared/access/auth-session-page.ts';
import { apiKeysPage } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.apiKeysPage, ({ merchant, role, query, event }) => apiKeysPage(merchant, role, event, { done: query.done }));
