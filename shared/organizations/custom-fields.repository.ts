/**
 * Custom-field definitions: one item per (organization, resource, name) in the organization's partition, so the
 * name is unique by key and all of a resource's fields are one Query (`begins_with` on the sort key).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type CustomField, customField, CustomFieldEntity } from './custom-field.entity.ts';
import type { CustomFieldResource } from './custom-fields.rules.ts';
import { db, putNew, queryAll, tableName } from '../platform/db/client.ts';

/** Create; false when the organization already has a field of that name for that resource. */
export async function createCustomField(f: CustomField): Promise<boolean> {
  // Two requests defining the very same field write the very same item: one is answered 409 (each write its own id).
  return putNew(CustomFieldEntity.item(f));
}

export async function getCustomField(organizationId: string, resource: CustomFieldResource, name: string): Promise<CustomField | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: customField(organizationId, resource, name), ConsistentRead: true }));
  return CustomFieldEntity.parseOrNull(Item);
}

/** Every field the organization defined for `resource`: one Query on its partition. */
export async function listCustomFields(organizationId: string, resource: CustomFieldResource): Promise<CustomField[]> {
  const { pk, sk: prefix } = customField(organizationId, resource, '');
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: true,
  });
  return items.map(CustomFieldEntity.parse);
}
