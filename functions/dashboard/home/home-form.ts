import { route } from '../../../shared/access/auth-session-page.ts';
import { goLiveFromHome } from '../../../shared/dashboard/home/home.service.ts';
import * as pages from '../../../shared/dashboard/home/routes.ts';

export const handler = route(pages.homeForm, ({ merchant, role, event }) => goLiveFromHome(merchant, role, event));
