/**
 * An organization's checkout policy settings: the four URL policies buyers see at checkout, on one item in the
 * merchant's partition (`MERCHANT#<orgId>` / `CHECKOUTPOLICIES`), written only by an UpdateItem that creates it when
 * missing. No item yet means every URL is null.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';

export const policyUrlFields = ['termsUrl', 'privacyUrl', 'returnPolicyUrl', 'eulaUrl'] as const;
export type PolicyUrlField = (typeof policyUrlFields)[number];
export type PolicyUrls = Record<PolicyUrlField, string | null>;

export interface CheckoutPolicies extends PolicyUrls {
  organizationId: string;
  /** Last change of the URLs; null while none was ever set. */
  updatedAt: string | null;
}

/** An organization's checkout policy settings (its URL policies): one item in the merchant's partition. */
export const checkoutPolicies = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'CHECKOUTPOLICIES' });

export const CheckoutPoliciesEntity = entity<CheckoutPolicies, { organizationId: string }>({
  kind: 'checkoutPolicies',
  schema: v.object({
    organizationId: v.string(),
    termsUrl: orNull(v.string()),
    privacyUrl: orNull(v.string()),
    returnPolicyUrl: orNull(v.string()),
    eulaUrl: orNull(v.string()),
    updatedAt: orNull(v.string()),
  }),
  key: (p) => checkoutPolicies(p.organizationId),
});
