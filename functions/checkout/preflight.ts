/** CORS preflight of the buyer checkout routes: 204 with the grants of the path's routes, or 404. */
import { preflightHandler } from '../../shared/platform/http/preflight.ts';
import { checkoutRoutes } from '../../shared/routes/checkout.ts';

export const handler = preflightHandler('checkout', Object.values(checkoutRoutes));
