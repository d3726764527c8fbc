import { route } from '../../../shared/access/auth-session-page.ts';
import { webhooksForm } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.webhooksForm, ({ merchant, role, body, event, principal }) => webhooksForm(merchant, role, event, body, principal));
