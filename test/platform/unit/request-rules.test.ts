/**
 * The request rules of the shared middleware (shared/platform/http/request-middleware.ts), run on every route of the route
 * table that takes a body: each route's own middleware stack, as `route()` wires it (without its authentication,
 * which runs before the body is read), on the API Gateway event the local gateway would build, with a handler
 * that records whether it was reached.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildHttpApiEvent } from '../../../infra/local/apigw-event.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { wire } from '../../../shared/access/route.ts';
import { stillThrottled } from '../../../shared/platform/db/busy.ts';
import { isContentionOnly } from '../../../shared/platform/db/transactions.ts';
import { oauthErrorCode } from '../../../shared/platform/http/errors.ts';
import { validate, validated } from '../../../shared/platform/http/request-middleware.ts';
import { MAX_TEXT_ISSUES, textIssues, textProblem } from '../../../shared/platform/http/text-rule.ts';
import type { HttpEvent } from '../../../shared/platform/http/types.ts';
import { routeList, type RouteDef } from '../../../shared/routes/index.ts';

// The dashboard's pages answer errors as pages, and refuse a form from another origin before anything else
// (test/dashboard/e2e/dashboard-access.test.ts): the rules below are those of the APIs.
const bodyRoutes = routeList.filter((r) => r.body && r.face !== 'page');
const pageFormRoutes = routeList.filter((r) => r.face === 'page' && r.method !== 'GET');
const jsonBodyRoutes = bodyRoutes.filter((r) => (r.bodyType ?? 'application/json') === 'application/json');
const formBodyRoutes = bodyRoutes.filter((r) => r.bodyType === 'application/x-www-form-urlencoded');

/** The route's middleware stack around a handler that only counts its calls. */
function wired(route: RouteDef) {
  const reached: HttpEvent[] = [];
  const handler = wire(
    route,
    ({ event }) => {
      reached.push(event);
      return { status: route.status, body: (route.contentType ?? 'application/json') === 'application/json' ? {} : 'text' };
    },
    null,
    null,
  );
  return { handler, reached };
}

interface Sent {
  body?: string | Buffer;
  headers?: Array<[string, string]>;
  query?: string;
}

async function send(route: RouteDef, sent: Sent) {
  const { handler, reached } = wired(route);
  const rawPath = route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => `${name}-1`);
  const event = buildHttpApiEvent({
    method: route.method,
    rawPath,
    rawQueryString: sent.query ?? '',
    routeKey: `${route.method} ${route.path}`,
    sourceIp: '127.0.0.1',
    headers: [['host', 'localhost'], ...(sent.headers ?? [['content-type', 'application/json']])],
    body: sent.body,
  });
  const result = (await handler(event, lambdaContext({ name: route.name, timeoutMs: 10_000, region: 'us-east-1' }))) as APIGatewayProxyStructuredResultV2;
  const json = JSON.parse(result.body ?? 'null');
  return { status: result.statusCode, json, reached: reached.length };
}

/**
 * The face's error body: its keys exactly, `details` a string on the organization face and an object elsewhere; the
 * OAuth face's `{ error, error_description }` with the RFC code of the platform's `code`.
 */
function expectFaceError(route: RouteDef, json: any, status: number, code: string) {
  if (route.face === 'oauth') {
    expect(Object.keys(json).sort()).toEqual(['error', 'error_description']);
    expect(json.error).toBe(oauthErrorCode(status, code));
  } else if (route.face === 'organization') {
    expect(Object.keys(json).sort()).toEqual(['details', 'errorCode', 'message', 'statusCode']);
    expect(json).toMatchObject({ errorCode: code, statusCode: status });
    expect(typeof json.details).toBe('string');
  } else {
    expect(Object.keys(json).sort()).toEqual(['code', 'details', 'message', 'statusCode']);
    expect(json).toMatchObject({ code, statusCode: status });
    expect(typeof json.details).toBe('object');
  }
}

describe('the body rule', () => {
  it('covers every route with a body, and every body schema is an object schema', () => {
    expect(jsonBodyRoutes.length).toBeGreaterThanOrEqual(59);
    expect(bodyRoutes.filter((r) => !/(^|_)object$/.test((r.body as { type: string }).type)).map((r) => r.name)).toEqual([]);
  });

  it.each(jsonBodyRoutes.map((r) => [r.name, r] as const))(
    '%s: an array, a string, a number, null or a boolean is 400 request.validation_failed, and the handler is not reached',
    async (_, route) => {
      for (const body of ['[]', '[{}]', '"x"', '1', 'null', 'true']) {
        const res = await send(route, { body });
        expect(res.status, `${route.name} with ${body}`).toBe(400);
        expectFaceError(route, res.json, 400, 'request.validation_failed');
        expect(res.json.message ?? res.json.error_description).toBe('(body): must be a JSON object');
        expect(res.reached).toBe(0);
      }
    },
  );

  it.each(jsonBodyRoutes.map((r) => [r.name, r] as const))('%s: an object body passes the body rule to its schema', async (_, route) => {
    const res = await send(route, { body: '{}' });
    // Its own schema decides: the route's success, or a 400 about its fields (or its query), never the body rule.
    if (res.status !== route.status) {
      expect(res.status).toBe(400);
      expect(res.json.message ?? res.json.error_description).not.toBe('(body): must be a JSON object');
    }
  });
});

describe('the media type rule', () => {
  it.each(bodyRoutes.map((r) => [r.name, r] as const))(
    '%s: a body without Content-Type is 415 like text/plain; no body and no Content-Type stays 400 request.body_required',
    async (_, route) => {
      for (const headers of [[], [['content-type', 'text/plain']]] as Array<Array<[string, string]>>) {
        const res = await send(route, { body: '{}', headers });
        expect(res.status, `${route.name} with ${JSON.stringify(headers)}`).toBe(415);
        expectFaceError(route, res.json, 415, 'request.unsupported_media_type');
        expect(res.reached).toBe(0);
      }
      const none = await send(route, { headers: [] });
      expect(none.status).toBe(400);
      expectFaceError(route, none.json, 400, 'request.body_required');
      expect(none.reached).toBe(0);
    },
  );

  it('reads an application/…+json body (handed over base64-encoded) as strict UTF-8: bytes that are not UTF-8 are 400 request.malformed_json', async () => {
    const route = bodyRoutes.find((r) => r.name === 'refunds-create')!;
    const headers: Array<[string, string]> = [['content-type', 'application/merge-patch+json']];
    const bad = await send(route, { body: Buffer.concat([Buffer.from('{"reason":"a'), Buffer.from([0xff]), Buffer.from('"}')]), headers });
    expect(bad.status).toBe(400);
    expectFaceError(route, bad.json, 400, 'request.malformed_json');
    expect(bad.reached).toBe(0);
    const good = await send(route, { body: Buffer.from('{"reason":"Zoë 😀"}'), headers });
    expect(good.status).toBe(route.status);
  });

  it('refuses an application/json body (handed over as text) whose bytes are not UTF-8: they arrive as U+FFFD, which is refused', async () => {
    const route = bodyRoutes.find((r) => r.name === 'refunds-create')!;
    const headers: Array<[string, string]> = [['content-type', 'application/json']];
    for (const bytes of [
      [0xff, 0xfe],
      [0xed, 0xa0, 0x80],
    ]) {
      const bad = await send(route, { body: Buffer.concat([Buffer.from('{"reason":"a'), Buffer.from(bytes), Buffer.from('"}')]), headers });
      expect(bad.status).toBe(400);
      expectFaceError(route, bad.json, 400, 'request.malformed_json');
      expect(bad.reached).toBe(0);
    }
    // Meant, the character is written escaped.
    expect((await send(route, { body: '{"reason":"a \\uFFFD b"}', headers })).status).toBe(route.status);
  });
});

describe('form bodies (application/x-www-form-urlencoded)', () => {
  const form: Array<[string, string]> = [['content-type', 'application/x-www-form-urlencoded; charset=UTF-8']];

  it('are the OAuth routes that take forms, and every form of the dashboard pages', () => {
    expect(formBodyRoutes.map((r) => r.name).sort()).toEqual(['oauth-authorize-form', 'oauth-revoke', 'oauth-token']);
    expect(pageFormRoutes.filter((r) => r.bodyType !== 'application/x-www-form-urlencoded').map((r) => r.name)).toEqual([]);
  });

  it('reach the handler decoded: a name sent once is a string, a name sent several times the list of its values, line breaks newlines; __proto__ changes no prototype', async () => {
    const route = formBodyRoutes.find((r) => r.name === 'oauth-authorize-form')!;
    const { handler, reached } = wired(route);
    const event = buildHttpApiEvent({
      method: 'POST',
      rawPath: route.path,
      routeKey: `POST ${route.path}`,
      sourceIp: '127.0.0.1',
      headers: form,
      // A textarea's line breaks as a browser sends them: CRLF (and a lone CR) are newlines, which the text rule takes.
      body: 'action=consent&granted_scopes=merchant%3Aread&granted_scopes=docs:read&email=zo%C3%AB%40example.com&note=a+b%2Bc&__proto__=x&__proto__=y&empty=&lines=one%0D%0Atwo%0Dthree%0Afour',
    });
    const result = (await handler(event, lambdaContext({ name: route.name, timeoutMs: 10_000, region: 'us-east-1' }))) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(route.status);
    const parsed = reached[0]!.parsedBody as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed).toEqual({
      action: 'consent',
      granted_scopes: ['merchant:read', 'docs:read'],
      email: 'zoë@example.com',
      note: 'a b+c',
      empty: '',
      lines: 'one\ntwo\nthree\nfour',
    });
    expect(Object.keys(parsed)).not.toContain('__proto__');
  });

  it('refuses a parameter its schema takes once when it is sent twice, a bad % escape and bytes that are not UTF-8, raw or escaped (400), JSON (415)', async () => {
    const token = formBodyRoutes.find((r) => r.name === 'oauth-token')!;
    const twice = await send(token, { body: 'grant_type=a&grant_type=b', headers: form });
    expect(twice.status).toBe(400);
    expectFaceError(token, twice.json, 400, 'request.validation_failed');
    expect(twice.json.error_description).toMatch(/^grant_type: /);
    const badEscape = await send(token, { body: 'grant_type=%zz', headers: form });
    expect(badEscape.status).toBe(400);
    expect(badEscape.json).toEqual({ error: 'invalid_request', error_description: 'The body is not a valid form: a % must start a %XX escape.' });
    const bytes = await send(token, { body: Buffer.concat([Buffer.from('code=a'), Buffer.from([0xff])]), headers: form });
    expect(bytes.json).toEqual({ error: 'invalid_request', error_description: 'The body is not valid form: it must be UTF-8.' });
    // The same byte escaped, in a value or a name.
    for (const body of ['code=a%FF', 'co%C3de=a']) expect((await send(token, { body, headers: form })).json, body).toEqual(bytes.json);
    const json = await send(token, { body: '{"grant_type":"refresh_token"}' });
    expect(json.status).toBe(415);
    expect(json.json).toEqual({ error: 'invalid_request', error_description: 'Send the body as application/x-www-form-urlencoded.' });
    expect(twice.reached + badEscape.reached + bytes.reached + json.reached).toBe(0);
  });
});

describe('the text rule', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a carriage return', 'line\r\nbreak'],
    ['BEL', 'ding\u0007'],
    ['ESC', '\u001b[31mred'],
    ['a vertical tab', 'a\u000bb'],
    ['a form feed', '\u000c'],
    ['the last C0 character', '\u001f'],
    ['DEL', 'a\u007f'],
  ])('refuses %s', (_, text) => {
    expect(textProblem(text)).toBe('control characters other than tab and newline');
  });

  it.each([
    ['a lone high surrogate', 'key-\ud800'],
    ['a lone low surrogate', '\udc00-key'],
    ['a high surrogate at the end', 'smile \ud83d'],
    ['a pair in the wrong order', '\ude00\ud83d'],
    ['a lone half beside a valid pair', '\ud83d\ude00\udbff'],
  ])('refuses %s', (_, text) => {
    expect(textProblem(text)).toBe('an unpaired UTF-16 surrogate');
  });

  it.each([
    ['tab and newline', 'a\tb\nc'],
    ['emoji (valid surrogate pairs)', 'Zoë 😀👍🏽'],
    ['other scripts', '山田 Ωmega'],
    ['an astral character', '𝄞'],
    ['U+FFFD itself', '\ufffd'],
    ['no-break space and C1 controls (not C0)', '\u00a0\u0085'],
    ['the empty string', ''],
  ])('accepts %s', (_, text) => {
    expect(textProblem(text)).toBeNull();
  });

  it('walks every string of a body once, field names included, and names each by its path', () => {
    expect(
      textIssues({
        ok: 'fine',
        lines: [{ description: 'ok' }, { description: 'bad\r' }],
        nested: { deep: ['x', '\ud800'] },
        'key\u0000': 'v',
        n: 1,
        b: true,
        z: null,
      }),
    ).toEqual([
      { path: 'lines.1.description', message: 'must not contain control characters other than tab and newline' },
      { path: 'nested.deep.1', message: 'must not contain an unpaired UTF-16 surrogate' },
      { path: '', message: 'has a field name with control characters other than tab and newline' },
    ]);
    expect(textIssues({ q: '\u0000' }, 'query')).toEqual([{ path: 'q', message: 'must not contain control characters other than tab and newline' }]);
    expect(textIssues({ 'a\u0000': '' }, 'query')).toEqual([
      { path: '', message: 'has a query parameter name with control characters other than tab and newline' },
    ]);
    expect(textIssues({ items: Array.from({ length: 1000 }, () => '\u0000') })).toHaveLength(MAX_TEXT_ISSUES);
  });

  const refunds = bodyRoutes.find((r) => r.name === 'refunds-create')!;

  it('refuses a body string that breaks it with 400 request.validation_failed naming the field, never the text, before the handler', async () => {
    for (const [reason, message] of [
      ['SECRET\r\nInjected: 1', 'must not contain control characters other than tab and newline'],
      ['SECRET\ud800', 'must not contain an unpaired UTF-16 surrogate'],
    ]) {
      const res = await send(refunds, { body: JSON.stringify({ reason }) });
      expect(res.status).toBe(400);
      expectFaceError(refunds, res.json, 400, 'request.validation_failed');
      expect(res.json.message).toBe(`reason: ${message}`);
      expect(res.json.details).toBe(`reason: ${message}`);
      expect(JSON.stringify(res.json)).not.toContain('SECRET');
      expect(res.reached).toBe(0);
    }
    // Also with the escapes written out in the JSON text, and inside a field name.
    const escaped = await send(refunds, { body: '{"reason":"a\\u0000b"}' });
    expect(escaped.json.message).toBe('reason: must not contain control characters other than tab and newline');
    const key = await send(refunds, { body: '{"rea\\ud800son":"x"}' });
    expect(key.status).toBe(400);
    expect(key.json.message).toBe('(body): has a field name with an unpaired UTF-16 surrogate');
    expect(key.reached).toBe(0);
  });

  it('lists the schema issues of other fields after the text issues', async () => {
    const res = await send(refunds, { body: JSON.stringify({ reason: 'a\u0000', amount: 'ten' }) });
    expect(res.status).toBe(400);
    expect(res.json.details.split('\n')).toEqual([
      'reason: must not contain control characters other than tab and newline',
      expect.stringMatching(/^amount: /),
    ]);
  });

  it('passes tab, newline and emoji through to the handler unchanged', async () => {
    const { handler, reached } = wired(refunds);
    const event = buildHttpApiEvent({
      method: 'POST',
      rawPath: '/x',
      routeKey: `POST ${refunds.path}`,
      sourceIp: '127.0.0.1',
      headers: [['content-type', 'application/json']],
      body: JSON.stringify({ reason: 'Zoë 😀\tline\nnext' }),
    });
    const result = (await handler(event, lambdaContext({ name: refunds.name, timeoutMs: 10_000, region: 'us-east-1' }))) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(refunds.status);
    expect((reached[0]!.parsedBody as { reason: string }).reason).toBe('Zoë 😀\tline\nnext');
  });

  it('applies to the query string too: 400 request.invalid_query', async () => {
    const list = routeList.find((r) => r.name === 'products-list')!;
    const bad = await send(list, { headers: [], query: 'search=a%0Db' });
    expect(bad.status).toBe(400);
    expectFaceError(list, bad.json, 400, 'request.invalid_query');
    expect(bad.json.message).toBe('search: must not contain control characters other than tab and newline');
    expect(bad.reached).toBe(0);
    const badName = await send(list, { headers: [], query: 'sea%00rch=x' });
    expect(badName.json.message).toBe('(query): has a query parameter name with control characters other than tab and newline');
    const good = await send(list, { headers: [], query: 'search=Zo%C3%AB%20%F0%9F%98%80' });
    expect(good.status).toBe(list.status);
  });
});

describe('the query rule', () => {
  // Every page but the hosted card fields' frame, which only the checkout's own script opens, with its own parameters.
  const pages = routeList.filter((r) => r.method === 'GET' && r.contentType === 'text/html' && r.name !== 'hosted-fields-frame');

  it("lets a link to any page carry parameters the page does not read (a mail's or a campaign's trackers): ignored, not refused", () => {
    expect(pages.length).toBeGreaterThan(30);
    for (const page of pages) {
      const event = { queryStringParameters: { utm_source: 'newsletter', utm_campaign: 'december' } } as unknown as HttpEvent;
      expect(() => validate(page).before!({ event } as never), page.name).not.toThrow();
    }
  });

  it('refuses a parameter an API operation does not take: 400 request.invalid_query, before the handler', async () => {
    const list = routeList.find((r) => r.name === 'products-list')!;
    const res = await send(list, { headers: [], query: 'utm_source=newsletter' });
    expect(res.status).toBe(400);
    expectFaceError(list, res.json, 400, 'request.invalid_query');
    expect(res.json.message).toBe('utm_source: is not a query parameter of this request');
    expect(res.reached).toBe(0);
    // Names an object has of itself are parameters like any other, as the deployed event's JSON has them.
    for (const name of ['__proto__', 'constructor']) {
      const odd = await send(list, { headers: [], query: `${name}=x` });
      expect([name, odd.status]).toEqual([name, 400]);
      expectFaceError(list, odd.json, 400, 'request.invalid_query');
    }
  });
});

describe('the validation messages', () => {
  /** What `validated` refuses `input` with (null: it takes it). */
  const refusalOf = (schema: v.GenericSchema, input: unknown) => {
    try {
      validated(schema, input, 'request.validation_failed', 'body');
      return null;
    } catch (e) {
      return e as { message: string; details: { issues: unknown[] } };
    }
  };

  it('say one problem a field in words: a limit left with valibot default message is named as the schemas name it', () => {
    const schema = v.strictObject({
      name: v.pipe(v.string(), v.maxCodePoints(10)),
      tags: v.pipe(v.array(v.string()), v.minLength(2)),
      seats: v.pipe(v.number(), v.minValue(1), v.maxValue(5)),
      amount: v.pipe(
        v.number(),
        v.minValue(0, 'must not be negative'),
        v.check((n) => n > 0, 'must be more than 0'),
      ),
    });
    const refusal = refusalOf(schema, { name: 'x'.repeat(11), tags: ['a'], seats: 9, amount: -1 });
    expect(refusal?.details.issues).toEqual([
      { field: 'name', message: 'must be at most 10 characters' },
      { field: 'tags', message: 'must be at least 2 items' },
      { field: 'seats', message: 'must be at most 5' },
      { field: 'amount', message: 'must not be negative' },
    ]);
    expect(refusal?.message).toBe('name: must be at most 10 characters');
  });

  it('say a field left out is required, and a value not in a list what the list is (not what was sent)', () => {
    const schema = v.strictObject({ url: v.string(), role: v.picklist(['admin', 'member']) });
    expect(refusalOf(schema, { role: 'owner' })?.details.issues).toEqual([
      { field: 'url', message: 'is required' },
      { field: 'role', message: 'Invalid type: Expected ("admin" | "member")' },
    ]);
  });

  it('refuse an array where an object is asked for, which valibot takes for one (an object of optional fields, a record)', () => {
    const schema = v.strictObject({
      address: v.optional(v.object({ country: v.optional(v.string()) })),
      headers: v.optional(v.record(v.string(), v.string())),
      tags: v.optional(v.array(v.string())),
    });
    const issuesOf = (input: unknown) => refusalOf(schema, input)?.details.issues ?? [];
    expect(issuesOf({ address: [] })).toEqual([{ field: 'address', message: 'must be an object' }]);
    expect(issuesOf({ headers: ['x'] })).toEqual([{ field: 'headers', message: 'must be an object' }]);
    expect(issuesOf([])).toEqual([{ field: '(body)', message: 'must be an object' }]);
    expect(issuesOf({ address: { country: 'DE' }, headers: { 'x-a': '1' }, tags: ['a'] })).toEqual([]);
  });

  it('never repeat a value a format refused (a 5 MB one would make the answer too big to send)', () => {
    const schema = v.strictObject({ id: v.pipe(v.string(), v.uuid()), at: v.pipe(v.string(), v.isoTimestamp()), mail: v.pipe(v.string(), v.email()) });
    const sent = 'z'.repeat(100_000);
    const refusal = refusalOf(schema, { id: sent, at: sent, mail: sent });
    expect(refusal?.details.issues).toEqual([
      { field: 'id', message: 'Invalid UUID' },
      { field: 'at', message: 'Invalid timestamp' },
      { field: 'mail', message: 'Invalid email' },
    ]);
    expect(JSON.stringify(refusal).length).toBeLessThan(500);
  });
});

describe('a table too busy for a write', () => {
  const cancelled = (...codes: string[]) =>
    Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });

  it("is answered 503 request.busy with Retry-After, in the face's error shape; a refused condition or a bug stays a 500", async () => {
    const route =
      routeList.find((r) => r.face === 'merchant' && r.auth === 'none' && r.method === 'GET') ?? routeList.find((r) => r.auth === 'none' && r.face !== 'page')!;
    const answer = async (error: Error) => {
      const handler = wire(route, () => Promise.reject(error), null, null);
      const event = buildHttpApiEvent({
        method: route.method,
        rawPath: route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => `${name}-1`),
        routeKey: `${route.method} ${route.path}`,
        sourceIp: '127.0.0.1',
        headers: [['host', 'localhost']],
        ...(route.body
          ? {
              body: '{}',
              headers: [
                ['host', 'localhost'],
                ['content-type', 'application/json'],
              ],
            }
          : {}),
      });
      const result = (await handler(event, lambdaContext({ name: route.name, timeoutMs: 10_000, region: 'us-east-1' }))) as APIGatewayProxyStructuredResultV2;
      return { status: result.statusCode, headers: result.headers ?? {}, json: JSON.parse(result.body ?? 'null') };
    };
    const busyErrors = [
      cancelled('None', 'TransactionConflict'),
      cancelled('ThrottlingError', 'None'),
      Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' }),
      // A batch read or write DynamoDB kept throttling past its retries.
      stillThrottled('BatchGetItem left keys unprocessed'),
      // A call that got no answer in time, after the SDK's retries (shared/platform/aws/sdk-timeouts.ts).
      Object.assign(new Error('the request socket timed out'), { name: 'TimeoutError' }),
    ];
    for (const error of busyErrors) {
      const busy = await answer(error);
      expect(busy.status, error.name).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json.code ?? busy.json.errorCode).toBe('request.busy');
    }
    for (const error of [
      cancelled('None', 'ConditionalCheckFailed'),
      cancelled('TransactionConflict', 'ConditionalCheckFailed'),
      cancelled('TransactionConflict', 'ValidationError'),
      new TypeError('a bug'),
    ]) {
      const failed = await answer(error);
      expect(failed.status, error.message).toBe(500);
      expect(failed.json.code ?? failed.json.errorCode).toBe('internal_error');
    }
  });
});

describe('a transaction worth trying again', () => {
  it('is one other transactions stood in the way of, and nothing the busy rule would not excuse', () => {
    expect(isContentionOnly(['None', 'TransactionConflict'])).toBe(true);
    expect(isContentionOnly(['ThrottlingError', 'TransactionConflict'])).toBe(true);
    // Throttled only: answered 503 at once, not tried again for the whole budget.
    expect(isContentionOnly(['ThrottlingError', 'None'])).toBe(false);
    expect(isContentionOnly(['TransactionConflict', 'ConditionalCheckFailed'])).toBe(false);
    expect(isContentionOnly(['TransactionConflict', 'ValidationError'])).toBe(false);
    expect(isContentionOnly(['None', 'None'])).toBe(false);
    expect(isContentionOnly(null)).toBe(false);
  });
});
