/**
 * Inviting people to a merchant's team by e-mail, and accepting an invitation.
 *
 * - An owner or admin invites an address as `member` or `admin` (who may invite is the caller's check: the team page
 *   lets owners and admins). The invitation is stored with the verifier of a fresh link only; the link is e-mailed
 *   through the platform mailer. Inviting the same address again replaces the invitation: the earlier link stops
 *   working. A link works for `INVITE_TTL_DAYS` (the owner-claim join link's time) and once.
 * - The person opens the link (`/join/{token}`), signs up or in, and accepts: signed in with the address invited
 *   (case-insensitively), since the link is only as private as the mailbox it was sent to. Accepting is one
 *   transaction: the invitation is spent on the condition that the link is still its latest and unexpired, and the
 *   membership is created on the condition that there is none; so of two accepts at once, one joins.
 * - Every link that cannot be accepted — made up, replaced, revoked, used or expired — is the join page's one 404
 *   `join_link.invalid`, as an owner-claim link that cannot be claimed is.
 */
import { utcText } from '../domain/time.ts';
import { ConflictError, DomainError, ForbiddenError, UnauthorizedError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { safeEqual } from '../domain/secrets.ts';
import { inviteNotFound, joinLinkInvalid } from '../domain/unknown-ids.ts';
import { config } from '../platform/config.ts';
import { failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { sendMail } from '../platform/mail/mailer.ts';
import { logger } from '../platform/observability.ts';
import { deleteInvite, getInvite, listInvites, putInvite, spendInvite } from './invites.repository.ts';
import type { TeamInvite } from './invite.entity.ts';
import {
  generateInviteToken,
  invitationOfToken,
  inviteExpiry,
  inviteEmailKey,
  inviteIdOf,
  inviteTokenVerifierOf,
  isInvitedPerson,
  type InviteRole,
} from './invites.rules.ts';
import { getMembership, putNewMembership } from './memberships.repository.ts';
import { getMerchant } from './merchants.repository.ts';
import type { SessionPrincipal } from './people.service.ts';
import { getUser, getUserByEmail } from './users.repository.ts';
import { markEmailVerified } from './email-verifications.repository.ts';
import { beginAttempt, invitationLimit } from './throttle.service.ts';

const roleNames: Readonly<Record<InviteRole, string>> = { admin: 'Admin', member: 'Member' };

/** What the team page shows of an invitation: never its link. */
export interface InviteView {
  inviteId: string;
  email: string;
  role: InviteRole;
  expiresAt: string;
  expired: boolean;
  createdAt: string;
}

const inviteView = (i: TeamInvite, now: string): InviteView => ({
  inviteId: i.inviteId,
  email: i.email,
  role: i.role,
  expiresAt: i.expiresAt,
  expired: i.expiresAt <= now,
  createdAt: i.createdAt,
});

const alreadyMember = () => new ConflictError('member.already_assigned', 'That person is already a member of this team.');

/** 503: the invitation is kept (pending, listed), but SES refused its mail (past its sending rate, say). */
const invitationNotMailed = () =>
  new DomainError(
    503,
    'invite.mail_not_sent',
    'The invitation is saved, but its e-mail could not be sent just now. Send it again in a minute: the new one replaces it.',
    {},
    { 'retry-after': '60' },
  );

/**
 * Invite `email` to `merchant`'s team as `role`, on behalf of `principal` (an owner or admin: the caller checks):
 * refused (409) when a user of that address is on the team already, and past the merchant's `invitationLimit` (429).
 * The invitation replaces any earlier one of the same address; the link goes out by e-mail only (503
 * `invite.mail_not_sent` when the mail cannot be sent: the invitation is kept, and sending it again replaces it).
 */
export async function inviteToTeam(
  merchant: Merchant,
  principal: SessionPrincipal,
  input: { email: string; role: InviteRole },
  now = new Date().toISOString(),
): Promise<InviteView> {
  const email = inviteEmailKey(input.email);
  const [existing, inviter] = await Promise.all([getUserByEmail(email), getUser(principal.userId)]);
  if (existing && (await getMembership(merchant.id, existing.id))) throw alreadyMember();
  // Every invitation mailed counts (a new one and one sent again): past the limit, 429 with when to try again.
  await beginAttempt([{ rule: invitationLimit, key: merchant.id }], new Date(now));
  const inviteId = inviteIdOf(merchant.id, email);
  const token = generateInviteToken(merchant.id, inviteId);
  const invite: TeamInvite = {
    merchantId: merchant.id,
    inviteId,
    email,
    role: input.role,
    verifier: inviteTokenVerifierOf(token),
    expiresAt: inviteExpiry(now),
    invitedBy: principal.userId,
    createdAt: now,
  };
  await putInvite(invite);
  const by = inviter ? (inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email) : 'A member of the team';
  await sendMail(
    {
      to: email,
      subject: `You are invited to join ${merchant.name}`,
      text: [
        `${by} invited you to join the team of ${merchant.name} as ${roleNames[input.role]}.`,
        '',
        `Accept the invitation: ${config.dashboardUrl}/join/${token}`,
        '',
        `Sign up or sign in with this e-mail address (${email}) to accept. The link works once, until ${utcText(invite.expiresAt)}; a newer invitation replaces it.`,
        'If you did not expect this invitation, you can ignore this e-mail.',
      ].join('\n'),
    },
    now,
  ).catch((error: unknown) => {
    logger.error('team invitation mail not sent', { merchantId: merchant.id, error: error as Error });
    throw invitationNotMailed();
  });
  return inviteView(invite, now);
}

/** The merchant's invitations not accepted or revoked yet, oldest first; an expired one says so (it can be sent again). */
export async function pendingInvites(merchant: Merchant, now = new Date().toISOString()): Promise<InviteView[]> {
  return (await listInvites(merchant.id)).map((i) => inviteView(i, now));
}

/** Revoke an invitation: its link stops working. 404 `invite.not_found` when it is not pending. */
export async function revokeInvite(merchant: Merchant, inviteId: string): Promise<void> {
  if (!/^[0-9a-f]{16}$/.test(inviteId) || !(await deleteInvite(merchant.id, inviteId))) throw inviteNotFound();
}

/** The invitation a link may still be accepted with, and its merchant; every other link is the 404 `join_link.invalid`. */
async function openInvite(token: string, now: string): Promise<{ invite: TeamInvite; merchant: Merchant }> {
  const named = invitationOfToken(token);
  const [invite, merchant] = named ? await Promise.all([getInvite(named.merchantId, named.inviteId), getMerchant(named.merchantId)]) : [null, null];
  if (!invite || !merchant || !safeEqual(invite.verifier, inviteTokenVerifierOf(token)) || invite.expiresAt <= now) throw joinLinkInvalid();
  return { invite, merchant };
}

/** What the join page shows of an invitation link, for the person signed in (`userId`) or nobody. */
export interface InvitationView {
  merchantName: string;
  email: string;
  role: InviteRole;
  expiresAt: string;
  /** The signed-in person's e-mail, or null when nobody is signed in. */
  signedInAs: string | null;
  /** Whether the signed-in person is the one invited (their e-mail is the address invited). */
  isInvited: boolean;
  /** Whether the signed-in person is on the team already. */
  isMember: boolean;
  merchantId: string;
}

/** The invitation of a link as the join page shows it; 404 `join_link.invalid` for a link that cannot be accepted. */
export async function invitationOfLink(token: string, userId: string | null, now = new Date().toISOString()): Promise<InvitationView> {
  const merchantId = invitationOfToken(token)?.merchantId;
  const [{ invite, merchant }, user, membership] = await Promise.all([
    openInvite(token, now),
    userId ? getUser(userId) : null,
    userId && merchantId ? getMembership(merchantId, userId) : null,
  ]);
  return {
    merchantId: merchant.id,
    merchantName: merchant.name,
    email: invite.email,
    role: invite.role,
    expiresAt: invite.expiresAt,
    signedInAs: user?.email ?? null,
    isInvited: user ? isInvitedPerson(user.email, invite.email) : false,
    isMember: membership !== null,
  };
}

/**
 * Accept an invitation as the signed-in person, who must be the one invited (403 otherwise): the invitation is spent
 * and the membership created in one transaction, which marks the person's address verified (the link was mailed to it). A link that cannot be accepted (also: another accept won) is 404
 * `join_link.invalid`; a person on the team already is 409 `member.already_assigned`, and the invitation stays.
 */
export async function acceptInvite(principal: SessionPrincipal, token: string, now = new Date().toISOString()) {
  const [{ invite, merchant }, user] = await Promise.all([openInvite(token, now), getUser(principal.userId)]);
  if (!user) throw new UnauthorizedError('auth.invalid_session', "The session's user no longer exists.");
  if (!isInvitedPerson(user.email, invite.email)) {
    throw new ForbiddenError('This invitation was sent to another e-mail address: sign in with the address it was sent to, then open the link again.');
  }
  const parts: NamedParts<'invite' | 'membership' | 'verified'> = [
    ['invite', [spendInvite(merchant.id, invite.inviteId, inviteTokenVerifierOf(token), now)]],
    ['membership', [putNewMembership({ merchantId: merchant.id, userId: user.id, role: invite.role, createdAt: now })]],
    // The link was mailed to this address and opened by its person: the address is verified.
    ['verified', user.emailVerifiedAt ? [] : markEmailVerified(user.id, user.email, now)],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    // Spent, replaced or revoked meanwhile (another accept of the same link won, say): the link cannot be used.
    if (failed?.has('invite')) throw joinLinkInvalid();
    if (failed?.has('membership')) throw alreadyMember();
    throw e;
  }
  return { merchantId: merchant.id, userId: user.id, role: invite.role };
}
