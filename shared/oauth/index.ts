/** The oauth module's front door: what other modules may use (OAuth clients and tokens). */
export { verifyOAuthAccessToken } from './access-tokens.service.ts';
export { revokeGrantsOfMember } from './tokens.service.ts';
