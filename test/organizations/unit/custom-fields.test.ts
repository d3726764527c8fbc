import { describe, expect, it } from 'vitest';
import { checkTypeSchema, checkValue, resolveValues, type CustomFieldDefinition, type TypeSchema } from '../../../shared/organizations/custom-fields.rules.ts';
import { BadRequestError } from '../../../shared/domain/errors.ts';

const schema = (type: TypeSchema['type'], extra: Partial<TypeSchema['additionalSchema']> = {}): TypeSchema => ({
  type,
  additionalSchema: { required: false, default: null, allowedValues: null, ...extra },
});
const field = (name: string, typeSchema: TypeSchema): CustomFieldDefinition => ({ name, resource: 'products', typeSchema });

function refusal(fn: () => unknown): BadRequestError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BadRequestError) return e;
    throw e;
  }
  throw new Error('expected a BadRequestError');
}

describe('checkTypeSchema', () => {
  it('fills in required false, no default and no allowed values', () => {
    expect(checkTypeSchema({ type: 'string' })).toEqual(schema('string'));
  });

  it('needs a non-empty, unique list of allowed values for an enum, and no more than 100', () => {
    expect(refusal(() => checkTypeSchema({ type: 'enum' })).code).toBe('custom_field.invalid_type_schema');
    expect(refusal(() => checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: [] } })).details.field).toBe(
      'typeSchema.additionalSchema.allowedValues',
    );
    expect(refusal(() => checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: ['a', 'a'] } })).message).toContain('repeat');
    expect(refusal(() => checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: [''] } })).code).toBe('custom_field.invalid_type_schema');
    const hundred = Array.from({ length: 100 }, (_, i) => `v${i}`);
    expect(checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: hundred } }).additionalSchema.allowedValues).toHaveLength(100);
    expect(refusal(() => checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: [...hundred, 'v100'] } })).code).toBe(
      'custom_field.invalid_type_schema',
    );
  });

  it('refuses allowed values on a type other than enum', () => {
    for (const type of ['string', 'number', 'boolean', 'date'] as const) {
      expect(refusal(() => checkTypeSchema({ type, additionalSchema: { allowedValues: ['x'] } })).details.field).toBe(
        'typeSchema.additionalSchema.allowedValues',
      );
    }
    expect(checkTypeSchema({ type: 'string', additionalSchema: { allowedValues: null } }).additionalSchema.allowedValues).toBeNull();
  });

  it('refuses a default that does not fit the type or the allowed values', () => {
    const bad: Array<Parameters<typeof checkTypeSchema>[0]> = [
      { type: 'number', additionalSchema: { default: '3' } },
      { type: 'boolean', additionalSchema: { default: 'true' } },
      { type: 'string', additionalSchema: { default: 3 } },
      { type: 'date', additionalSchema: { default: '2025-02-30' } },
      { type: 'enum', additionalSchema: { allowedValues: ['gold', 'silver'], default: 'bronze' } },
    ];
    for (const input of bad) {
      const e = refusal(() => checkTypeSchema(input));
      expect(e.code, JSON.stringify(input)).toBe('custom_field.invalid_type_schema');
      expect(e.details.field).toBe('typeSchema.additionalSchema.default');
    }
  });

  it('keeps a default that fits, dates normalised', () => {
    expect(checkTypeSchema({ type: 'enum', additionalSchema: { allowedValues: ['gold'], default: 'gold', required: true } })).toEqual(
      schema('enum', { allowedValues: ['gold'], default: 'gold', required: true }),
    );
    expect(checkTypeSchema({ type: 'date', additionalSchema: { default: '2025-01-02T03:04:05+01:00' } }).additionalSchema.default).toBe(
      '2025-01-02T02:04:05.000Z',
    );
  });
});

describe('checkValue', () => {
  it('takes dates as calendar dates or zoned date-times', () => {
    expect(checkValue(schema('date'), '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(checkValue(schema('date'), '2025-06-01T12:00:00Z')).toEqual({ ok: true, value: '2025-06-01T12:00:00.000Z' });
    for (const bad of ['2023-02-29', '2025-13-01', '2025-06-01T12:00:00', 'June 1st', 20250601]) {
      expect(checkValue(schema('date'), bad).ok, String(bad)).toBe(false);
    }
  });

  it('limits strings to 1000 characters', () => {
    expect(checkValue(schema('string'), 's'.repeat(1000)).ok).toBe(true);
    expect(checkValue(schema('string'), 's'.repeat(1001)).ok).toBe(false);
  });

  it('takes only finite numbers and real booleans', () => {
    expect(checkValue(schema('number'), 1.5).ok).toBe(true);
    expect(checkValue(schema('number'), Number.NaN).ok).toBe(false);
    expect(checkValue(schema('number'), Number.POSITIVE_INFINITY).ok).toBe(false);
    expect(checkValue(schema('boolean'), false).ok).toBe(true);
    expect(checkValue(schema('boolean'), 0).ok).toBe(false);
  });

  it('takes only the numbers a record stores as given: 0, or from 1e-130 to 2^53 - 1 in size', () => {
    for (const n of [0, -0, 1e-130, -1e-130, 0.1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 123.456]) {
      expect(checkValue(schema('number'), n), String(n)).toEqual({ ok: true, value: n });
    }
    for (const n of [Number.MAX_SAFE_INTEGER + 1, -(Number.MAX_SAFE_INTEGER + 1), 1.5e20, 1e300, -1e300, 1e-131, -1e-300, Number.MIN_VALUE]) {
      const checked = checkValue(schema('number'), n);
      expect(checked.ok, String(n)).toBe(false);
      expect(checked.ok || checked.reason).toBe('must be 0, or at least 1e-130 and at most 9007199254740991 in size');
    }
    expect(() => checkTypeSchema({ type: 'number', additionalSchema: { default: 9007199254740994 } })).toThrow(
      /typeSchema\.additionalSchema\.default: the default must be 0/,
    );
  });
});

describe('resolveValues', () => {
  const definitions = [
    field('color', schema('enum', { allowedValues: ['red', 'blue'] })),
    field('weight', schema('number', { required: true, default: 1 })),
    field('sku', schema('string', { required: true })),
    field('fragile', schema('boolean')),
  ];

  it('keeps valid values and applies defaults to missing fields', () => {
    expect(resolveValues('products', definitions, { color: 'red', sku: 'A-1' })).toEqual({ color: 'red', sku: 'A-1', weight: 1 });
  });

  it('treats null as not given', () => {
    expect(resolveValues('products', definitions, { sku: 'A-1', fragile: null })).toEqual({ sku: 'A-1', weight: 1 });
    expect(refusal(() => resolveValues('products', definitions, { sku: null })).details.field).toBe('customFields.sku');
  });

  it('names the field of an unknown name, a wrong type, a value outside the enum, and a missing required field', () => {
    const cases: Array<[Record<string, unknown> | undefined, string]> = [
      [{ sku: 'A', size: 'XL' }, 'size'],
      [{ sku: 'A', weight: '2' }, 'weight'],
      [{ sku: 'A', color: 'green' }, 'color'],
      [{ sku: 'A', fragile: 'yes' }, 'fragile'],
      [undefined, 'sku'],
    ];
    for (const [values, name] of cases) {
      const e = refusal(() => resolveValues('products', definitions, values));
      expect(e.code).toBe('custom_field.invalid');
      expect(e.details).toEqual({ field: `customFields.${name}` });
      expect(e.message).toMatch(new RegExp(`^customFields\\.${name}: `));
    }
  });

  it('refuses any value when the resource has no fields, and accepts none given', () => {
    expect(resolveValues('plans', [], undefined)).toEqual({});
    expect(resolveValues('plans', [], {})).toEqual({});
    expect(refusal(() => resolveValues('plans', [], { x: 1 })).message).toContain('plans');
  });

  it('stores a field named like an object property as an own value', () => {
    const defs = [field('__proto__', schema('string')), field('constructor', schema('number', { default: 2 }))];
    const out = resolveValues('products', defs, JSON.parse('{"__proto__": "x"}'));
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
