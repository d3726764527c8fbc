import { route } from '../../../shared/access/auth-none-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { DASHBOARD_SCRIPT, readBrowserScript } from '../../../shared/platform/http/browser-scripts.ts';

const script = readBrowserScript(DASHBOARD_SCRIPT);

export const handler = route(pages.dashboardScript, () => ({ status: 200, body: script, headers: { 'cache-control': 'public, max-age=300' } }));
