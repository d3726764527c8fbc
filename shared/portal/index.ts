/**
 * The customer portal module's front door (portal links and sessions, the merchant's portal rules, the portal's
 * pages): all that other modules may use of it, besides its *.schemas.ts.
 */
export { authenticatePortalSession, type PortalPrincipal } from './portal-sessions.service.ts';
/** The mail templates of the module, for the mail sender (functions/system/send-mail.ts). */
export { portalMails } from './portal.mails.ts';
