import { route } from '../../shared/access/auth-none-page.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { stylesheetOf } from '../../shared/platform/http/stylesheets.ts';

// Route assets (the base and the docs site's own): beside the bundle when deployed, the repository's own file when run unbundled.
const css = stylesheetOf(docsRoutes.DOCS_STYLESHEET_FILE, 'docs stylesheet');

export const handler = route(docsRoutes.docsStylesheet, () => ({ status: 200, body: css, headers: { 'cache-control': 'public, max-age=300' } }));
