import { route } from '../../shared/access/auth-none-page.ts';
import { PORTAL_SCRIPT, readBrowserScript } from '../../shared/platform/http/browser-scripts.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

const script = readBrowserScript(PORTAL_SCRIPT);

export const handler = route(portalRoutes.portalScript, () => ({ status: 200, body: script, headers: { 'cache-control': 'public, max-age=300' } }));
