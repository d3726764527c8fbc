/**
 * `token_validation_unavailable`: when the token store cannot be read (the table client throttled or unreachable),
 * the MCP endpoint answers its 401 with `Retry-After`, never a 500 — the MCP function's handler invoked in this
 * process, with a middleware on the shared table client that fails every call, as a throttled table does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/agents/mcp.ts';
import * as agentRoutes from '../../../shared/agents/routes.ts';
import { db } from '../../../shared/platform/db/client.ts';
import { invokeCounted } from '../../support/dynamo-counter.ts';
import { agent, docUrl, initializeMessage, resourceMetadata } from '../support.ts';

const BREAK = 'breakTheTable';

function breakTheTable(): void {
  db.middlewareStack.add(
    () => async () => {
      throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException', $fault: 'client' });
    },
    { step: 'initialize', name: BREAK },
  );
}

afterEach(() => {
  db.middlewareStack.remove(BREAK);
});

const mcpRequest = (token: string) => ({
  headers: { accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
  body: initializeMessage,
});

describe('a token store that cannot be read', () => {
  it('answers 401 token_validation_unavailable with Retry-After and the discovery challenge, not 500; the same token works once the table is back', async () => {
    const a = await agent();
    const works = await invokeCounted(agentRoutes.mcp, handler, mcpRequest(a.token));
    expect(works.status).toBe(200);

    breakTheTable();
    const event = await invokeCounted(agentRoutes.mcp, handler, mcpRequest(a.token));
    expect(event.status).toBe(401);
    expect(event.json).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'token_validation_unavailable',
      message: 'The token could not be checked right now. Retry in a few seconds; do not ask for a new token.',
      docUrl: docUrl(),
    });
    expect(event.calls).toEqual(['BatchGetItem']);

    db.middlewareStack.remove(BREAK);
    expect((await invokeCounted(agentRoutes.mcp, handler, mcpRequest(a.token))).status).toBe(200);
  });

  it('sends the challenge without error="invalid_token", and Retry-After', async () => {
    const a = await agent();
    breakTheTable();
    const { routeEvent } = await import('../../support/dynamo-counter.ts');
    const { lambdaContext } = await import('../../../infra/local/lambda.ts');
    const result = (await handler(
      routeEvent(agentRoutes.mcp, mcpRequest(a.token)),
      lambdaContext({ name: 'mcp', timeoutMs: 10_000, region: 'us-east-1' }),
    )) as {
      statusCode: number;
      headers: Record<string, string>;
    };
    expect(result.statusCode).toBe(401);
    expect(result.headers['www-authenticate']).toBe(`Bearer resource_metadata="${resourceMetadata()}"`);
    expect(result.headers['retry-after']).toBe('5');
  });
});
