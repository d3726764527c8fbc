import { route } from '../../../shared/access/auth-none-page.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { stylesheetOf } from '../../../shared/platform/http/stylesheets.ts';

// Route assets (the base and the dashboard's own): beside the bundle when deployed, the repository's own file when run unbundled.
const css = stylesheetOf('shared/dashboard/dashboard.css', 'dashboard stylesheet');

export const handler = route(pages.dashboardStylesheet, () => ({ status: 200, body: css, headers: { 'cache-control': 'public, max-age=300' } }));
