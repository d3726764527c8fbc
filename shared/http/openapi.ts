/**
 * The OpenAPI 3.1 document of the platform, built from the route table (paths, methods, auth, body schemas),
 * so it can never disagree with the routes that are deployed.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { RouteDef } from '../../infra/routes.ts';

const errorSchema = {
  type: 'object',
  required: ['statusCode', 'code', 'message', 'details'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'Stable, dotted, lowercase error code, e.g. request.validation_failed' },
    message: { type: 'string' },
    details: { type: 'object' },
  },
};

const securityOf = { none: [], apiKey: [{ merchantApiKey: [] }], session: [{ sessionCookie: [] }, { sessionBearer: [] }] } as const;

export function buildOpenApi(routes: readonly RouteDef[], version = '1.0.0') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    (paths[r.path] ??= {})[r.method.toLowerCase()] = {
      operationId: r.name,
      summary: r.summary,
      security: securityOf[r.auth],
      ...(params.length ? { parameters: params } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(r.body, { target: 'draft-2020-12', errorMode: 'ignore' }) } } } }
        : {}),
      responses: {
        '2XX': { description: 'Success' },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Merchant-of-record platform API', version },
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        merchantApiKey: { type: 'http', scheme: 'bearer', description: 'mor_test_<64 hex> on sandbox, mor_live_<secret> on live' },
        sessionBearer: { type: 'http', scheme: 'bearer', description: 'Dashboard session token (mor_sess_…)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'mor_session' },
      },
    },
  };
}
