/**
 * The oauth module's front door (OAuth clients and tokens): all that other modules may use of it, besides its
 * *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { verifyOAuthAccessToken } from './access-tokens.service.ts';
export { revokeGrantsMadeBy, revokeGrantsOfMember } from './tokens.service.ts';
