/**
 * The customer portal module's front door (portal links and sessions, the merchant's portal rules, the portal's
 * pages): all that other modules may use of it, besides its *.schemas.ts.
 */
export { authenticatePortalSession, type PortalPrincipal } from './portal-sessions.service.ts';
