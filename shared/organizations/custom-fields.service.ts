/**
 * Custom fields of an organization: define one (unique per resource and name), read one by name and resource,
 * and resolve the `customFields` values a record of a resource is given against the definitions.
 */
import { randomBytes } from 'node:crypto';
import type { CustomField } from './custom-field.entity.ts';
import * as repo from './custom-fields.repository.ts';
import { checkTypeSchema, resolveValues, type CustomFieldResource, type CustomFieldType } from './custom-fields.rules.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';

export type { CustomFieldResource } from './custom-fields.rules.ts';

export interface CreateCustomFieldInput {
  name: string;
  resource: CustomFieldResource;
  description: string;
  typeSchema: {
    type: CustomFieldType;
    additionalSchema?: { required?: boolean; default?: string | number | boolean | null; allowedValues?: string[] | null };
  };
}

/** The custom field as the API shows it. */
export const customFieldView = (f: CustomField) => ({
  id: f.id,
  organizationId: f.organizationId,
  name: f.name,
  resource: f.resource,
  description: f.description,
  typeSchema: {
    type: f.typeSchema.type,
    additionalSchema: {
      required: f.typeSchema.additionalSchema.required,
      default: f.typeSchema.additionalSchema.default,
      allowedValues: f.typeSchema.additionalSchema.allowedValues,
    },
  },
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

/**
 * Defines a custom field: checks its type schema (400 `custom_field.invalid_type_schema`), then writes it on the
 * condition that the organization has no field of that name for that resource (else 409
 * `custom_field.already_exists`). One write.
 */
export async function createCustomField(organizationId: string, input: CreateCustomFieldInput) {
  const typeSchema = checkTypeSchema(input.typeSchema);
  const now = new Date().toISOString();
  const field: CustomField = {
    id: `cf_${randomBytes(16).toString('hex')}`,
    organizationId,
    name: input.name,
    resource: input.resource,
    description: input.description,
    typeSchema,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await repo.createCustomField(field))) {
    throw new ConflictError('custom_field.already_exists', `A custom field named "${input.name}" already exists for ${input.resource}.`);
  }
  return customFieldView(field);
}

/** The organization's field of `resource` named `name`; 404 `custom_field.not_found` when there is none. */
export async function getCustomField(organizationId: string, resource: CustomFieldResource, name: string) {
  const field = await repo.getCustomField(organizationId, resource, name);
  if (!field) throw new NotFoundError('custom_field.not_found', `No custom field named "${name}" exists for ${resource}.`);
  return customFieldView(field);
}

/**
 * The `customFields` a record of `resource` stores: `values` checked against the organization's definitions for
 * that resource (one Query), with defaults applied to missing fields. Throws BadRequestError
 * `custom_field.invalid` (message and `details.field` name `customFields.<name>`) for an unknown name, a value
 * that breaks its field's type, or a missing required field without a default.
 */
export async function resolveCustomFields(
  organizationId: string,
  resource: CustomFieldResource,
  values: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const definitions = await repo.listCustomFields(organizationId, resource);
  return resolveValues(resource, definitions, values);
}
