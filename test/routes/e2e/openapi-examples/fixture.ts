/**
 * The world the API reference's request examples are sent to (`test/routes/e2e/openapi-examples.test.ts`): the base every
 * route list shares — a sandbox merchant (= organization) with its merchant key, its owner signed in to the
 * dashboard, an organization API account linked to it as owner with a key, a hosted-fields client token and a user
 * MCP token — and the ids of its records, by the names of `shared/platform/http/example-ids.ts`. Each route list adds
 * the records its own examples name in `./<list>.fixture.ts`.
 */
import { agentScopes } from '../../../../shared/domain/agent-scopes.ts';
import type { ExampleIdName } from '../../../../shared/platform/http/example-ids.ts';
import { call, orgCall, orgPath, organizationAccount, PASSWORD } from '../../../support/fixtures.ts';

/** The example ids a fixture gives: each name of `example-ids.ts` it has a record for, with that record's id. */
export type FixtureIds = Partial<Record<ExampleIdName, string>>;

export interface BaseFixture {
  /** The sandbox merchant, also the organization of the organization API (one id). */
  readonly merchantId: string;
  /** Its sandbox merchant key (`Authorization: Bearer mor_test_…`). */
  readonly merchantApiKey: string;
  readonly ownerEmail: string;
  readonly ownerPassword: string;
  /** The owner's dashboard session token (`Authorization: Bearer`). */
  readonly sessionToken: string;
  readonly accountId: string;
  /** The account's secret, for the account routes that take it in the body. */
  readonly accountSecret: string;
  /** The account's organization API key (`Authorization: ApiKey <this>`). */
  readonly orgApiKey: string;
  readonly orgApiKeyId: string;
  /** A hosted-fields client token (`Authorization: Bearer mor_ct_…`). */
  readonly clientToken: string;
  /** The owner's user MCP token on the merchant, with every scope (`Authorization: Bearer mor_mcp_…`). */
  readonly agentToken: string;
  readonly ids: FixtureIds;
}

function expectStatus(what: string, res: { status: number; text: string }, status: number): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
}

/** The body of a fixture step's answer when it has `status`; otherwise the fixture fails naming the step. */
export async function made(what: string, answer: Promise<{ status: number; text: string; json: any }>, status: number) {
  const res = await answer;
  expectStatus(what, res, status);
  return res.json;
}

export async function baseFixture(): Promise<BaseFixture> {
  const org = await organizationAccount('Example shop');
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
  expectStatus('sign-in', session, 201);
  const sessionToken = session.json.token as string;
  const client = await orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/client-tokens`, { fullKey: org.fullKey, body: {} });
  expectStatus('client token', client, 201);
  const mcp = await call('POST', `/v1/dashboard/merchants/${org.organizationId}/mcp-tokens`, {
    key: sessionToken,
    body: { name: 'Example agent', scopes: agentScopes },
  });
  expectStatus('MCP token', mcp, 201);
  return {
    merchantId: org.organizationId,
    merchantApiKey: org.merchantApiKey,
    ownerEmail: org.ownerEmail,
    ownerPassword: PASSWORD,
    sessionToken,
    accountId: org.accountId,
    accountSecret: org.secret,
    orgApiKey: org.fullKey,
    orgApiKeyId: org.apiKeyId,
    clientToken: client.json.data.clientToken as string,
    agentToken: mcp.json.token as string,
    ids: { merchantId: org.organizationId, organizationId: org.organizationId, accountId: org.accountId, ownerEmail: org.ownerEmail },
  };
}
