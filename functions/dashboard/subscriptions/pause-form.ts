import { route } from '../../../shared/access/auth-session-page.ts';
import { pauseFromPage } from '../../../shared/dashboard/subscriptions/pause.service.ts';
import * as pages from '../../../shared/dashboard/subscriptions/routes.ts';

export const handler = route(pages.subscriptionPauseForm, ({ merchant, params, body }) => pauseFromPage(merchant, params.subscriptionId, body.action));
