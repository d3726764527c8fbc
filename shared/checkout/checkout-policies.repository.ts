/**
 * An organization's checkout policy settings: the four URL policies buyers see at checkout, on one item in the
 * merchant's partition (`MERCHANT#<orgId>` / `CHECKOUTPOLICIES`). No item yet means every URL is null.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, setSettings, tableName } from '../platform/db/client.ts';
import { type CheckoutPolicies, checkoutPolicies, CheckoutPoliciesEntity, policyUrlFields, type PolicyUrls } from './checkout-policies.entity.ts';

/** The organization's settings (all null when it never set any). */
export async function getCheckoutPolicies(organizationId: string): Promise<CheckoutPolicies> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: checkoutPolicies(organizationId) }));
  return CheckoutPoliciesEntity.parse(Item ?? { organizationId });
}

/**
 * Sets the given URLs (null clears one; an absent field is left as it is) in one UpdateItem that creates the
 * item when missing, on the condition that the key holds no other kind of item; answers the settings after it.
 */
export async function updateCheckoutPolicies(organizationId: string, changes: Partial<PolicyUrls>, now: string): Promise<CheckoutPolicies> {
  const fields = Object.fromEntries(policyUrlFields.map((f) => [f, changes[f]]));
  return CheckoutPoliciesEntity.parse(
    await setSettings(checkoutPolicies(organizationId), CheckoutPoliciesEntity.kind, { organizationId, updatedAt: now }, fields),
  );
}
