import { joinLinkInvalid, memberNotFound, merchantApiKeyNotFound } from '../domain/unknown-ids.ts';
import {
  apiKeySummaries,
  assignMerchantMemberRequest,
  assignMerchantMemberResponse,
  createApiKeyRequest,
  createApiKeyResponse,
  createMerchantRequest,
  createMerchantResponse,
  getMerchantResponse,
  merchantJoinLinkResponse,
  updateMerchantWebsiteUrlRequest,
  updateMerchantWebsiteUrlResponse,
} from '../platform/http/schemas/merchant-api.ts';
import { pageOnlyQuery } from '../platform/http/schemas/common.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  addMemberRequest,
  invitation,
  invitationAccepted,
  inviteRequest,
  joinLinkClaim,
  me as meResponse,
  member,
  memberPage,
  session,
  signInRequest,
  signUpRequest,
  updateMemberRequest,
  user,
} from './dashboard.schemas.ts';
import { managers } from '../platform/http/route-def.ts';

export const createMerchant = {
  face: 'merchant',
  name: 'merchants-create',
  method: 'POST',
  path: '/api/v1/public-api/merchants',
  handler: 'functions/people/merchants/create-merchant.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: createMerchantRequest,
  status: 201,
  response: createMerchantResponse,
  summary: "Create a sub-merchant of the calling key's merchant.",
} as const satisfies RouteDef;

export const getMerchant = {
  face: 'merchant',
  name: 'merchants-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}',
  handler: 'functions/people/merchants/get-merchant.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  response: getMerchantResponse,
  summary: 'Read a merchant with owner and activation status.',
} as const satisfies RouteDef;

export const updateMerchant = {
  face: 'merchant',
  name: 'merchants-update',
  method: 'PATCH',
  path: '/api/v1/public-api/merchants/{merchantId}',
  handler: 'functions/people/merchants/update-merchant.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: updateMerchantWebsiteUrlRequest,
  status: 200,
  response: updateMerchantWebsiteUrlResponse,
  summary: 'Update the merchant website URL.',
} as const satisfies RouteDef;

export const listApiKeys = {
  face: 'merchant',
  name: 'api-keys-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/api-keys',
  handler: 'functions/people/api-keys/list-api-keys.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  response: apiKeySummaries,
  summary: 'List API key summaries (never secrets).',
} as const satisfies RouteDef;

export const createApiKey = {
  face: 'merchant',
  name: 'api-keys-create',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/api-keys',
  handler: 'functions/people/api-keys/create-api-key.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: createApiKeyRequest,
  status: 201,
  response: createApiKeyResponse,
  summary: 'Create an API key; the secret is shown in this response only.',
} as const satisfies RouteDef;

export const revokeApiKey = {
  face: 'merchant',
  name: 'api-keys-revoke',
  method: 'DELETE',
  path: '/api/v1/public-api/merchants/{merchantId}/api-keys/{id}',
  handler: 'functions/people/api-keys/revoke-api-key.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 204,
  response: null,
  unknownId: merchantApiKeyNotFound,
  summary: 'Revoke an API key.',
} as const satisfies RouteDef;

export const mintJoinLink = {
  face: 'merchant',
  name: 'merchants-join-link',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/join-link',
  handler: 'functions/people/merchants/mint-join-link.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 201,
  response: merchantJoinLinkResponse,
  summary: 'Re-mint the owner-claim join link.',
} as const satisfies RouteDef;

export const assignMember = {
  face: 'merchant',
  name: 'merchants-assign-member',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/members',
  handler: 'functions/people/merchants/assign-member.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: assignMerchantMemberRequest,
  status: 201,
  response: assignMerchantMemberResponse,
  summary: "Assign a user of the parent's team to a sub-merchant.",
} as const satisfies RouteDef;

export const signUp = {
  face: 'dashboard-api',
  name: 'users-sign-up',
  method: 'POST',
  path: '/api/v1/dashboard/users',
  handler: 'functions/people/sign-up.ts',
  auth: 'none',
  group: 'dashboard',
  table: 'readWrite',
  body: signUpRequest,
  status: 201,
  response: user,
  sendsMail: true,
  summary: 'Create a user; a link to confirm the address is mailed to it.',
} as const satisfies RouteDef;

export const signIn = {
  face: 'dashboard-api',
  name: 'sessions-create',
  method: 'POST',
  path: '/api/v1/dashboard/sessions',
  handler: 'functions/people/sign-in.ts',
  auth: 'none',
  group: 'dashboard',
  table: 'readWrite',
  body: signInRequest,
  status: 201,
  response: session,
  summary: 'Sign in: start a session.',
} as const satisfies RouteDef;

export const signOut = {
  face: 'dashboard-api',
  name: 'sessions-delete',
  method: 'DELETE',
  path: '/api/v1/dashboard/sessions/current',
  handler: 'functions/people/sign-out.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'readWrite',
  status: 204,
  response: null,
  summary: 'Sign out: end the current session.',
} as const satisfies RouteDef;

export const me = {
  face: 'dashboard-api',
  name: 'me-get',
  method: 'GET',
  path: '/api/v1/dashboard/me',
  handler: 'functions/people/get-me.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  status: 200,
  response: meResponse,
  summary: 'The signed-in user and their merchants.',
} as const satisfies RouteDef;

export const claimJoinLink = {
  face: 'dashboard-api',
  name: 'join-links-claim',
  method: 'POST',
  path: '/api/v1/dashboard/join-links/{token}/claim',
  handler: 'functions/people/claim-join-link.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'readWrite',
  status: 200,
  response: joinLinkClaim,
  unknownId: joinLinkInvalid,
  summary: "Claim a merchant's ownership through its latest join link.",
} as const satisfies RouteDef;

// Team members (who may change whom: shared/people/members.service.ts)
export const listMembers = {
  face: 'dashboard-api',
  name: 'members-list',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/members',
  handler: 'functions/people/members/list-members.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  query: pageOnlyQuery,
  status: 200,
  response: memberPage,
  summary: "List the merchant's team, oldest membership first, a page (`page`, `limit`) at a time.",
} as const satisfies RouteDef;

export const addMember = {
  face: 'dashboard-api',
  name: 'members-add',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/members',
  handler: 'functions/people/members/add-member.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: addMemberRequest,
  status: 201,
  response: member,
  summary: 'Add someone you work with on another team, by sign-in e-mail, as admin or member; invite anyone else.',
} as const satisfies RouteDef;

// Invitations: the way onto a team for anyone the adding person does not already work with.
export const inviteMember = {
  face: 'dashboard-api',
  name: 'invitations-create',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/invitations',
  handler: 'functions/people/members/invite-member.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: inviteRequest,
  sendsMail: true,
  status: 201,
  response: invitation,
  summary: 'Invite an e-mail address to the team as admin or member: a link is mailed to it, good once for 7 days.',
} as const satisfies RouteDef;

export const acceptInvitation = {
  face: 'dashboard-api',
  name: 'invitations-accept',
  method: 'POST',
  path: '/api/v1/dashboard/invitations/{token}/accept',
  handler: 'functions/people/accept-invitation.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'readWrite',
  status: 200,
  response: invitationAccepted,
  unknownId: joinLinkInvalid,
  summary: 'Accept an invitation mailed to the signed-in person: they join its team with its role.',
} as const satisfies RouteDef;

export const updateMember = {
  face: 'dashboard-api',
  name: 'members-update',
  method: 'PATCH',
  path: '/api/v1/dashboard/merchants/{merchantId}/members/{userId}',
  handler: 'functions/people/members/update-member.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: updateMemberRequest,
  status: 200,
  response: member,
  unknownId: memberNotFound,
  summary: "Change a member's role (owners: any role; admins: admin or member, never an owner). The last owner stays.",
} as const satisfies RouteDef;
