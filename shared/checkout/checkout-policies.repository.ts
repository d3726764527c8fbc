/**
 * An organization's checkout policy settings: the four URL policies buyers see at checkout, on one item in the
 * merchant's partition (`MERCHANT#<orgId>` / `CHECKOUTPOLICIES`). No item yet means every URL is null.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, updateIfCondition } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import { stringOrNull } from '../platform/db/items.ts';

export const policyUrlFields = ['termsUrl', 'privacyUrl', 'returnPolicyUrl', 'eulaUrl'] as const;
export type PolicyUrlField = (typeof policyUrlFields)[number];
export type PolicyUrls = Record<PolicyUrlField, string | null>;

export interface CheckoutPolicies extends PolicyUrls {
  organizationId: string;
  /** Last change of the URLs; null while none was ever set. */
  updatedAt: string | null;
}

const entity = 'checkoutPolicies';

const fromItem = (organizationId: string, i: Record<string, unknown> | undefined): CheckoutPolicies => ({
  organizationId,
  termsUrl: stringOrNull(i?.termsUrl),
  privacyUrl: stringOrNull(i?.privacyUrl),
  returnPolicyUrl: stringOrNull(i?.returnPolicyUrl),
  eulaUrl: stringOrNull(i?.eulaUrl),
  updatedAt: stringOrNull(i?.updatedAt),
});

/** The organization's settings (all null when it never set any). */
export async function getCheckoutPolicies(organizationId: string): Promise<CheckoutPolicies> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.checkoutPolicies(organizationId) }));
  return fromItem(organizationId, Item);
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
    Key: keys.checkoutPolicies(organizationId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_not_exists(pk) OR entity = :entity',
    ...(given.length ? { ExpressionAttributeNames: Object.fromEntries(given.map((f) => [`#${f}`, f])) } : {}),
    ExpressionAttributeValues: {
      ':entity': entity,
      ':org': organizationId,
      ':now': now,
      ...Object.fromEntries(given.map((f) => [`:${f}`, changes[f]])),
    },
  });
  if (!item) throw new Error(`The checkout policies key of ${organizationId} holds another item`);
  return fromItem(organizationId, item);
}
