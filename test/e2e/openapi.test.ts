import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routesFor } from '../../shared/routes/index.ts';

/** The run's stack behaves as the sandbox deployment: its document lists the sandbox main API's routes. */
const served = routesFor('sandbox');
import { call } from './fixtures.ts';

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await call('GET', '/v1/openapi.json');
    const validator = new Validator();
    const result = await validator.validate(res.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route of the route table with its auth, body, success response and a servers entry', async () => {
    const res = await call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.servers).toHaveLength(1);
    const operations = Object.entries(res.json.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(served.map((r) => `${r.method} ${r.path} ${r.name}`).sort());
    for (const r of served) {
      const op = res.json.paths[r.path][r.method.toLowerCase()];
      // Besides its success: the redirects of a route that may answer one, the 304 of a route with an ETag.
      expect(Object.keys(op.responses), r.name).toEqual([String(r.status), ...(r.redirects ? ['302', '303'] : []), ...(r.etag ? ['304'] : []), 'default']);
      if (r.response) expect(op.responses[String(r.status)].content[r.contentType ?? 'application/json'].schema, r.name).toBeTruthy();
      if (r.body) expect(Object.keys(op.requestBody.content), r.name).toEqual([r.bodyType ?? 'application/json']);
    }
  });

  it("names component schemas with the spec's names and references them", async () => {
    const { json } = await call('GET', '/v1/openapi.json');
    const create = json.paths['/api/v1/public-api/merchants'].post;
    expect(create.security).toEqual([{ merchantApiKey: [] }]);
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PublicApiCreateMerchantRequest' });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PublicApiCreateMerchantResponse' });
    expect(json.components.schemas.PublicApiCreateMerchantRequest).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 200 } },
    });
    const list = json.paths['/api/v1/public-api/merchants/{merchantId}/api-keys'].get;
    expect(list.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/PublicApiApiKeySummary' } });
    for (const name of [
      'PublicApiGetMerchantResponse',
      'PublicApiCreateApiKeyRequest',
      'PublicApiCreateApiKeyResponse',
      'PublicApiMerchantJoinLinkResponse',
      'PublicApiAssignMerchantMemberRequest',
      'PublicApiAssignMerchantMemberResponse',
      'PublicApiUpdateMerchantWebsiteUrlRequest',
      'Error',
      'OrganizationError',
    ]) {
      expect(json.components.schemas, name).toHaveProperty(name);
    }
  });

  it("lists query parameters and the organization face's error body", async () => {
    const { json } = await call('GET', '/v1/openapi.json');
    const deliveries = json.paths['/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/deliveries'].get;
    expect(
      deliveries.parameters
        .filter((p: { in: string }) => p.in === 'query')
        .map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['eventType', 'httpStatus', 'limit', 'page', 'status']);
    const getKey = json.paths['/api/v1/public-api/accounts/{accountId}/api-keys/{apiKeyId}'].get;
    expect(getKey.security).toEqual([{ organizationApiKey: [] }]);
    expect(getKey.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrganizationError' });
  });
});
