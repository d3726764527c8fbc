/**
 * Custom fields: an organization defines named, typed fields per resource (products, plans, …), and records of
 * that resource carry values for them in `customFields: {name: value}`. These are the pure rules: whether a
 * field's own type schema makes sense, and whether a set of values fits the organization's definitions.
 */
import { BadRequestError } from '../domain/errors.ts';

export const CUSTOM_FIELD_RESOURCES = ['customers', 'payment-instruments', 'plans', 'products', 'subscriptions', 'transactions', 'websites'] as const;
export type CustomFieldResource = (typeof CUSTOM_FIELD_RESOURCES)[number];

export const CUSTOM_FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'enum'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A value as records carry it. */
export type CustomFieldValue = string | number | boolean;

export const MAX_CUSTOM_FIELD_NAME_LENGTH = 255;
export const MAX_CUSTOM_FIELD_DESCRIPTION_LENGTH = 255;
/** Longest string (and enum) value. */
export const MAX_CUSTOM_FIELD_STRING_LENGTH = 1000;
/** Most allowed values of an enum field. */
export const MAX_CUSTOM_FIELD_ALLOWED_VALUES = 100;
/** Most custom-field values one record may carry. */
export const MAX_CUSTOM_FIELD_VALUES = 50;

export interface TypeSchema {
  type: CustomFieldType;
  additionalSchema: {
    required: boolean;
    /** Applied when a record does not give the field. */
    default: CustomFieldValue | null;
    /** The only values an `enum` field takes (null for the other types). */
    allowedValues: string[] | null;
  };
}

export interface CustomFieldDefinition {
  name: string;
  resource: CustomFieldResource;
  typeSchema: TypeSchema;
}

/**
 * The smallest size of a number value other than 0: DynamoDB stores no number nearer zero than 1e-130. The largest is
 * `Number.MAX_SAFE_INTEGER`: past it a JSON number is no longer the integer it was written as, and is not stored.
 */
export const MIN_CUSTOM_FIELD_NUMBER_SIZE = 1e-130;

/** A number a record can store as it was given: finite, 0 or at least 1e-130 in size, at most 2^53 - 1. */
const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= MIN_CUSTOM_FIELD_NUMBER_SIZE);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar date `YYYY-MM-DD` that exists (no 2025-02-30). */
function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * The stored form of `value` for a field of `schema`, or a reason it does not fit. Dates are a calendar date
 * `YYYY-MM-DD` (kept as given) or an ISO 8601 date-time with a zone (`Z` or an offset), stored in UTC as
 * `toISOString()` gives it.
 */
export function checkValue(schema: TypeSchema, value: unknown): { ok: true; value: CustomFieldValue } | { ok: false; reason: string } {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return { ok: false, reason: 'must be a string' };
      if (value.length > MAX_CUSTOM_FIELD_STRING_LENGTH) return { ok: false, reason: `must be at most ${MAX_CUSTOM_FIELD_STRING_LENGTH} characters` };
      return { ok: true, value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, reason: 'must be a number' };
      if (!isStorableNumber(value)) {
        return { ok: false, reason: `must be 0, or at least ${MIN_CUSTOM_FIELD_NUMBER_SIZE} and at most ${Number.MAX_SAFE_INTEGER} in size` };
      }
      return { ok: true, value };
    case 'boolean':
      if (typeof value !== 'boolean') return { ok: false, reason: 'must be a boolean' };
      return { ok: true, value };
    case 'date': {
      if (typeof value === 'string' && isCalendarDate(value)) return { ok: true, value };
      if (typeof value === 'string' && DATE_TIME.test(value) && isCalendarDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value))) {
        return { ok: true, value: new Date(value).toISOString() };
      }
      return { ok: false, reason: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone' };
    }
    case 'enum': {
      const allowed = schema.additionalSchema.allowedValues ?? [];
      if (typeof value !== 'string' || !allowed.includes(value)) return { ok: false, reason: `must be one of: ${allowed.join(', ')}` };
      return { ok: true, value };
    }
  }
}

const schemaError = (field: string, reason: string) => new BadRequestError('custom_field.invalid_type_schema', `${field}: ${reason}`, { field });

/**
 * Checks a field's own type schema and returns it in stored form: `allowedValues` only for `enum` (and there
 * non-empty, unique, at most 100 strings of 1..1000 characters); a `default` must be a value the field accepts.
 * Throws BadRequestError `custom_field.invalid_type_schema` naming the offending part.
 */
export function checkTypeSchema(input: {
  type: CustomFieldType;
  additionalSchema?: { required?: boolean; default?: unknown; allowedValues?: string[] | null } | undefined;
}): TypeSchema {
  const extra = input.additionalSchema ?? {};
  const allowedField = 'typeSchema.additionalSchema.allowedValues';
  let allowedValues: string[] | null = null;
  if (input.type === 'enum') {
    const values = extra.allowedValues;
    if (!values || values.length === 0) throw schemaError(allowedField, 'an enum field needs at least one allowed value');
    if (values.length > MAX_CUSTOM_FIELD_ALLOWED_VALUES) throw schemaError(allowedField, `at most ${MAX_CUSTOM_FIELD_ALLOWED_VALUES} allowed values`);
    if (values.some((s) => s.length === 0 || s.length > MAX_CUSTOM_FIELD_STRING_LENGTH)) {
      throw schemaError(allowedField, `each allowed value must be 1 to ${MAX_CUSTOM_FIELD_STRING_LENGTH} characters`);
    }
    if (new Set(values).size !== values.length) throw schemaError(allowedField, 'allowed values must not repeat');
    allowedValues = [...values];
  } else if (extra.allowedValues !== undefined && extra.allowedValues !== null) {
    throw schemaError(allowedField, 'only an enum field has allowed values');
  }
  const schema: TypeSchema = { type: input.type, additionalSchema: { required: extra.required ?? false, default: null, allowedValues } };
  if (extra.default !== undefined && extra.default !== null) {
    const checked = checkValue(schema, extra.default);
    if (!checked.ok) throw schemaError('typeSchema.additionalSchema.default', `the default ${checked.reason}`);
    schema.additionalSchema.default = checked.value;
  }
  return schema;
}

const valueError = (name: string, reason: string) =>
  new BadRequestError('custom_field.invalid', `customFields.${name}: ${reason}`, { field: `customFields.${name}` });

/**
 * The custom-field values a record stores, from the values it was given and the organization's definitions of
 * its resource: every given name must be defined (a null value counts as not given); every value must fit its
 * field; a missing field with a default gets it; a missing required field without one is refused. Throws
 * BadRequestError `custom_field.invalid` with `details.field = "customFields.<name>"`.
 */
export function resolveValues(
  resource: CustomFieldResource,
  definitions: readonly CustomFieldDefinition[],
  values: Record<string, unknown> | undefined,
): Record<string, CustomFieldValue> {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const out = new Map<string, CustomFieldValue>();
  for (const [name, value] of Object.entries(values ?? {})) {
    const definition = byName.get(name);
    if (!definition) throw valueError(name, `no custom field of this name is defined for ${resource}`);
    if (value === null || value === undefined) continue;
    const checked = checkValue(definition.typeSchema, value);
    if (!checked.ok) throw valueError(name, checked.reason);
    out.set(name, checked.value);
  }
  for (const d of definitions) {
    if (out.has(d.name)) continue;
    const fallback = d.typeSchema.additionalSchema.default;
    if (fallback !== null) out.set(d.name, fallback);
    else if (d.typeSchema.additionalSchema.required) throw valueError(d.name, 'is required');
  }
  return Object.fromEntries(out);
}
