/**
 * A promo code: its own partition `PROMO#<id>` / `PROMO`, listed per organization through gsi1 (createdAt) and gsi2
 * (updatedAt); `searchText` is the lowercased code a list's search filters on. Its code is claimed per organization,
 * case-insensitively, by a claim item (`promoCodeClaim`) written in the same transaction. Null fields are absent
 * attributes: redemption's condition reads `attribute_not_exists(expiresAt)` and `attribute_not_exists(maxRedemptions)`.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';

export interface PromoCode {
  id: string;
  organizationId: string;
  /** As the organization wrote it; unique per organization regardless of case. */
  code: string;
  /** Percent off in hundredths of a percent (1250 = 12.5 %); null for an amount-off code. */
  percentOffBasisPoints: number | null;
  /** Minor units of `currency`; null for a percent-off code. */
  amountOff: number | null;
  currency: string | null;
  /** Empty: every plan of the organization. */
  planIds: string[];
  expiresAt: string | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * The claim of a promo code's code in its organization (`MERCHANT#<orgId>` / `PROMOCODE#<lowercased code>`), naming
 * the promo code: written with `attribute_not_exists(pk)`, so of two creates of `SUMMER` and `summer` one wins.
 */
export const promoCodeClaim = (organizationId: string, code: string) => ({ pk: `MERCHANT#${organizationId}`, sk: `PROMOCODE#${code.toLowerCase()}` });

export const PromoCodeEntity = entity<PromoCode, { id: string }>({
  kind: 'promoCode',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    code: v.string(),
    percentOffBasisPoints: orNull(v.number()),
    amountOff: orNull(v.number()),
    currency: orNull(v.string()),
    planIds: v.optional(v.array(v.string()), []),
    expiresAt: orNull(v.string()),
    maxRedemptions: orNull(v.number()),
    timesRedeemed: v.optional(v.number(), 0),
    isActive: v.optional(v.boolean(), false),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (p) => catalogItem('PROMO', p.id),
  attributes: (p) => ({ ...catalogListing('PROMO', p.organizationId, p.id, p.createdAt, p.updatedAt), searchText: p.code.toLowerCase() }),
});
