import { describe, expect, it } from 'vitest';
import { routeList } from '../../infra/routes.ts';
import { call } from './fixtures.ts';

describe('OpenAPI document', () => {
  it('lists every route of the route table with its auth and body schema', async () => {
    const res = await call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    const operations = Object.entries(res.json.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`));
    expect(operations.sort()).toEqual(routeList.map((r) => `${r.method} ${r.path} ${r.name}`).sort());

    const create = res.json.paths['/api/v1/public-api/merchants'].post;
    expect(create.security).toEqual([{ merchantApiKey: [] }]);
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object', required: ['name'], additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 200 } },
    });
  });
});
