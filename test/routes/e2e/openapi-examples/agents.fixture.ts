/** The records the request examples of the agents list (the `agents` list of `shared/routes/docs/index.ts`) name: an MCP token to revoke. */
import { call } from '../../../support/fixtures.ts';
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function agentsFixture(base: BaseFixture): Promise<FixtureIds> {
  const minted = await call('POST', `/v1/dashboard/merchants/${base.merchantId}/mcp-tokens`, {
    key: base.sessionToken,
    body: { name: 'Token to revoke', scopes: ['docs:read'] },
  });
  if (minted.status !== 201) throw new Error(`MCP token: ${minted.status} ${minted.text}`);
  return { mcpTokenIdToDelete: minted.json.id as string };
}
