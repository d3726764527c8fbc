import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { pathParametersOf } from '../../../shared/platform/http/path-bounds.ts';
import { namedSchemas } from '../../../shared/platform/http/schemas/named.ts';
import { routesFor } from '../../../shared/routes/index.ts';

import { call } from '../../support/fixtures.ts';
import { checkDeclaredRefusal, ContractViolation } from '../../support/contract.ts';

/**
 * The run's stack behaves as the sandbox deployment: its document lists the sandbox main API's routes, but the
 * dashboard's pages (HTML forms for a browser, not an API).
 */
const served = routesFor('sandbox').filter((r) => r.face !== 'page');
const errorComponentOf = (face: string) =>
  face === 'organization' ? 'OrganizationError' : face === 'oauth' ? 'OAuthError' : face === 'agent' ? 'AgentError' : 'Error';

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await call('GET', '/v1/openapi.json');
    const validator = new Validator();
    const result = await validator.validate(res.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route of the route table but the pages with its auth, body, success response, refusals and a servers entry', async () => {
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
      // Besides its success: the redirects of a route that may answer one, the 304 of a route with an ETag, its
      // protocol's answers (below), then its refusals.
      const statuses = Object.keys(op.responses);
      const answers = [String(r.status), ...(r.redirects ? ['302', '303'] : []), ...(r.etag ? ['304'] : [])];
      const protocol = new Map((r.protocolAnswers ?? []).map((a) => [String(a.status), a]));
      // (Integer-like keys keep ascending order in JSON objects: a 405 success comes after its 400.)
      expect(statuses.filter((s) => answers.includes(s)).sort(), r.name).toEqual([...answers].sort());
      const refusals = statuses.filter((s) => !answers.includes(s) && !(protocol.has(s) && Number(s) < 400));
      // Every route refuses an unknown query parameter (400); one with a body also a body of another media type (415),
      // one with credentials a request without them (401).
      expect(refusals, r.name).toContain('400');
      if (r.body) expect(refusals, r.name).toContain('415');
      if (r.auth !== 'none') expect(refusals, r.name).toContain('401');
      for (const name of pathParametersOf(r.path)) if (r.unknownId) expect(refusals, r.name).toContain(String(r.unknownId(name).status));
      const faceError = { $ref: `#/components/schemas/${errorComponentOf(r.face)}` };
      for (const status of refusals) {
        expect(Number(status), `${r.name} ${status}`).toBeGreaterThanOrEqual(400);
        const schema = op.responses[status].content['application/json'].schema;
        const own = protocol.get(status)?.response;
        // A protocol answer at a status: its body alone, or either body where the face refuses at that status too.
        if (own) {
          const ref = { $ref: `#/components/schemas/${Object.entries(namedSchemas()).find(([, s]) => s === own)?.[0]}` };
          expect([ref, { oneOf: [faceError, ref] }], `${r.name} ${status}`).toContainEqual(schema);
        } else expect(schema, `${r.name} ${status}`).toEqual(faceError);
      }
      for (const [status, answer] of protocol) {
        if (answer.response === null) expect(op.responses[status].content, `${r.name} ${status}`).toBeUndefined();
      }
      if (r.response) expect(op.responses[String(r.status)].content[r.contentType ?? 'application/json'].schema, r.name).toBeTruthy();
      if (r.body) expect(Object.keys(op.requestBody.content), r.name).toEqual([r.bodyType ?? 'application/json']);
    }
  });

  it('holds every refusal an answer gives to the codes the document declares for its route and status', () => {
    const refund = '/api/v1/dashboard/merchants/m_1/transactions/t_1/refunds';
    const refusal = (status: number, code: string) => ({ statusCode: status, code, message: 'm', details: {} });
    // Declared: implied by the route (its idempotency key, a dashboard write's origin) or in its reference.
    expect(() => checkDeclaredRefusal('POST', refund, 400, refusal(400, 'request.invalid_idempotency_key'))).not.toThrow();
    expect(() => checkDeclaredRefusal('POST', refund, 403, refusal(403, 'request.cross_origin'))).not.toThrow();
    expect(() => checkDeclaredRefusal('POST', refund, 422, refusal(422, 'refund.invalid_amount'))).not.toThrow();
    // Not declared, or declared at another status.
    expect(() => checkDeclaredRefusal('POST', refund, 422, refusal(422, 'payout.insufficient_funds'))).toThrow(ContractViolation);
    expect(() => checkDeclaredRefusal('POST', refund, 409, refusal(409, 'request.invalid_idempotency_key'))).toThrow(ContractViolation);
    // The organization face names its code `errorCode`.
    const org = '/api/v1/public-api/organizations/o_1/subscriptions';
    const orgRefusal = (status: number, errorCode: string) => ({ errorCode, statusCode: status, message: 'm', details: '' });
    expect(() => checkDeclaredRefusal('POST', org, 422, orgRefusal(422, 'checkout.tax_unavailable'))).not.toThrow();
    expect(() => checkDeclaredRefusal('POST', org, 422, orgRefusal(422, 'order.plan_inactive'))).toThrow(ContractViolation);
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
    expect(getKey.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrganizationError' });
    expect(getKey.responses['401'].content['application/json'].examples['auth.invalid_api_key'].value).toMatchObject({
      errorCode: 'auth.invalid_api_key',
      statusCode: 401,
    });
  });
});
