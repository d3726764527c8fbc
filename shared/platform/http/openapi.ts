/**
 * The OpenAPI 3.1 document of the platform, built from the route table: paths, methods, auth, path and query
 * parameters, request bodies, success responses (under the route's media type: JSON, or the text of a page or
 * script) and each face's error body. Schemas registered with `named()`
 * (the spec's names where it gives one) are components, referenced wherever they are used.
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { RouteDef } from '../../routes/types.ts';
import { namedSchemas } from './schemas/named.ts';

const merchantError = {
  type: 'object',
  required: ['statusCode', 'code', 'message', 'details'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'Stable, dotted, lowercase error code, e.g. request.validation_failed' },
    message: { type: 'string' },
    details: { type: 'object' },
  },
};

const organizationError = {
  type: 'object',
  required: ['errorCode', 'statusCode', 'message', 'details'],
  properties: {
    errorCode: { type: 'string', description: 'Stable, dotted, lowercase error code, e.g. request.validation_failed' },
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    details: { type: 'string' },
  },
};

const oauthError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'RFC 6749 §5.2 / RFC 7591 §3.2.2 error code, e.g. invalid_grant' },
    error_description: { type: 'string' },
  },
};

/** The agent face's error body (the MCP endpoint's 401 and 403 among them), as the spec's MCP 401 has it. */
const agentError = {
  type: 'object',
  required: ['statusCode', 'error', 'code', 'message', 'docUrl'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: "The status's reason phrase, e.g. Unauthorized" },
    code: { type: 'string', description: 'missing_token, invalid_token, token_expired, token_validation_unavailable, insufficient_scope, …' },
    message: { type: 'string' },
    docUrl: { type: 'string', format: 'uri', description: 'Where the code and what to do about it are explained' },
  },
};

/** The error body component of each face. */
const errorComponentOf = (face: RouteDef['face']) =>
  face === 'organization' ? 'OrganizationError' : face === 'oauth' ? 'OAuthError' : face === 'agent' ? 'AgentError' : 'Error';

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
} as const;

export function buildOpenApi(routes: readonly RouteDef[], version = '1.0.0') {
  const definitions = namedSchemas() as Record<string, GenericSchema>;
  const config = {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode: 'input',
    definitions,
    overrideRef: ({ referenceId }: { referenceId: string }) => `#/components/schemas/${referenceId}`,
  } as const;
  const schemaOf = (schema: GenericSchema) => {
    const { $schema: _, $defs: __, ...json } = toJsonSchema(schema, config) as Record<string, unknown>;
    return json;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const query = r.query ? (schemaOf(r.query) as { properties?: Record<string, unknown>; required?: string[] }) : null;
    const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema,
    }));
    const parameters = [...pathParams, ...queryParams];
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = {
      operationId: r.name,
      summary: r.summary,
      tags: [r.face],
      security: securityOf[r.auth],
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { [r.bodyType ?? 'application/json']: { schema: schemaOf(r.body) } } } } : {}),
      responses: {
        [String(r.status)]:
          r.response && r.contentType === 'application/pdf'
            ? {
                description: 'Success',
                headers: { 'content-disposition': { required: true, description: 'attachment; filename="<name>.pdf"', schema: { type: 'string' } } },
                content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
              }
            : r.response && r.contentType === 'image/*'
              ? {
                  description: 'Success',
                  // A media type range: the answer is image/png, image/jpeg or image/webp.
                  content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
                }
              : r.response
                ? { description: 'Success', content: { [r.contentType ?? 'application/json']: { schema: schemaOf(r.response) } } }
                : r.status >= 300 && r.status < 400
                  ? redirect
                  : { description: 'Success, no content' },
        ...(r.redirects ? { '302': redirect, '303': redirect } : {}),
        ...(r.etag ? { '304': { description: 'Not Modified: the If-None-Match sent holds the current ETag' } } : {}),
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorComponentOf(r.face)}` } } },
        },
      },
    };
  }
  const components = Object.fromEntries(
    Object.entries(toJsonSchemaDefs(definitions, { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input', overrideRef: config.overrideRef })).map(
      ([name, schema]) => {
        const { $schema: _, ...rest } = schema as Record<string, unknown>;
        return [name, rest];
      },
    ),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Merchant-of-record platform API', version },
    servers: [
      { url: '/', description: 'The deployment that serves this document (sandbox or live); paths start with /api, the discovery documents with /.well-known' },
    ],
    paths,
    components: {
      schemas: { ...components, Error: merchantError, OrganizationError: organizationError, OAuthError: oauthError, AgentError: agentError },
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
