/**
 * The people module's front door (merchants, their members and users, sessions, API keys, invites and the sign-in
 * throttle): all that other modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value
 * lists they are written in).
 */
export { activationOf, type ActivationStep } from './activation.rules.ts';
export {
  type ApiKeyPrincipal,
  type ApiKeySummary,
  authenticateApiKey,
  createApiKey,
  listApiKeySummaries,
  revokeApiKey,
  revokeApiKeysMadeBy,
} from './api-keys.service.ts';
export { INVITE_TTL_DAYS, isInviteToken } from './invites.rules.ts';
export { acceptInvite, invitationOfLink, type InvitationView, inviteToTeam, type InviteView, pendingInvites, revokeInvite } from './invites.service.ts';
export { addMember, getMerchantAndMembership, listMembers, merchantsOfUser, removeMember, updateMemberRole } from './members.service.ts';
export type { Membership } from './membership.entity.ts';
export { getMembership, membershipRead, membershipStands } from './memberships.repository.ts';
export {
  changeOwnerAccountCount,
  changePayoutMethodCount,
  getMerchant,
  getPayoutMethodCount,
  merchantRead,
  putNewMerchant,
  registerShardedBalance,
  setOrganizationSettings,
  submitOnboardingOf,
} from './merchants.repository.ts';
export {
  assignMember,
  createOwnMerchant,
  createRootMerchant,
  createSubMerchant,
  goLive,
  merchantView,
  remintJoinLink,
  subMerchantsOf,
  updateWebsiteUrl,
} from './merchants.service.ts';
export {
  confirmEmailVerification,
  emailVerificationPath,
  resendEmailVerification,
  usableEmailVerification,
} from './email-verifications.service.ts';
export { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.rules.ts';
export { finishPasswordReset, PASSWORD_RESET_TTL_SECONDS, startPasswordReset, usablePasswordReset } from './password-resets.service.ts';
export {
  authenticateSession,
  claimableMerchant,
  claimJoinLink,
  clearedSessionCookie,
  merchantsOfPerson,
  sessionCookieOf,
  sessionOfToken,
  type SessionPrincipal,
  sessionMaker,
  signIn,
  signOut,
  signUp,
} from './people.service.ts';
export { mintJoinLink, updateMerchant } from './routes.ts';
export {
  accountSecretLimits,
  beginAttempt,
  deviceSignedIn,
  emailThrottleKey,
  ipThrottleKey,
  type ThrottleRule,
  uncountedLocalSource,
} from './throttle.service.ts';
export { getUser } from './users.repository.ts';
export type { Maker } from './made.entity.ts';
export { listFormerlyMade, listMadeBy, madeByItems } from './made.repository.ts';
export { makeAs } from './made.service.ts';
