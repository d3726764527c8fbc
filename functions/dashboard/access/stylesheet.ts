import { route } from '../../../shared/access/auth-none.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';
import { readBuildAsset } from '../../../shared/platform/build-assets.ts';

// A route asset: beside the bundle when deployed, the repository's own file when run unbundled.
const css = readBuildAsset('shared/dashboard/dashboard.css', 'dashboard stylesheet', 'it is in the repository').toString('utf8');

export const handler = route(pages.dashboardStylesheet, () => ({ status: 200, body: css, headers: { 'cache-control': 'public, max-age=300' } }));
