import { route } from '../../../shared/access/auth-session-page.ts';
import { mcpTokensForm } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.mcpTokensForm, ({ merchant, role, principal, body, event }) => mcpTokensForm(merchant, role, event, principal, body));
