/**
 * A team invitation: one item per invited e-mail in the merchant's partition (`MERCHANT#<merchantId>` /
 * `INVITE#<inviteId>`), holding the verifier of its latest link, never the link. Listed with the team by a Query of
 * the partition; gone 30 days after it expired (the table's TTL), at once when accepted or revoked.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';
import { historyTtl } from '../platform/db/items.ts';
import type { InviteRole } from './invites.rules.ts';

export interface TeamInvite {
  merchantId: string;
  inviteId: string;
  /** The address invited, lowercased (a person is matched to it case-insensitively). */
  email: string;
  role: InviteRole;
  /** SHA-256 of the latest link's token. */
  verifier: string;
  expiresAt: string;
  /** The user who sent the latest invitation. */
  invitedBy: string;
  createdAt: string;
}

/** A pending invitation to a merchant's team, in the merchant's partition (one per invited e-mail: its id derives from it). */
export const teamInvite = (merchantId: string, inviteId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `INVITE#${inviteId}` });
/** A merchant's pending team invitations: one Query of its partition. */
export const teamInvitesOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'INVITE#' });

export const TeamInviteEntity = entity<TeamInvite, { merchantId: string; inviteId: string }>({
  kind: 'teamInvite',
  schema: v.object({
    merchantId: v.string(),
    inviteId: v.string(),
    email: v.string(),
    role: v.picklist(['admin', 'member']),
    verifier: v.string(),
    expiresAt: v.string(),
    invitedBy: v.string(),
    createdAt: v.string(),
  }),
  key: (i) => teamInvite(i.merchantId, i.inviteId),
  attributes: (i) => ({ ttl: historyTtl(i.expiresAt) }),
});
