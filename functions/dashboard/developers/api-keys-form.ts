import { route } from '../../../shared/access/auth-session-page.ts';
import { apiKeysForm } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.apiKeysForm, ({ merchant, role, body, event, principal }) => apiKeysForm(merchant, role, event, body, principal));
