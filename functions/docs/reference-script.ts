import { route } from '../../shared/access/auth-none-page.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { DOCS_REFERENCE_SCRIPT, readBrowserScript } from '../../shared/platform/http/browser-scripts.ts';

const script = readBrowserScript(DOCS_REFERENCE_SCRIPT);

export const handler = route(docsRoutes.docsReferenceScript, () => ({ status: 200, body: script, headers: { 'cache-control': 'public, max-age=300' } }));
