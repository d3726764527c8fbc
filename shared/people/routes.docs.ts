/** The API reference's entries of the people routes (`shared/people/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import { examplePeople, teamRace, lastOwnerMember, ownerOnly } from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const peopleDocs = {
  createMerchant: {
    description:
      "Creates a sub-merchant beneath the calling key's merchant: the parent is always the key's merchant (a `parentId` in the body is refused), and only a root (partner) merchant may create them. With `ownerEmail`, a person on the calling merchant's team who signs in with that e-mail (and has confirmed it) becomes the owner at once, as the members route assigns them; anyone else is sent the join link and owns the merchant by claiming it. Without it the answer carries a `joinLink` the future owner claims within 7 days. Poll `GET /merchants/{merchantId}` or listen for `merchant.owner_attached` to learn when it has been claimed.",
    example: { body: { name: 'Corner Shop', websiteUrl: 'https://corner-shop.example' } },
    errors: [
      {
        status: 409,
        code: 'merchant.parent_is_sub_merchant',
        when: "The key is a sub-merchant's: a sub-merchant cannot create merchants; use the partner's key.",
      },
      {
        status: 422,
        code: 'merchant.owner_not_found',
        when: "No one on the calling merchant's team signs in with `ownerEmail` (whether or not the address has an account elsewhere): create the merchant without it and send its join link instead.",
      },
      {
        status: 422,
        code: 'merchant.owner_unverified',
        when: 'The person on your team who signs in with `ownerEmail` has not confirmed the address yet: create the merchant without it and send its join link instead.',
      },
    ],
  },
  getMerchant: {
    description:
      'The merchant with `ownerAttached` and its activation checklist (`activation.steps`, matched by `key`: owner attached, website set, onboarding submitted, payout method added, gone live). A parent key reads its sub-merchants too. Poll it to learn when an owner has claimed a join link.',
    example: { params: { merchantId: ids.merchantId } },
  },
  updateMerchant: {
    description: "Sets the merchant's website URL (an https URL of at most 2048 characters), which completes the `website_set` activation step.",
    example: { params: { merchantId: ids.merchantId }, body: { websiteUrl: 'https://shop.acme.example' } },
  },
  listApiKeys: {
    description:
      "The merchant's keys: `id`, `name`, `hint` (the prefix and last four characters), `mode`, `createdAt`, `lastUsedAt` (updated at most once a minute) and `revokedAt`. A key itself is never shown again after its creation.",
    example: { params: { merchantId: ids.merchantId } },
  },
  createApiKey: {
    description:
      'Creates a key of the merchant (`mor_test_` + 64 hex on the sandbox, `mor_live_` on live). `apiKey` is in this answer only: only a hash of it is kept. A key made for a sub-merchant reaches that sub-merchant and nothing else.',
    example: { params: { merchantId: ids.merchantId }, body: { name: 'Production server' } },
  },
  revokeApiKey: {
    description:
      'Revokes a key of the merchant: it is refused with 401 from the next request on. Revoking a revoked key answers 204 again; an id that is not a key of this merchant is 404 `api_key.not_found`.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantApiKeyIdToDelete } },
  },
  mintJoinLink: {
    description:
      'Mints a new owner-claim link for a merchant that has no owner yet, valid for 7 days; every earlier link stops working. The person who opens it signs in or up on the dashboard and becomes the owner (`merchant.owner_attached` is sent).',
    example: { params: { merchantId: ids.ownerlessSubMerchantId } },
    errors: [{ status: 409, code: 'merchant.owner_already_attached', when: 'The merchant has an owner already: read the merchant instead.' }],
  },
  assignMember: {
    description:
      "Assigns a user of the parent merchant's team (by sign-in e-mail) to a sub-merchant. On a sub-merchant without an owner the user becomes its owner (no event is sent, and its join link stops working); otherwise they join with `role` (`admin` or `member`, default `member`).",
    example: { params: { merchantId: ids.memberSubMerchantId }, body: { email: 'ops.lead@acme.example', role: 'admin' } },
    errors: [
      { status: 409, code: 'member.already_assigned', when: 'The user is a member of this merchant already.' },
      { status: 422, code: 'merchant.not_a_sub_merchant', when: 'The merchant is a root merchant: members are assigned to sub-merchants only.' },
      { status: 422, code: 'member.not_in_parent_team', when: "No user of the parent merchant's team signs in with that e-mail." },
    ],
  },
  signUp: {
    description:
      "Creates a person who can sign in to the dashboard: an e-mail (one user per e-mail) and a password of 12 to 128 characters, stored as a scrypt hash. A link to confirm the address is mailed to it (valid 7 days; a new one from the dashboard's merchant switcher): until it is opened `emailVerified` is false, and no team can add the person by the address (they are invited instead) nor a partner make them an owner by `ownerEmail`. A user belongs to no merchant until they claim a join link, accept an invitation, open their own merchant or are added to a team. No session is started: sign in next. Attempts are throttled as sign-in's are, per e-mail (10 refusals per 15 minutes) and per source address (50): a sign-up that makes the user gives its slots back. Every sign-up from a source address also counts, made or refused: 20 an hour (each account made is mailed a link, so one source cannot have the platform mail address after address).",
    example: { body: examplePeople.signUp },
    errors: [
      { status: 409, code: 'user.email_taken', when: 'A user with that e-mail exists already: sign in instead.' },
      {
        status: 429,
        code: 'auth.too_many_attempts',
        when: 'Too many refused sign-ups for this e-mail or from this address in the current 15-minute window, or 20 sign-ups from this address in the current hour; `Retry-After` says when to try again.',
      },
    ],
  },
  signIn: {
    description:
      'Starts a 12-hour session: the answer carries the session `token` (send it as `Authorization: Bearer <token>`) and sets the `__Host-mor_session` cookie (`HttpOnly`, `Secure`, `SameSite=Lax`) the dashboard pages use. Attempts are throttled per e-mail (10 failures per 15 minutes) and per source address (50); a successful sign-in gives its slots back, so only failures count.',
    example: { body: examplePeople.signIn },
    errors: [
      { status: 401, code: 'auth.invalid_credentials', when: 'The e-mail or the password is wrong (both answered alike, in the same time).' },
      {
        status: 429,
        code: 'auth.too_many_attempts',
        when: 'Too many failed attempts for this e-mail or from this address in the current 15-minute window, whatever the password; `Retry-After` says when to try again.',
      },
    ],
  },
  signOut: {
    description:
      'Ends the session the request was made with (its token stops working at once) and clears the session cookie. Other sessions of the same person stay signed in.',
    example: { headers: { Authorization: `Bearer ${ids.sessionTokenToEnd}` } },
  },
  me: {
    description:
      'The signed-in person (id, e-mail, whether they have confirmed it, name) and the merchants they are a member of, each with their role (`owner`, `admin` or `member`).',
    example: {},
  },
  claimJoinLink: {
    description:
      "Makes the signed-in person the owner of a merchant through its latest join link (`/join/<token>`, minted by the partner's key when the merchant is created or later). The owner, the owner membership and the `merchant.owner_attached` event are written in one transaction: of concurrent claims exactly one wins. Every link that cannot be claimed (made up, replaced by a newer one, expired, used, or for a merchant that has an owner) gets the same 404 `join_link.invalid`.",
    example: { params: { token: ids.joinLinkToken } },
  },
  listMembers: {
    description:
      "The merchant's team, oldest membership first, a page at a time (`page` from 1, `limit` 1–100): each member's user id, sign-in e-mail, name, role and since when. Any member may read it.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  addMember: {
    description:
      'Adds, as `admin` or `member` (default `member`), someone the signed-in owner or admin already works with: a person on another of their teams who signs in with that e-mail and has confirmed it (they agreed to work with them when they joined that team). Anyone else is invited (`POST …/invitations`): no one is put on a team without agreeing to it. Owners are never added: an owner is made by a role change. The new member reaches the merchant with their next request.',
    example: { params: { merchantId: ids.merchantId }, body: { email: examplePeople.newMember.email, role: 'admin' } },
    errors: [
      {
        status: 422,
        code: 'member.invite_required',
        when: 'No one on another of your teams signs in with that e-mail and has confirmed it, whether or not the address has an account: invite them instead.',
      },
      { status: 409, code: 'member.already_assigned', when: 'That user is on the team already.' },
    ],
  },
  inviteMember: {
    description:
      "Invites an e-mail address to the team as `admin` or `member` (default `member`); owners and admins may. A link (`/join/inv_…`) is mailed to the address, good once for 7 days: the person signs up or signs in with that address and accepts it (`POST /invitations/{token}/accept`, or the link's page). A new invitation of the same address replaces the earlier one (same `inviteId`). The team page lists, sends again and revokes them.",
    example: { params: { merchantId: ids.merchantId }, body: { email: examplePeople.invited.email, role: 'member' } },
    errors: [
      { status: 409, code: 'member.already_assigned', when: 'Someone who signs in with that address is on the team already.' },
      {
        status: 429,
        code: 'auth.too_many_attempts',
        when: 'This merchant sent 30 invitations in the current hour; `Retry-After` says when to try again.',
      },
      {
        status: 503,
        code: 'invite.mail_not_sent',
        when: 'The invitation is saved, but its mail could not be sent just now (`Retry-After`): send it again, which replaces it.',
      },
    ],
  },
  acceptInvitation: {
    description:
      'Accepts an invitation as the signed-in person, who must sign in with the address it was mailed to (403 otherwise): they join the team with its role, the link is spent, and their address counts as confirmed (the link reached it), in one transaction. A link that cannot be accepted (made up, replaced, revoked, expired or used) is the same 404 `join_link.invalid`.',
    example: { params: { token: ids.invitationToken } },
    errors: [
      { status: 403, code: 'forbidden', when: 'The signed-in person does not sign in with the address the invitation was mailed to: sign in with that one.' },
      { status: 409, code: 'member.already_assigned', when: 'The signed-in person is on that team already; the invitation stays.' },
    ],
  },
  updateMember: {
    description:
      "Changes a member's role. Owners may give any role, `owner` included; admins may switch members between `admin` and `member` (themselves too) but never change an owner nor make one. The same role again changes nothing. The merchant always keeps an owner: DynamoDB holds the rule, so concurrent demotions of the last two owners cannot both succeed.",
    example: { params: { merchantId: ids.merchantId, userId: ids.teamMemberUserId }, body: { role: 'member' } },
    errors: [ownerOnly, lastOwnerMember, teamRace],
  },
} satisfies ModuleDocs<typeof routes>;
