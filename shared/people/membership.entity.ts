/**
 * A membership: a user's role on a merchant, in the merchant's partition (`MERCHANT#<merchantId>` / `MEMBER#<userId>`,
 * so the team is one Query), and listed per user through gsi1 (`MEMBERSHIPS#<userId>`).
 */
import * as v from 'valibot';
import type { Role } from '../domain/merchants.ts';
import { entity } from '../platform/db/entity.ts';

export interface Membership {
  merchantId: string;
  userId: string;
  role: Role;
  createdAt: string;
}

export const membership = (merchantId: string, userId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `MEMBER#${userId}` });
/** A user's memberships on gsi1. */
export const membershipsOfUser = (userId: string) => ({ gsi1pk: `MEMBERSHIPS#${userId}` });
/** The team of a merchant: its membership items, in the merchant's partition. */
export const membersOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'MEMBER#' });
export const membershipListing = (userId: string, merchantId: string) => ({
  gsi1pk: `MEMBERSHIPS#${userId}`,
  gsi1sk: `MERCHANT#${merchantId}`,
});

export const MembershipEntity = entity<Membership, { merchantId: string; userId: string }>({
  kind: 'membership',
  schema: v.object({
    merchantId: v.string(),
    userId: v.string(),
    role: v.picklist(['owner', 'admin', 'member']),
    createdAt: v.string(),
  }),
  key: (m) => membership(m.merchantId, m.userId),
  attributes: (m) => membershipListing(m.userId, m.merchantId),
});
