/**
 * The customer portal's paths under a merchant (`/portal/<merchant>`, its entry page, where a customer asks for a
 * sign-in link by e-mail): what the portal serves, and what the platform's mails to customers link to.
 */
export const portalPath = (merchantId: string, rest = '') => `/portal/${merchantId}${rest}`;
