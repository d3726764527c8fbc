/** CORS preflight of the buyer checkout routes: 204 with the grants of the path's routes, or 404. */
import { preflightHandler } from '../../shared/platform/http/preflight.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';

export const handler = preflightHandler('checkout', Object.values(checkoutRoutes));
