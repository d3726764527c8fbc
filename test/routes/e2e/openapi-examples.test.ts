/**
 * Every request example of the API reference is sent to the local stack and must get its documented status: the
 * fixture (`./openapi-examples/fixture.ts`, and one `./openapi-examples/<list>.fixture.ts` per route list) makes the
 * records the examples name, each id of `shared/platform/http/example-ids.ts` in an example is swapped for the
 * fixture's record of that kind, and the credentials of the route's auth kind are added (an example that sends its
 * own `Authorization` header keeps it, its ids swapped too). Reads and creates go first, what destroys last.
 *
 * The success answers are the document's response examples: `RECORD_OPENAPI_EXAMPLES=1 npx vitest run
 * test/routes/e2e/openapi-examples.test.ts` writes each into `shared/routes/docs/responses/<list>.json`, the fixture's ids
 * swapped back to the example ones. A normal run checks that every operation has one and that it passes its
 * route's response schema.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exampleIds, exampleOrigin, type ExampleIdName } from '../../../shared/platform/http/example-ids.ts';
import { apiDocs, documentedLists, type DocumentedListName } from '../../../shared/routes/docs/index.ts';
import type { OperationDocs } from '../../../shared/platform/http/route-docs.ts';
import { binaryContentTypes, routesFor, type RouteDef } from '../../../shared/routes/index.ts';
import { checkContractAt } from '../../support/contract.ts';
import { agentsFixture } from './openapi-examples/agents.fixture.ts';
import { checkoutFixture } from './openapi-examples/checkout.fixture.ts';
import { dashboardFixture } from './openapi-examples/dashboard.fixture.ts';
import { type BaseFixture, baseFixture, type FixtureIds } from './openapi-examples/fixture.ts';
import { merchantFixture } from './openapi-examples/merchant.fixture.ts';
import { oauthFixture } from './openapi-examples/oauth.fixture.ts';
import { organizationFixture } from './openapi-examples/organization.fixture.ts';
import { paymentsFixture } from './openapi-examples/payments.fixture.ts';
import { subscriptionsFixture } from './openapi-examples/subscriptions.fixture.ts';
import { systemFixture } from './openapi-examples/system.fixture.ts';

const recording = process.env.RECORD_OPENAPI_EXAMPLES === '1';
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const origin = new URL(inject('baseUrl')).origin;

const listFixtures: Record<DocumentedListName, (base: BaseFixture) => Promise<FixtureIds>> = {
  system: systemFixture,
  merchant: merchantFixture,
  organization: organizationFixture,
  payments: paymentsFixture,
  subscriptions: subscriptionsFixture,
  checkout: checkoutFixture,
  dashboard: dashboardFixture,
  oauth: oauthFixture,
  agents: agentsFixture,
};

/** The list each route is in. */
const listOf = new Map<string, DocumentedListName>(
  (Object.entries(documentedLists) as [DocumentedListName, { routes: Record<string, RouteDef> }][]).flatMap(([list, { routes }]) =>
    Object.values(routes).map((r) => [r.name, list] as const),
  ),
);

/** The operations of the sandbox document: the sandbox main API's routes but the dashboard's pages. */
const operations = routesFor('sandbox').filter((r) => r.face !== 'page');
const documented = operations.filter((r) => apiDocs.operations[r.name]);

/** 0: reads, 1: creates and updates, 2: what destroys, revokes, voids or ends something (run last). */
const rank = (r: RouteDef) =>
  r.method === 'DELETE' || /(^|-)(revoke|void|cancel|delete|remove|deactivate|archive|sign-out|close)/.test(r.name) ? 2 : r.method === 'GET' ? 0 : 1;
const ordered = [...documented].sort((a, b) => rank(a) - rank(b));

const docsOf = (r: RouteDef): OperationDocs => apiDocs.operations[r.name]!;

let base: BaseFixture;
/** Each example id's real value in this run's fixture. */
let ids: FixtureIds;
let documentJson: any;
const recorded = new Map<string, unknown>();

/** `value` with `change` made to every string in it. */
function eachString(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => eachString(item, change));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, eachString(item, change)]));
  return value;
}

/** `value` with every example id in it (in any string) replaced by the fixture's, or the other way round. */
const swapped = (value: unknown, pairs: readonly (readonly [string, string])[]): unknown =>
  eachString(value, (text) => pairs.reduce((s, [from, to]) => s.split(from).join(to), text));

/**
 * A credential in an answer (a key, a session, a client or MCP token, shown once): its prefix, then its secret part
 * of one or two runs of 16 or more letters and digits (a session's after its person's id and a dot).
 */
const CREDENTIAL = /\b(mor_(?:[a-z]+_)+?)((?:[0-9a-f-]{36}\.)?[A-Za-z0-9]{16,}(?:_[A-Za-z0-9]{16,})?)\b/g;

/** `value` with the secret part of every credential zeroed: the same shape, so it still passes its schema, but no secret. */
const withoutSecrets = (value: unknown): unknown =>
  eachString(value, (text) => text.replace(CREDENTIAL, (_, prefix: string, secret: string) => prefix + secret.replace(/[A-Za-z0-9]/g, '0')));

/** The credentials `value` holds whose secret part is not zeroed. */
const secretsIn = (value: unknown): string[] =>
  [...JSON.stringify(value ?? null).matchAll(CREDENTIAL)].filter(([, , secret]) => /[A-Za-z1-9]/.test(secret!)).map(([whole]) => whole);

const toReal = () => Object.entries(ids).map(([name, real]) => [exampleIds[name as ExampleIdName], real] as const);
/**
 * The fixture's ids back to the example ones, and the stack's origin (and host name) to the examples' (longest first,
 * so a value inside another is not cut).
 */
const toExample = () =>
  [
    ...Object.entries(ids).map(([name, real]) => [real, exampleIds[name as ExampleIdName]] as const),
    [origin, exampleOrigin] as const,
    [new URL(origin).hostname, new URL(exampleOrigin).hostname] as const,
  ].sort(([a], [b]) => b.length - a.length);

/** The example ids `value` uses that the fixture has no record for. */
const unprovided = (value: unknown): string[] => {
  const text = JSON.stringify(value);
  return (Object.entries(exampleIds) as [ExampleIdName, string][]).filter(([name, id]) => text.includes(id) && !ids[name]).map(([name]) => name);
};

/** The `Authorization` header of a route's auth kind, from the base fixture. */
function credentialOf(r: RouteDef): Record<string, string> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  switch (r.auth) {
    case 'apiKey':
      return bearer(base.merchantApiKey);
    case 'session':
      return bearer(base.sessionToken);
    case 'orgApiKey':
      return { authorization: `ApiKey ${base.orgApiKey}` };
    case 'clientToken':
      return bearer(base.clientToken);
    case 'agentToken':
      return bearer(base.agentToken);
    default:
      return {};
  }
}

/** A form body: each field once, a list once per value. */
const formOf = (body: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(body).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((x): [string, string] => [name, String(x)])),
  );

/** Sends `r`'s request example, its ids swapped for the fixture's and its credentials added; the answer is contract-checked. */
async function send(r: RouteDef) {
  const example = swapped(docsOf(r).example, toReal()) as OperationDocs['example'];
  const pathOf = r.path.replace(/\{(\w+)\}/g, (whole, name: string) => encodeURIComponent(example.params?.[name] ?? whole));
  const query = new URLSearchParams(example.query ?? {}).toString();
  const target = `${pathOf}${query ? `?${query}` : ''}`;
  const ownAuth = Object.keys(example.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
  const headers: Record<string, string> = { ...(ownAuth ? {} : credentialOf(r)), ...example.headers };
  let body: string | undefined;
  if (example.body !== undefined) {
    let fields = example.body as Record<string, unknown>;
    if (r.auth === 'accountSecret') fields = { ...fields, secret: base.accountSecret };
    const form = r.bodyType === 'application/x-www-form-urlencoded';
    headers['content-type'] = r.bodyType ?? 'application/json';
    // A form a page of this origin posts (it answers a page): a browser sends the page's origin with it.
    if (form && r.contentType === 'text/html') headers.origin ??= origin;
    body = form ? formOf(fields).toString() : JSON.stringify(fields);
  }
  const res = await fetch(`${origin}${target}`, { method: r.method, headers, body, redirect: 'manual' });
  const contentType = res.headers.get('content-type');
  const binary = binaryContentTypes.some((t) => (t.endsWith('/*') ? contentType?.startsWith(t.slice(0, -1)) : contentType?.startsWith(t)));
  const text = binary ? '' : await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // a page, a script or a style sheet
  }
  if (!binary) checkContractAt(r.method, pathOf, res.status, json, text, contentType, res.headers);
  return { status: res.status, json, text };
}

beforeAll(async () => {
  base = await baseFixture();
  ids = { ...base.ids };
  for (const fixture of Object.values(listFixtures)) Object.assign(ids, await fixture(base));
  const served = await fetch(`${origin}/api/v1/openapi.json`);
  documentJson = await served.json();
}, 120_000);

afterAll(async () => {
  if (!recording) return;
  const files: string[] = [];
  for (const [list, { responses }] of Object.entries(documentedLists)) {
    const fresh = Object.fromEntries([...recorded].filter(([name]) => listOf.get(name) === list));
    if (Object.keys(fresh).length === 0) continue;
    const merged = { ...responses, ...fresh };
    const file = path.join(repoRoot, 'shared', 'routes', 'docs', 'responses', `${list}.json`);
    writeFileSync(file, `${JSON.stringify(Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`);
    files.push(file);
  }
  if (files.length)
    await promisify(execFile)(process.execPath, [path.join(repoRoot, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'format', '--write', ...files]);
});

describe('the API reference', () => {
  it('documents every operation of the sandbox document (a docs entry in its module routes.docs.ts)', () => {
    const missing = operations.filter((r) => !apiDocs.operations[r.name]).map((r) => `${listOf.get(r.name) ?? '?'}: ${r.name} (${r.method} ${r.path})`);
    expect(missing, `operations without docs:\n${missing.join('\n')}`).toEqual([]);
  });

  it("carries each docs entry's description, request example and code samples into the served document", () => {
    for (const r of documented) {
      const op = documentJson.paths[r.path][r.method.toLowerCase()];
      const { description, example } = docsOf(r);
      expect(op.description, r.name).toBe(description);
      for (const [name, value] of Object.entries({ ...example.params, ...example.query })) {
        // A query integer's example is the integer its text stands for.
        const parameter = op.parameters.find((p: { name: string }) => p.name === name);
        expect(parameter?.example, `${r.name} ${name}`).toBe(parameter?.schema.type === 'integer' ? Number(value) : value);
      }
      if (example.body !== undefined) expect(op.requestBody.content[r.bodyType ?? 'application/json'].examples.default.value, r.name).toEqual(example.body);
      expect(
        op['x-codeSamples'].map((s: { lang: string }) => s.lang),
        r.name,
      ).toEqual(['curl', 'TypeScript']);
    }
  });

  describe.each(ordered.map((r) => [`${r.name}: ${r.method} ${r.path}`, r] as const))('%s', (_, r) => {
    it('gets its documented status with its request example', async () => {
      const missingIds = unprovided(docsOf(r).example);
      expect(missingIds, `${r.name}: the fixture has no record for these example ids`).toEqual([]);
      const expected = docsOf(r).example.status ?? r.status;
      const documentedStatuses = [r.status, ...(r.redirects ? [302, 303] : [])];
      expect(documentedStatuses, `${r.name}: the example's status is not one the route documents`).toContain(expected);
      const answer = await send(r);
      expect(answer.status, `${r.name} answered ${answer.text.slice(0, 500)}`).toBe(expected);
      if (
        expected === r.status &&
        r.response !== null &&
        docsOf(r).response === undefined &&
        !binaryContentTypes.includes(r.contentType ?? 'application/json')
      ) {
        const json = (r.contentType ?? 'application/json') === 'application/json';
        recorded.set(r.name, withoutSecrets(swapped(json ? answer.json : answer.text, toExample())));
      }
    });
  });

  it.skipIf(recording)('has a success example for every operation with a body, valid against its response schema', () => {
    const problems: string[] = [];
    for (const r of documented) {
      // A body-less answer, bytes, or an example answered by a redirect (the route's page is not what it gets) has none to show.
      if (r.response === null || binaryContentTypes.includes(r.contentType ?? 'application/json') || docsOf(r).example.status !== undefined) continue;
      const example = docsOf(r).response ?? apiDocs.responseExamples[r.name];
      if (example === undefined) problems.push(`${r.name}: no response example (record them: RECORD_OPENAPI_EXAMPLES=1)`);
      else if (!v.is(r.response, example)) problems.push(`${r.name}: ${v.summarize(v.safeParse(r.response, example).issues!)}`);
      // A recorded answer keeps no working-looking secret: re-recording zeroes them.
      else if (secretsIn(example).length) problems.push(`${r.name}: its example holds a credential: ${secretsIn(example).join(', ')}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
