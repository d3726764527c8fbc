/** System routes: liveness and the API's own description. */
import * as v from 'valibot';
import { openApiAssets } from '../platform/http/openapi-document.ts';
import type { RouteDef } from '../platform/http/route-def.ts';

// The schemas sit outside the route objects, which then hold no call: a function's bundle leaves out the other route.
const healthResponse = v.strictObject({ status: v.literal('ok') });
const openApiDocument = v.looseObject({ openapi: v.literal('3.1.0'), info: v.looseObject({}), paths: v.looseObject({}), components: v.looseObject({}) });

export const health = {
  face: 'system',
  name: 'health',
  method: 'GET',
  path: '/api/health',
  handler: 'functions/system/health.ts',
  auth: 'none',
  group: 'system',
  table: 'none',
  status: 200,
  response: healthResponse,
  summary: 'Liveness check.',
} as const satisfies RouteDef;

export const openapi = {
  face: 'system',
  name: 'openapi',
  method: 'GET',
  path: '/api/v1/openapi.json',
  handler: 'functions/system/openapi.ts',
  auth: 'none',
  group: 'system',
  table: 'none',
  status: 200,
  response: openApiDocument,
  summary: "This API's OpenAPI 3.1 document, generated from the route table.",
  // Each stage's document, built ahead from the route table (infra/openapi-asset.ts) and read at run time.
  assets: openApiAssets,
} as const satisfies RouteDef;
