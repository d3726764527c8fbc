/**
 * A custom-field definition: one item per (organization, resource, name) in the organization's partition
 * (`MERCHANT#<orgId>` / `CUSTOMFIELD#<resource>#<name>`), so the name is unique by key and all of a resource's
 * fields are one Query (`begins_with` on the sort key); gsi1 lists the organization's fields
 * (`CUSTOMFIELDS#<orgId>` / `<resource>#<name>`).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { CUSTOM_FIELD_RESOURCES, CUSTOM_FIELD_TYPES, type CustomFieldDefinition } from './custom-fields.rules.ts';

export interface CustomField extends CustomFieldDefinition {
  id: string;
  organizationId: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export const customField = (organizationId: string, resource: string, name: string) => ({
  pk: `MERCHANT#${organizationId}`,
  sk: `CUSTOMFIELD#${resource}#${name}`,
});
export const customFieldListing = (organizationId: string, resource: string, name: string) => ({
  gsi1pk: `CUSTOMFIELDS#${organizationId}`,
  gsi1sk: `${resource}#${name}`,
});

const customFieldValue = v.union([v.string(), v.number(), v.boolean()]);

export const CustomFieldEntity = entity<CustomField, Pick<CustomField, 'organizationId' | 'resource' | 'name'>>({
  kind: 'customField',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    name: v.string(),
    resource: v.picklist(CUSTOM_FIELD_RESOURCES),
    description: v.string(),
    typeSchema: v.object({
      type: v.picklist(CUSTOM_FIELD_TYPES),
      additionalSchema: v.object({
        required: v.boolean(),
        default: orNull(customFieldValue),
        allowedValues: orNull(v.array(v.string())),
      }),
    }),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (f) => customField(f.organizationId, f.resource, f.name),
  attributes: (f) => customFieldListing(f.organizationId, f.resource, f.name),
});
