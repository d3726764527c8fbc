/**
 * Custom-field definitions: one item per (organization, resource, name) in the organization's partition, so the
 * name is unique by key and all of a resource's fields are one Query (`begins_with` on the sort key).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomFieldDefinition, CustomFieldResource, TypeSchema } from './custom-fields.rules.ts';
import { db, isConditionFailed, queryAll, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';

export interface CustomField extends CustomFieldDefinition {
  id: string;
  organizationId: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

const toItem = (f: CustomField) => ({
  ...keys.customField(f.organizationId, f.resource, f.name),
  ...keys.customFieldListing(f.organizationId, f.resource, f.name),
  entity: 'customField',
  ...f,
});

const fromItem = (i: Record<string, unknown>): CustomField => ({
  id: i.id as string,
  organizationId: i.organizationId as string,
  name: i.name as string,
  resource: i.resource as CustomFieldResource,
  description: i.description as string,
  typeSchema: i.typeSchema as TypeSchema,
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
});

/** Create; false when the organization already has a field of that name for that resource. */
export async function createCustomField(f: CustomField): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: tableName(), Item: toItem(f), ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

export async function getCustomField(organizationId: string, resource: CustomFieldResource, name: string): Promise<CustomField | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.customField(organizationId, resource, name), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** Every field the organization defined for `resource`: one Query on its partition. */
export async function listCustomFields(organizationId: string, resource: CustomFieldResource): Promise<CustomField[]> {
  const { pk, sk: prefix } = keys.customField(organizationId, resource, '');
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: true,
  });
  return items.map(fromItem);
}
