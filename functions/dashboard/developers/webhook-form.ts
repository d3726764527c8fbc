import { route } from '../../../shared/access/auth-session-page.ts';
import { destinationForm } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.destinationForm, ({ merchant, role, params, body, event }) =>
  destinationForm(merchant, role, event, params.id, body.action),
);
