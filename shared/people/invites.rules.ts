/**
 * Team invitation links. The token is `inv_<merchantId>.<inviteId>.<40 hex>`: the `inv_` prefix tells it apart from
 * an owner-claim join link (`<merchantId>.<64 hex>`) on the same `/join/{token}` page; the merchant id and the
 * invite id find the invitation in one read; the secret part is verified against the stored verifier (a SHA-256 of
 * the whole token: the token itself is never stored). The invite id derives from the merchant and the invited
 * e-mail, so inviting the same address again replaces the invitation, and with it every earlier link.
 */
import { randomHex, sha256Hex } from '../domain/secrets.ts';
import { JOIN_LINK_TTL_DAYS } from '../domain/merchants.ts';

/** An invitation link lives as long as an owner-claim join link. */
export const INVITE_TTL_DAYS = JOIN_LINK_TTL_DAYS;

const pattern = /^inv_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{16})\.[0-9a-f]{40}$/;

/** The roles an invitation may give: owners are made by a role change once the person is on the team. */
export type InviteRole = 'admin' | 'member';

/** The one spelling of an e-mail an invitation is kept and matched under. */
export const inviteEmailKey = (email: string): string => email.trim().toLowerCase();

/** The id of the invitation of `email` to `merchantId`'s team: the same for every invitation of that address. */
export const inviteIdOf = (merchantId: string, email: string): string => sha256Hex(`${merchantId}\n${inviteEmailKey(email)}`).slice(0, 16);

export const generateInviteToken = (merchantId: string, inviteId: string): string => `inv_${merchantId}.${inviteId}.${randomHex(20)}`;
export const inviteTokenVerifierOf = (token: string): string => sha256Hex(token);

/** Whether `token` has the shape of an invitation link's (any other token of `/join/{token}` is an owner-claim link). */
export const isInviteToken = (token: string): boolean => token.startsWith('inv_');

/** The merchant and invitation an invitation token names, or null when the string is not one. */
export function invitationOfToken(token: string): { merchantId: string; inviteId: string } | null {
  const m = pattern.exec(token);
  return m ? { merchantId: m[1]!, inviteId: m[2]! } : null;
}

/** When an invitation minted at `now` stops working. */
export const inviteExpiry = (now: string): string => new Date(Date.parse(now) + INVITE_TTL_DAYS * 86_400_000).toISOString();

/** Whether the signed-in person with `email` is the one `invitedEmail` was invited as (e-mails match case-insensitively). */
export const isInvitedPerson = (email: string, invitedEmail: string): boolean => inviteEmailKey(email) === inviteEmailKey(invitedEmail);
