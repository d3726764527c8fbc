/**
 * A merchant's checkout customization: display name, brand and accent colours and logo, on one item in the
 * merchant's partition (`MERCHANT#<merchantId>` / `CHECKOUTCUSTOMIZATION`). No item yet means nothing is customized.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, updateIfCondition } from '../platform/db/client.ts';
import {
  type CheckoutCustomization,
  checkoutCustomization,
  CheckoutCustomizationEntity,
  type CheckoutLogo,
  type CustomizationField,
  customizationFields,
} from './customization.entity.ts';

export type CustomizationChanges = Partial<Record<CustomizationField, string | null>>;

/** The merchant's customization (everything null when it never set any): one GetItem. */
export async function getCustomization(merchantId: string): Promise<CheckoutCustomization> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: checkoutCustomization(merchantId) }));
  return CheckoutCustomizationEntity.parse(Item ?? { merchantId });
}

/**
 * Sets the given fields (null removes one; an absent one stays) in one UpdateItem that creates the item when
 * missing, on the condition that the key holds no other kind of item; answers the customization after it.
 */
export async function updateCustomization(merchantId: string, changes: CustomizationChanges, now: string): Promise<CheckoutCustomization> {
  const given = customizationFields.filter((f) => changes[f] !== undefined);
  const sets = ['entity = :entity', 'merchantId = :merchant', 'updatedAt = :now', ...given.filter((f) => changes[f] !== null).map((f) => `#${f} = :${f}`)];
  const removes = given.filter((f) => changes[f] === null).map((f) => `#${f}`);
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: checkoutCustomization(merchantId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'attribute_not_exists(pk) OR entity = :entity',
    ...(given.length ? { ExpressionAttributeNames: Object.fromEntries(given.map((f) => [`#${f}`, f])) } : {}),
    ExpressionAttributeValues: {
      ':entity': CheckoutCustomizationEntity.kind,
      ':merchant': merchantId,
      ':now': now,
      ...Object.fromEntries(given.filter((f) => changes[f] !== null).map((f) => [`:${f}`, changes[f]])),
    },
  });
  if (!item) throw new Error(`The checkout customization key of ${merchantId} holds another item`);
  return CheckoutCustomizationEntity.parse(item);
}

/**
 * Points the customization at a new logo (creating the item when missing) and answers the customization after it
 * with the logo it replaced (null when there was none), so the caller can remove the old file.
 */
export async function replaceLogo(
  merchantId: string,
  logo: CheckoutLogo,
  now: string,
): Promise<{ customization: CheckoutCustomization; replaced: CheckoutLogo | null }> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: checkoutCustomization(merchantId),
      UpdateExpression: 'SET entity = :entity, merchantId = :merchant, updatedAt = :now, logo = :logo',
      ConditionExpression: 'attribute_not_exists(pk) OR entity = :entity',
      ExpressionAttributeValues: { ':entity': CheckoutCustomizationEntity.kind, ':merchant': merchantId, ':now': now, ':logo': logo },
      ReturnValues: 'ALL_OLD',
    }),
  );
  const old = CheckoutCustomizationEntity.parse(Attributes ?? { merchantId });
  return { customization: { ...old, logo, updatedAt: now }, replaced: old.logo };
}
