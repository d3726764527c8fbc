/** Custom fields (organization face): definitions, and the `customFields` values records carry. */
import * as v from 'valibot';
import {
  CUSTOM_FIELD_RESOURCES,
  CUSTOM_FIELD_TYPES,
  MAX_CUSTOM_FIELD_DESCRIPTION_LENGTH,
  MAX_CUSTOM_FIELD_NAME_LENGTH,
  MAX_CUSTOM_FIELD_STRING_LENGTH,
  MAX_CUSTOM_FIELD_VALUES,
} from './custom-fields.rules.ts';
import { isoTime } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

export const customFieldResource = v.picklist(CUSTOM_FIELD_RESOURCES, `must be one of: ${CUSTOM_FIELD_RESOURCES.join(', ')}`);
export const customFieldType = v.picklist(CUSTOM_FIELD_TYPES, `must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}`);

/** A field's name: 1..255 characters, no control characters (it is a key of `customFields`, matched exactly). */
export const customFieldName = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxCodePoints(MAX_CUSTOM_FIELD_NAME_LENGTH),
  v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
);

/** One value: a string, number, boolean, or null (= not given). Its field's type is checked against the definitions. */
export const customFieldValue = v.nullable(v.union([v.string(), v.pipe(v.number(), v.finite()), v.boolean()], 'must be a string, number, boolean or null'));

/** The `customFields` input property of a record: `{name: value}`, at most 50 entries. */
export const customFieldValues = v.pipe(
  v.record(customFieldName, customFieldValue),
  v.check((o) => Object.keys(o).length <= MAX_CUSTOM_FIELD_VALUES, `must have at most ${MAX_CUSTOM_FIELD_VALUES} entries`),
);

/** The `customFields` of a record as responses carry it (null values are not stored). */
export const customFieldValuesView = v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]));

const defaultValue = v.nullable(v.union([v.string(), v.pipe(v.number(), v.finite()), v.boolean()], 'must be a string, number, boolean or null'));

/** `typeSchema` as a create request gives it; whether its parts agree is checked by the domain. */
const typeSchemaInput = v.strictObject({
  type: customFieldType,
  additionalSchema: v.optional(
    v.strictObject({
      required: v.optional(v.boolean()),
      default: v.optional(defaultValue),
      allowedValues: v.optional(v.nullable(v.array(v.pipe(v.string(), v.maxCodePoints(MAX_CUSTOM_FIELD_STRING_LENGTH))))),
    }),
  ),
});

export const createCustomFieldRequest = named(
  'CreateCustomFieldRequest',
  v.strictObject({
    name: customFieldName,
    resource: customFieldResource,
    description: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(MAX_CUSTOM_FIELD_DESCRIPTION_LENGTH)),
    typeSchema: typeSchemaInput,
  }),
);

export const getCustomFieldQuery = v.strictObject({
  name: customFieldName,
  resource: customFieldResource,
});

export const customField = named(
  'CustomField',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(/^cf_[0-9a-f]{32}$/)),
    organizationId: v.pipe(v.string(), v.uuid()),
    name: v.string(),
    resource: customFieldResource,
    description: v.string(),
    typeSchema: v.strictObject({
      type: customFieldType,
      additionalSchema: v.strictObject({
        required: v.boolean(),
        default: v.nullable(v.union([v.string(), v.number(), v.boolean()])),
        allowedValues: v.nullable(v.array(v.string())),
      }),
    }),
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const customFieldResponse = objectEnvelope('CustomFieldResponse', customField);
