import { route } from '../../shared/access/auth-none.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { readBuildAsset } from '../../shared/platform/build-assets.ts';

// A route asset: beside the bundle when deployed, the repository's own file when run unbundled.
const css = readBuildAsset(docsRoutes.DOCS_STYLESHEET_FILE, 'docs stylesheet', 'it is in the repository').toString('utf8');

export const handler = route(docsRoutes.docsStylesheet, () => ({ status: 200, body: css, headers: { 'cache-control': 'public, max-age=300' } }));
