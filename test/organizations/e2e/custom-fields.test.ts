import { describe, expect, it } from 'vitest';
import { organizationAccount, orgCall, orgPath } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const fields = (org: Org) => `${orgPath(org.organizationId)}/custom-fields`;
const create = (org: Org, body: unknown) => orgCall('POST', fields(org), { fullKey: org.fullKey, body });
const get = (org: Org, name: string, resource: string) =>
  orgCall('GET', `${fields(org)}?name=${encodeURIComponent(name)}&resource=${encodeURIComponent(resource)}`, { fullKey: org.fullKey });

const stringField = (name: string, resource = 'products', extra: Record<string, unknown> = {}) => ({
  name,
  resource,
  description: `The ${name}`,
  typeSchema: { type: 'string' },
  ...extra,
});

describe('custom fields', () => {
  it('creates a field with 201 and reads it back by name and resource', async () => {
    const org = await organizationAccount();
    const res = await create(org, {
      name: 'tier',
      resource: 'products',
      description: 'Service tier',
      typeSchema: { type: 'enum', additionalSchema: { required: true, default: 'gold', allowedValues: ['gold', 'silver'] } },
    });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({
      name: 'tier',
      resource: 'products',
      description: 'Service tier',
      organizationId: org.organizationId,
      typeSchema: { type: 'enum', additionalSchema: { required: true, default: 'gold', allowedValues: ['gold', 'silver'] } },
    });
    expect(res.json.data.id).toMatch(/^cf_[0-9a-f]{32}$/);
    const read = await get(org, 'tier', 'products');
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
  });

  it('answers the type schema with required false, default null and allowedValues null when not given', async () => {
    const org = await organizationAccount();
    const res = await create(org, stringField('note'));
    expect(res.json.data.typeSchema).toEqual({ type: 'string', additionalSchema: { required: false, default: null, allowedValues: null } });
  });

  it('refuses a second field of the same name and resource with 409, but takes the name for another resource', async () => {
    const org = await organizationAccount();
    const first = await create(org, stringField('sku'));
    expect(first.status).toBe(201);
    const again = await create(org, { ...stringField('sku'), description: 'Other', typeSchema: { type: 'number' } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ errorCode: 'custom_field.already_exists', statusCode: 409 });
    expect((await get(org, 'sku', 'products')).json.data).toEqual(first.json.data);
    expect((await create(org, stringField('sku', 'plans'))).status).toBe(201);
  });

  it('creates a field once when two creates race', async () => {
    const org = await organizationAccount();
    const answers = await Promise.all([create(org, stringField('race')), create(org, stringField('race')), create(org, stringField('race'))]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    const winner = answers.find((a) => a.status === 201)!;
    expect((await get(org, 'race', 'products')).json.data.id).toBe(winner.json.data.id);
  });

  it('keeps fields of different organizations apart', async () => {
    const [a, b] = await Promise.all([organizationAccount(), organizationAccount()]);
    expect((await create(a, stringField('shared'))).status).toBe(201);
    expect((await create(b, stringField('shared'))).status).toBe(201);
    expect((await get(b, 'shared', 'products')).json.data.organizationId).toBe(b.organizationId);
    expect((await get(b, 'only-a', 'products')).status).toBe(404);
  });

  it('answers 404 for a name or resource with no field', async () => {
    const org = await organizationAccount();
    await create(org, stringField('color'));
    const missing = await get(org, 'colour', 'products');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ errorCode: 'custom_field.not_found', statusCode: 404 });
    expect((await get(org, 'color', 'plans')).status).toBe(404);
  });

  it('needs both name and resource on a read, and a known resource', async () => {
    const org = await organizationAccount();
    for (const q of ['?name=x', '?resource=products', '', '?name=x&resource=widgets', `?name=${'n'.repeat(256)}&resource=products`]) {
      const res = await orgCall('GET', `${fields(org)}${q}`, { fullKey: org.fullKey });
      expect(res.status, q).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_query');
    }
  });

  it('accepts name and description of 255 characters and refuses 256 with 400', async () => {
    const org = await organizationAccount();
    const long = 'n'.repeat(255);
    const ok = await create(org, { ...stringField(long), description: 'd'.repeat(255) });
    expect(ok.status).toBe(201);
    expect((await get(org, long, 'products')).status).toBe(200);
    const longName = await create(org, stringField('n'.repeat(256)));
    expect(longName.status).toBe(400);
    expect(longName.json.details).toContain('name');
    const longDescription = await create(org, { ...stringField('d'), description: 'd'.repeat(256) });
    expect(longDescription.status).toBe(400);
    expect(longDescription.json.details).toContain('description');
    expect((await get(org, 'd', 'products')).status).toBe(404);
  });

  it('refuses missing fields, an unknown resource and an unknown type with 400', async () => {
    const org = await organizationAccount();
    const base = stringField('f');
    for (const body of [
      { ...base, name: undefined },
      { ...base, resource: undefined },
      { ...base, description: undefined },
      { ...base, typeSchema: undefined },
      { ...base, resource: 'widgets' },
      { ...base, typeSchema: { type: 'money' } },
      { ...base, description: '' },
    ]) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect((await get(org, 'f', 'products')).status).toBe(404);
  });

  it('refuses a type schema that contradicts itself with 400 custom_field.invalid_type_schema, creating nothing', async () => {
    const org = await organizationAccount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'enum' }, 'allowedValues'],
      [{ type: 'enum', additionalSchema: { allowedValues: [] } }, 'allowedValues'],
      [{ type: 'string', additionalSchema: { allowedValues: ['a'] } }, 'allowedValues'],
      [{ type: 'enum', additionalSchema: { allowedValues: ['a', 'b'], default: 'c' } }, 'default'],
      [{ type: 'number', additionalSchema: { default: 'ten' } }, 'default'],
      [{ type: 'number', additionalSchema: { default: 9007199254740994 } }, 'default'],
      [{ type: 'number', additionalSchema: { default: 1e-300 } }, 'default'],
      [{ type: 'boolean', additionalSchema: { default: 1 } }, 'default'],
      [{ type: 'date', additionalSchema: { default: '2025-02-30' } }, 'default'],
    ];
    for (const [typeSchema, part] of cases) {
      const res = await create(org, { ...stringField('bad'), typeSchema });
      expect(res.status, JSON.stringify(typeSchema)).toBe(400);
      expect(res.json.errorCode).toBe('custom_field.invalid_type_schema');
      expect(res.json.details).toContain(`typeSchema.additionalSchema.${part}`);
    }
    expect((await get(org, 'bad', 'products')).status).toBe(404);
  });

  it('accepts a date default as a calendar date or a zoned date-time (stored in UTC)', async () => {
    const org = await organizationAccount();
    const day = await create(org, { ...stringField('since'), typeSchema: { type: 'date', additionalSchema: { default: '2025-01-31' } } });
    expect(day.json.data.typeSchema.additionalSchema.default).toBe('2025-01-31');
    const time = await create(org, { ...stringField('at'), typeSchema: { type: 'date', additionalSchema: { default: '2025-01-31T23:30:00-02:00' } } });
    expect(time.json.data.typeSchema.additionalSchema.default).toBe('2025-02-01T01:30:00.000Z');
  });
});
