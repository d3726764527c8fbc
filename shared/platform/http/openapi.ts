/**
 * The OpenAPI 3.1 document of the platform, built from the route table and the API reference's docs
 * (`<module>/routes.docs.ts`, handed in by the caller, so no bundle carries them): for each operation of every face but
 * the dashboard's pages, its summary (the route's), description, module tag, parameters and request body with the
 * docs' request example, `x-codeSamples` (curl and TypeScript `fetch`) made from that example, the success response
 * with its recorded example, and every refusal the route can give (./openapi-refusals.ts) — those its definition
 * implies (authentication, scope and roles, validation, media type, its `unknownId`) and those its docs name — in its
 * face's error body with an example each. Schemas registered with `named()` (the spec's names where it gives one) are components, referenced
 * wherever they are used.
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { jsonSchemaConversion, type SchemaOf } from './json-schema.ts';
import type { ApiDocs, RequestExample } from './route-docs.ts';
import type { AuthKind, RouteDef } from './route-def.ts';
import { pathParameterMaxLength, pathParametersOf } from './path-bounds.ts';
import { namedSchemas } from './schemas/named.ts';
import { errorComponents, errorResponses, withProtocolAnswers } from './openapi-refusals.ts';
import { IDEMPOTENCY_KEY_MAX } from '../../domain/idempotency.ts';
const redirect = {
  description: 'Redirect',
  headers: { location: { required: true, description: 'Where to go next (absolute URL)', schema: { type: 'string', format: 'uri' } } },
};

const securityOf = {
  none: [],
  apiKey: [{ merchantApiKey: [] }],
  session: [{ sessionCookie: [] }, { sessionBearer: [] }],
  orgApiKey: [{ organizationApiKey: [] }],
  accountSecret: [],
  clientToken: [{ clientToken: [] }],
  agentToken: [{ agentToken: [] }],
  portalSession: [],
} as const;

/** The `Authorization` header of each auth kind in the code samples: its scheme and the environment variable holding the credential. */
const credentialOf: Readonly<Record<AuthKind, { scheme: string; shell: string; env: string } | null>> = {
  none: null,
  accountSecret: null,
  apiKey: { scheme: 'Bearer', shell: 'KEY', env: 'MOR_API_KEY' },
  orgApiKey: { scheme: 'ApiKey', shell: 'KEY', env: 'MOR_API_KEY' },
  session: { scheme: 'Bearer', shell: 'SESSION', env: 'MOR_SESSION_TOKEN' },
  clientToken: { scheme: 'Bearer', shell: 'CLIENT_TOKEN', env: 'MOR_CLIENT_TOKEN' },
  agentToken: { scheme: 'Bearer', shell: 'TOKEN', env: 'MOR_MCP_TOKEN' },
  portalSession: null,
};

/** A form body as `application/x-www-form-urlencoded` fields (a list: the name once per value). */
const formOf = (body: unknown) =>
  new URLSearchParams(
    Object.entries(body as Record<string, unknown>).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, String(v)]),
    ),
  );

/** The path of a request example: its parameters put in, its query appended. */
function urlPathOf(r: RouteDef, example: RequestExample): string {
  const path = r.path.replace(/\{(\w+)\}/g, (whole, name: string) => example.params?.[name] ?? whole);
  const query = new URLSearchParams(example.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

/** Quotes a shell word in single quotes. */
const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request example as `curl` and as TypeScript `fetch`, the base URL and credential taken from the environment. */
function codeSamples(r: RouteDef, example: RequestExample) {
  // Under /api the base URL the docs use (`BASE=http://localhost:3000/api`), elsewhere the origin.
  const full = urlPathOf(r, example);
  const underApi = full.startsWith('/api/');
  const url = underApi ? full.slice('/api'.length) : full;
  const [shellBase, envBase] = underApi ? ['$BASE', 'MOR_BASE_URL'] : ['$ORIGIN', 'MOR_ORIGIN'];
  // An example that sends its own `Authorization` (the sign-out of a session of its own) shows that one alone.
  const ownAuth = Object.keys(example.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const credential = ownAuth ? undefined : credentialOf[r.auth];
  const mediaType = r.bodyType ?? 'application/json';
  const form = mediaType === 'application/x-www-form-urlencoded';
  const hasBody = example.body !== undefined;
  const curl = [
    `curl -X ${r.method} "${shellBase}${url.replace(/[$`"\\]/g, '\\$&')}"`,
    ...(credential ? [`-H "Authorization: ${credential.scheme} $${credential.shell}"`] : []),
    ...Object.entries(example.headers ?? {}).map(([name, value]) => `-H ${shellQuoted(`${name}: ${value}`)}`),
    ...(hasBody ? [`-H 'Content-Type: ${mediaType}'`, `-d ${shellQuoted(form ? formOf(example.body).toString() : JSON.stringify(example.body))}`] : []),
  ].join(' \\\n  ');
  const headers = [
    ...(credential ? [`Authorization: \`${credential.scheme} \${process.env.${credential.env}}\``] : []),
    ...Object.entries(example.headers ?? {}).map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`),
    ...(hasBody ? [`'Content-Type': '${mediaType}'`] : []),
  ];
  const body = hasBody
    ? form
      ? `new URLSearchParams(${JSON.stringify(formOf(example.body).toString())})`
      : `JSON.stringify(${JSON.stringify(example.body, null, 2).replace(/\n/g, '\n  ')})`
    : null;
  const answer = r.response === null ? null : (r.contentType ?? 'application/json') === 'application/json' ? 'await res.json()' : 'await res.text()';
  const fetchSource = [
    `const res = await fetch(\`\${process.env.${envBase}}${url.replace(/[`$\\]/g, '\\$&')}\`, {`,
    `  method: '${r.method}',`,
    ...(headers.length ? [`  headers: { ${headers.join(', ')} },`] : []),
    ...(body ? [`  body: ${body},`] : []),
    '});',
    answer ? `console.log(res.status, ${answer});` : 'console.log(res.status);',
  ].join('\n');
  return [
    { lang: 'curl', label: 'curl', source: curl },
    { lang: 'TypeScript', label: 'fetch', source: fetchSource },
  ];
}

/** The module of a route: the folder of its handler (`functions/<module>/…`), its tag. */
export const moduleOf = (r: Pick<RouteDef, 'handler'>): string => r.handler.split('/')[1]!;

/**
 * A JSON Schema as the document gives it: a bound that is both inclusive and exclusive (valibot's `gtValue` writes
 * `minimum` beside `exclusiveMinimum`) keeps only the exclusive one, which says it all.
 */
function tidied(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidied);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema as Record<string, unknown>).map(([k, value]) => [k, tidied(value)] as const);
  const json = Object.fromEntries(entries) as Record<string, unknown>;
  if (typeof json.exclusiveMinimum === 'number' && typeof json.minimum === 'number' && json.minimum <= json.exclusiveMinimum) delete json.minimum;
  if (typeof json.exclusiveMaximum === 'number' && typeof json.maximum === 'number' && json.maximum >= json.exclusiveMaximum) delete json.maximum;
  return json;
}

/** The component schemas `roots` refer to, directly or through other components. */
function referencedOnly(schemas: Record<string, unknown>, roots: readonly unknown[]): Record<string, unknown> {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [k, item] of Object.entries(value)) {
        const name = k === '$ref' && typeof item === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(item)?.[1] : undefined;
        if (name !== undefined && !used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        } else visit(item);
      }
    }
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

/** The success response of a route: its body (JSON, text, a PDF or an image) with its example, a redirect, or none. */
function successResponse(r: RouteDef, schemaOf: SchemaOf, example: unknown) {
  const withExample = example === undefined ? {} : { example };
  if (r.response && r.contentType === 'application/pdf') {
    return {
      description: 'Success',
      headers: { 'content-disposition': { required: true, description: 'attachment; filename="<name>.pdf"', schema: { type: 'string' } } },
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  // A media type range: the answer is image/png, image/jpeg or image/webp.
  if (r.response && r.contentType === 'image/*') return { description: 'Success', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } };
  if (r.response) return { description: 'Success', content: { [r.contentType ?? 'application/json']: { schema: schemaOf(r.response), ...withExample } } };
  if (r.status >= 300 && r.status < 400) return redirect;
  return { description: r.status === 405 ? 'Method Not Allowed (the Allow header names the methods there are), no content' : 'Success, no content' };
}

const isInteger = (schema: unknown) => (schema as { type?: unknown }).type === 'integer';

/** A query integer's default as the integer it is (the schema's own default is the query text, `'20'`). */
function integerDefault(schema: unknown): unknown {
  const d = (schema as { default?: unknown }).default;
  return isInteger(schema) && typeof d === 'string' ? { ...(schema as object), default: Number(d) } : schema;
}

/**
 * The JSON Schema of each of `schemas` (the routes' absent ones skipped), converted in one call: `toJsonSchema` converts
 * every named definition again on each call, so converting the routes' schemas one by one converted the definitions
 * hundreds of times. Each schema is converted as a property of one object, as it would be alone.
 */
function jsonSchemasOf(
  schemas: ReadonlyArray<GenericSchema | null | undefined>,
  config: Parameters<typeof toJsonSchema>[1],
): Map<GenericSchema, Record<string, unknown>> {
  const unique = [...new Set(schemas.filter((s) => s != null))];
  const whole = toJsonSchema(v.object(Object.fromEntries(unique.map((s, i) => [`s${i}`, s]))), config) as {
    properties: Record<string, Record<string, unknown>>;
  };
  return new Map(unique.map((s, i) => [s, whole.properties[`s${i}`]!]));
}

export function buildOpenApi(routes: readonly RouteDef[], docs: ApiDocs, version = '1.0.0') {
  const definitions = namedSchemas() as Record<string, GenericSchema>;
  const config = {
    ...jsonSchemaConversion,
    definitions,
    overrideRef: ({ referenceId }: { referenceId: string }) => `#/components/schemas/${referenceId}`,
  } as const;
  const api = routes.filter((r) => r.face !== 'page');
  const converted = jsonSchemasOf(
    api.flatMap((r) => [r.query, r.body, r.response, ...(r.protocolAnswers ?? []).map((a) => a.response)]),
    config,
  );
  const schemaOf = (schema: GenericSchema) => {
    const { $schema: _, $defs: __, ...json } = converted.get(schema) ?? (toJsonSchema(schema, config) as Record<string, unknown>);
    return tidied(json) as Record<string, unknown>;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of api) {
    const doc = docs.operations[r.name];
    const example = doc?.example ?? {};
    const pathParams = pathParametersOf(r.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', maxLength: (pathParameterMaxLength as Record<string, number>)[name] },
      ...(example.params?.[name] === undefined ? {} : { example: example.params[name] }),
    }));
    const query = r.query ? (schemaOf(r.query) as { properties?: Record<string, unknown>; required?: string[] }) : null;
    const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema: integerDefault(schema),
      ...(example.query?.[name] === undefined ? {} : { example: isInteger(schema) ? Number(example.query[name]) : example.query[name] }),
    }));
    // The Idempotency-Key the route declares, then headers a request example sends beyond authentication and media
    // types (which OpenAPI describes elsewhere).
    const idempotencyParam = r.idempotencyKey
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: r.idempotencyKey === 'required',
            schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x20-\\x7E]+$' },
            ...(example.headers?.['Idempotency-Key'] === undefined ? {} : { example: example.headers['Idempotency-Key'] }),
          },
        ]
      : [];
    const headerParams = Object.entries(example.headers ?? {})
      .filter(([name]) => !/^(accept|content-type|authorization|idempotency-key)$/i.test(name))
      .map(([name, value]) => ({ name, in: 'header', required: false, schema: { type: 'string' }, example: value }));
    const parameters = [...pathParams, ...queryParams, ...idempotencyParam, ...headerParams];
    const bodySchema = r.body ? schemaOf(r.body) : example.body !== undefined ? { description: 'Read by the operation itself: see its description.' } : null;
    const recorded = doc?.response ?? docs.responseExamples[r.name];
    const success = successResponse(r, schemaOf, recorded);
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = {
      operationId: r.name,
      summary: r.summary,
      ...(doc ? { description: doc.description } : {}),
      tags: [moduleOf(r)],
      security: securityOf[r.auth],
      ...(parameters.length ? { parameters } : {}),
      ...(bodySchema
        ? {
            requestBody: {
              required: true,
              content: {
                [r.bodyType ?? 'application/json']: {
                  schema: bodySchema,
                  ...(example.body === undefined ? {} : { examples: { default: { summary: r.summary, value: example.body } } }),
                },
              },
            },
          }
        : {}),
      responses: {
        [String(r.status)]: success,
        ...(r.redirects ? { '302': redirect, '303': redirect } : {}),
        ...(r.etag ? { '304': { description: 'Not Modified: the If-None-Match sent holds the current ETag' } } : {}),
        ...withProtocolAnswers(errorResponses(r, doc?.errors ?? []), r, schemaOf),
      },
      ...(doc ? { 'x-codeSamples': codeSamples(r, example) } : {}),
    };
  }
  const components = Object.fromEntries(
    Object.entries(toJsonSchemaDefs(definitions, { ...jsonSchemaConversion, overrideRef: config.overrideRef })).map(([name, schema]) => {
      const { $schema: _, ...rest } = schema as Record<string, unknown>;
      return [name, tidied(rest)];
    }),
  );
  const webhooks = {
    organizationEvent: {
      post: {
        operationId: 'organization-webhook-event',
        summary: 'An event of an organization, delivered to each webhook destination of the accounts linked to it.',
        description:
          'POSTed as JSON to the URL of each webhook destination (`/api/v1/webhook-destinations`) whose account is linked to the organization, for `transaction-processed` and `transaction-declined`. Answer any 2xx to acknowledge it; another answer, or none in time, is retried.',
        tags: ['webhooks'],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrganizationWebhookEvent' } } } },
        responses: { '200': { description: 'Acknowledged (any 2xx)' }, '400': { description: 'Not acknowledged (any other answer): the delivery is retried' } },
      },
    },
  };
  const schemas = { ...components, ...errorComponents };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant-of-record platform API',
      version,
      description:
        "The HTTP API of the merchant-of-record platform: the merchant, organization, checkout, dashboard and OAuth faces and the MCP endpoint for agents. Every operation lists the refusals it can give, in its face's error body. The code samples take the API's base URL from `BASE` / `MOR_BASE_URL` (e.g. `http://localhost:3000/api`, where every path under `/api` starts), the origin from `ORIGIN` / `MOR_ORIGIN` (the discovery documents and hosted pages), and the credential from `KEY` / `MOR_API_KEY` or the variable each sample names.",
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: '/', description: 'The deployment that serves this document (sandbox or live); paths start with /api, the discovery documents with /.well-known' },
    ],
    tags: docs.tags.filter((t) => api.some((r) => moduleOf(r) === t.name)),
    paths,
    webhooks,
    components: {
      // Only the schemas this document refers to (the tokenization host's are in none of the main API's operations).
      schemas: referencedOnly(schemas, [paths, webhooks]),
      securitySchemes: {
        merchantApiKey: { type: 'http', scheme: 'bearer', description: 'mor_test_<64 hex> on sandbox, mor_live_<secret> on live' },
        organizationApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey <accountId>_<apiKey>_<apiKeyId>' },
        sessionBearer: { type: 'http', scheme: 'bearer', description: 'Dashboard session token (mor_sess_…)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-mor_session' },
        clientToken: { type: 'http', scheme: 'bearer', description: 'Hosted-fields client token (mor_ct_…) a merchant back end minted for its page' },
        agentToken: { type: 'http', scheme: 'bearer', description: 'An OAuth access token (mor_oat_…) or a user MCP token (mor_mcp_test_… / mor_mcp_live_…)' },
      },
    },
  };
}
