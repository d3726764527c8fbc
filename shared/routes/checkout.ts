/** Buyer checkout (public, no auth; ids are unguessable), under `/api/v1/checkout`. */
import { faceRoutes } from './types.ts';

export const checkoutRoutes = faceRoutes('checkout', {});
