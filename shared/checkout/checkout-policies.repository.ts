/**
 * An organization's checkout policy settings: the four URL policies buyers see at checkout, on one item in the
 * merchant's partition (`MERCHANT#<orgId>` / `CHECKOUTPOLICIES`). No item yet means every URL is null.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, updateIfCondition } from '../platform/db/client.ts';
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
  const given = policyUrlFields.filter((f) => changes[f] !== undefined);
  const sets = ['entity = :entity', 'organizationId = :org', 'updatedAt = :now', ...given.map((f) => `#${f} = :${f}`)];
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: checkoutPolicies(organizationId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_not_exists(pk) OR entity = :entity',
    ...(given.length ? { ExpressionAttributeNames: Object.fromEntries(given.map((f) => [`#${f}`, f])) } : {}),
    ExpressionAttributeValues: {
      ':entity': CheckoutPoliciesEntity.kind,
      ':org': organizationId,
      ':now': now,
      ...Object.fromEntries(given.map((f) => [`:${f}`, changes[f]])),
    },
  });
  if (!item) throw new Error(`The checkout policies key of ${organizationId} holds another item`);
  return CheckoutPoliciesEntity.parse(item);
}
