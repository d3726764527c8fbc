/** The API reference's entries of the system routes (`shared/routes/system.ts`), read only by the OpenAPI document's builder. */
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './system.ts';

export const systemDocs = {
  health: {
    description:
      'Answers `{"status": "ok"}` while the API is up: for load balancers, uptime checks and deployment smoke tests. It needs no credentials and reads nothing, so it says the API answers, not that every dependency does.',
    example: {},
  },
  openapi: {
    description:
      'This document: the OpenAPI 3.1 description of every operation of the deployment that serves it (sandbox or live), generated from the route table and built ahead of each deployment, so it always matches what the deployment answers. Feed it to a client generator (`npx openapi-typescript <url> -o api.d.ts`) or an API explorer. The example below is abbreviated.',
    example: {},
    response: {
      openapi: '3.1.0',
      info: { title: 'Merchant-of-record platform API', version: '1.0.0' },
      paths: { '/api/health': { get: { operationId: 'health', summary: 'Liveness check.' } } },
      components: { schemas: {} },
    },
  },
} satisfies ModuleDocs<typeof routes>;
