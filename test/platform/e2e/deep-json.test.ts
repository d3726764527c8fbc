/**
 * The depth rule through the local gateway: a JSON body, or an MCP tool's arguments, nested deeper than 64 objects or
 * arrays is refused with 400 `request.too_deep` in the face's error shape (a tool error on the MCP endpoint) before
 * anything else reads it — never a 500 from a walk that overflowed the stack — while 64 levels are still taken.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, nestedDeeperThan, textIssues } from '../../../shared/platform/http/text-rule.ts';
import { call, orgCall, orgPath, organizationAccount, rootMerchant } from '../../support/fixtures.ts';
import { agent, rawMcp, toolCallMessage } from '../../agents/support.ts';

/** JSON text of `levels` objects nested one in another: `{"a":{"a":…1…}}`. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** The same with arrays: `[[…1…]]`. */
const nestedArrays = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

const HOSTILE = 10_000;
const MESSAGE = `The body is nested deeper than ${MAX_DEPTH} levels.`;
const unknownPlan = `plan_${'0'.repeat(32)}`;
const MCP_HEADERS = { 'mcp-protocol-version': '2025-11-25' };

/** A `tools/call` message whose arguments are `{ name: 'Deep', extra: <extraJson> }`, as text (the SDK client would have to stringify it). */
const deepToolCall = (extraJson: string) => JSON.stringify(toolCallMessage('create_product', { name: 'Deep', extra: '@' })).replace('"@"', extraJson);

describe('the depth rule itself', () => {
  it('measures and walks any depth without overflowing the stack; 64 levels are within the limit, 65 are not', () => {
    const hostile = JSON.parse(nested(HOSTILE));
    expect(nestedDeeperThan(hostile)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nestedArrays(HOSTILE)))).toBe(true);
    expect(textIssues(hostile)).toEqual([]);
    expect(nestedDeeperThan(JSON.parse(nested(MAX_DEPTH)))).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nestedArrays(MAX_DEPTH)))).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nested(MAX_DEPTH + 1)))).toBe(true);
    expect(nestedDeeperThan({ wide: Array.from({ length: 1000 }, () => ({ a: [1] })) })).toBe(false);
    expect(nestedDeeperThan('text')).toBe(false);
  });

  it('names text-rule issues in document order, however deep (within the limit) they are', () => {
    expect(textIssues({ a: { b: ['\u0000'] }, 'c\u0001': 1, d: '\u0002' })).toEqual([
      { path: 'a.b.0', message: 'must not contain control characters other than tab and newline' },
      { path: '', message: 'has a field name with control characters other than tab and newline' },
      { path: 'd', message: 'must not contain control characters other than tab and newline' },
    ]);
  });
});

describe('merchant API: POST /merchants', () => {
  it('refuses a body nested 10,000 deep, whole or in a field, and one level over the limit, with 400 request.too_deep', async () => {
    const { apiKey } = await rootMerchant('Deep merchant');
    for (const rawBody of [
      nested(HOSTILE),
      nestedArrays(HOSTILE),
      `{"name":"Deep","metadata":${nested(HOSTILE)}}`,
      `{"name":"Deep","x":${nested(MAX_DEPTH)}}`,
    ]) {
      const res = await call('POST', '/v1/public-api/merchants', { key: apiKey, rawBody });
      expect(res.status, rawBody.slice(0, 40)).toBe(400);
      expect(res.json).toEqual({ statusCode: 400, code: 'request.too_deep', message: MESSAGE, details: {} });
    }
  });

  it('does not refuse a body at the limit for its depth: 64 levels reach validation', async () => {
    const { apiKey } = await rootMerchant('Deep merchant');
    const res = await call('POST', '/v1/public-api/merchants', { key: apiKey, rawBody: `{"name":"Deep","x":${nested(MAX_DEPTH - 1)}}` });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('request.validation_failed');
    expect(res.json.message).toBe('x: is not a field of this request');
  });
});

describe('organization API: POST /products', () => {
  it("refuses a deep body with 400 request.too_deep in the organization face's shape", async () => {
    const org = await organizationAccount('Deep org');
    const path = `${orgPath(org.organizationId)}/products`;
    for (const rawBody of [nested(HOSTILE), `{"name":"Deep","description":${nestedArrays(HOSTILE)}}`]) {
      const res = await orgCall('POST', path, { fullKey: org.fullKey, rawBody });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ errorCode: 'request.too_deep', statusCode: 400, message: MESSAGE, details: '' });
    }
    const atLimit = await orgCall('POST', path, { fullKey: org.fullKey, rawBody: nested(MAX_DEPTH) });
    expect(atLimit.status).toBe(400);
    expect(atLimit.json.errorCode).toBe('request.validation_failed');
  });
});

describe('checkout: POST /checkout/plans/{planId}/tax', () => {
  it('refuses a deep body with 400 request.too_deep, without credentials and before the plan is looked up', async () => {
    const path = `/v1/checkout/plans/${unknownPlan}/tax`;
    for (const rawBody of [nested(HOSTILE), `{"billingAddress":${nested(HOSTILE)}}`]) {
      const res = await call('POST', path, { rawBody });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ statusCode: 400, code: 'request.too_deep', message: MESSAGE, details: {} });
    }
    const atLimit = await call('POST', path, { rawBody: nested(MAX_DEPTH) });
    expect(atLimit.status).toBe(400);
    expect(atLimit.json.code).toBe('request.validation_failed');
  });
});

describe('MCP: tools/call with deep arguments', () => {
  it('answers a tool error naming the limit, not a JSON-RPC error; arguments at the limit reach validation', async () => {
    const { token } = await agent();
    for (const extra of [nested(HOSTILE), nestedArrays(HOSTILE), nested(MAX_DEPTH)]) {
      const res = await rawMcp(token, deepToolCall(extra), MCP_HEADERS);
      expect(res.status).toBe(200);
      expect(res.json.error).toBeUndefined();
      expect(res.json.result.isError).toBe(true);
      expect(res.json.result.structuredContent.error).toEqual({
        code: 'request.too_deep',
        message: `The arguments are nested deeper than ${MAX_DEPTH} levels.`,
        details: {},
      });
      expect(res.json.result.content[0].text).toBe(`request.too_deep: The arguments are nested deeper than ${MAX_DEPTH} levels.`);
    }
    // The arguments object is one level, so `extra` may hold 63 more.
    const atLimit = await rawMcp(token, deepToolCall(nested(MAX_DEPTH - 1)), MCP_HEADERS);
    expect(atLimit.json.result.isError).toBe(true);
    expect(atLimit.json.result.structuredContent.error).toMatchObject({
      code: 'request.invalid_arguments',
      message: 'Invalid arguments: extra: is not an argument of this tool',
    });
  });
});
