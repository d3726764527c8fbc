/** @jsxImportSource hono/jsx */
/** The Developers overview, the merchant API keys page and the person's MCP tokens page. */
import { agentScopeDescriptions, agentScopes } from '../../domain/agent-scopes.ts';
import type { listMcpTokenSummaries } from '../../agents/index.ts';
import type { ApiKeySummary } from '../../people/index.ts';
import { Status, Time } from '../kit/format.tsx';
import { ActionForm, Csrf, Empty, Field, Notice, Page, SecretOnce, SelectField, SentOnce, Table, merchantPath, type PageContext } from '../kit/layout.tsx';

const developersPath = (ctx: PageContext, rest = '') => merchantPath(ctx.merchant!.id, `/developers${rest}`);
const deploymentName = (ctx: PageContext) => (ctx.mode === 'live' ? 'Live' : 'Sandbox');
const otherDeploymentName = (ctx: PageContext) => (ctx.mode === 'live' ? 'Sandbox' : 'Live');

/** The way back to the area's overview, above a sub-page's content. */
export const BackToDevelopers = ({ ctx }: { ctx: PageContext }) => (
  <p>
    <a href={developersPath(ctx)}>Back to Developers</a>
  </p>
);

export function DevelopersPage({ ctx }: { ctx: PageContext }) {
  return (
    <Page ctx={ctx} title="Developers" area="developers">
      <p class="muted">Tools for connecting your systems on the {deploymentName(ctx)} deployment.</p>
      <div class="grid">
        <section class="panel" aria-labelledby="dev-keys">
          <h2 id="dev-keys">
            <a href={developersPath(ctx, '/api-keys')}>API keys</a>
          </h2>
          <p>Keys your servers use to call the merchant API. Owners and admins create and revoke them.</p>
        </section>
        <section class="panel" aria-labelledby="dev-webhooks">
          <h2 id="dev-webhooks">
            <a href={developersPath(ctx, '/webhooks')}>Webhooks</a>
          </h2>
          <p>Destinations that receive signed events, with a test ping and each destination's delivery log.</p>
        </section>
        <section class="panel" aria-labelledby="dev-mcp">
          <h2 id="dev-mcp">
            <a href={developersPath(ctx, '/mcp-tokens')}>MCP tokens</a>
          </h2>
          <p>Your own tokens for AI agents that cannot sign in with OAuth, valid for up to 7 days.</p>
        </section>
      </div>
    </Page>
  );
}

const apiKeyNotices: Readonly<Record<string, string>> = {
  revoked: 'The API key is revoked: requests with it are refused from now on.',
  sent_before:
    'This form was sent before: its key was created then, and its secret shown that once. No other key was created. If the secret was not kept, revoke that key and create another.',
};

/** A key of the merchant's own organization API account, with the account's name. */
export interface OrgApiKeySummary {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface ApiKeysProps {
  ctx: PageContext;
  keys: readonly ApiKeySummary[];
  orgKeys: readonly OrgApiKeySummary[];
  canManage: boolean;
  done?: string | undefined;
  error?: string | undefined;
  name?: string | undefined;
  kind?: 'merchant' | 'organization' | undefined;
  created?: { name: string; apiKey: string; kind: 'merchant' | 'organization' };
}

/** A key's status cell and, for those who manage keys, its Revoke button (asking first) while it is active. */
function KeyStatus(p: {
  ctx: PageContext;
  path: string;
  action: 'revoke' | 'revoke_org';
  what: string;
  k: { id: string; name: string; revokedAt: string | null };
  canManage: boolean;
}) {
  return (
    <>
      <td>{p.k.revokedAt ? <Status status="revoked" /> : <Status status="active" />}</td>
      {p.canManage ? (
        <td>
          {p.k.revokedAt ? null : (
            <ActionForm
              ctx={p.ctx}
              path={p.path}
              action={p.action}
              fields={{ apiKeyId: p.k.id }}
              confirm={`Revoke the ${p.what} "${p.k.name}"? Requests with it stop working at once.`}
              tone="danger"
              label={`Revoke ${p.k.name}`}
            >
              Revoke
            </ActionForm>
          )}
        </td>
      ) : null}
    </>
  );
}

/** A create form of a key of `kind`: its name, sent once. */
function CreateKeyForm(p: { ctx: PageContext; action: string; kind: 'merchant' | 'organization'; name?: string | undefined }) {
  const id = p.kind === 'merchant' ? 'name' : 'org-name';
  return (
    <form method="post" action={p.action}>
      <Csrf ctx={p.ctx} />
      <input type="hidden" name="action" value={p.kind === 'merchant' ? 'create' : 'create_org'} />
      <SentOnce ctx={p.ctx} />
      <Field
        id={id}
        name="name"
        label={p.kind === 'merchant' ? 'Name' : 'Organization key name'}
        required
        maxlength={100}
        value={p.name}
        hint="What uses the key, so you can tell keys apart later."
      />
      <div class="actions">
        <button type="submit">{p.kind === 'merchant' ? 'Create API key' : 'Create organization API key'}</button>
      </div>
    </form>
  );
}

export function ApiKeysPage(p: ApiKeysProps) {
  const action = developersPath(p.ctx, '/api-keys');
  return (
    <Page ctx={p.ctx} title="API keys" area="developers">
      <BackToDevelopers ctx={p.ctx} />
      <Notice notice={p.done ? apiKeyNotices[p.done] : undefined} error={p.error} />
      {p.created ? (
        <section class="panel" aria-labelledby="new-key">
          <h2 id="new-key">API key “{p.created.name}” created</h2>
          <SecretOnce id="api-key-secret" label="API key" value={p.created.apiKey} />
          <p class="hint">
            Send it as "Authorization: {p.created.kind === 'merchant' ? 'Bearer' : 'ApiKey'} &lt;key&gt;"
            {p.created.kind === 'merchant' ? '' : ` to the organization API, whose organization id is this merchant's id (${p.ctx.merchant!.id})`}. It works on
            the {deploymentName(p.ctx)} deployment only.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="keys">
        <h2 id="keys">Keys</h2>
        {p.keys.length === 0 ? (
          <Empty>No API keys yet. {p.canManage ? 'Create one below to call the merchant API.' : 'An owner or admin can create one.'}</Empty>
        ) : (
          <Table caption="The merchant's API keys" columns={['Name', 'Key', 'Created', 'Last used', 'Status', p.canManage && 'Action']}>
            {p.keys.map((k) => (
              <tr>
                <td>{k.name}</td>
                <td>
                  <code>{k.hint}</code>
                </td>
                <td>
                  <Time iso={k.createdAt} />
                </td>
                <td>
                  <Time iso={k.lastUsedAt} />
                </td>
                <KeyStatus ctx={p.ctx} path={action} action="revoke" what="API key" k={k} canManage={p.canManage} />
              </tr>
            ))}
          </Table>
        )}
      </section>
      {p.canManage ? (
        <section class="panel" aria-labelledby="create-key">
          <h2 id="create-key">Create an API key</h2>
          <CreateKeyForm ctx={p.ctx} action={action} kind="merchant" name={p.kind === 'organization' ? undefined : p.name} />
        </section>
      ) : (
        <p class="muted">Only owners and admins can create or revoke API keys.</p>
      )}
      <section aria-labelledby="org-keys">
        <h2 id="org-keys">Organization API keys</h2>
        <p class="muted">
          Keys for the organization API (the catalog, customers, cards, payments and subscriptions), sent as "Authorization: ApiKey &lt;key&gt;". Each is the
          key of an account of this merchant alone.
        </p>
        {p.orgKeys.length === 0 ? (
          <Empty>No organization API keys yet. {p.canManage ? 'Create one below.' : 'An owner or admin can create one.'}</Empty>
        ) : (
          <Table caption="The merchant's organization API keys" columns={['Name', 'Key id', 'Created', 'Status', p.canManage && 'Action']}>
            {p.orgKeys.map((k) => (
              <tr>
                <td>{k.name}</td>
                <td>
                  <code>{k.id}</code>
                </td>
                <td>
                  <Time iso={k.createdAt} />
                </td>
                <KeyStatus ctx={p.ctx} path={action} action="revoke_org" what="organization API key" k={k} canManage={p.canManage} />
              </tr>
            ))}
          </Table>
        )}
      </section>
      {p.canManage ? (
        <section class="panel" aria-labelledby="create-org-key">
          <h2 id="create-org-key">Create an organization API key</h2>
          <CreateKeyForm ctx={p.ctx} action={action} kind="organization" name={p.kind === 'organization' ? p.name : undefined} />
        </section>
      ) : null}
    </Page>
  );
}

type McpToken = Awaited<ReturnType<typeof listMcpTokenSummaries>>[number];

const mcpNotices: Readonly<Record<string, string>> = {
  revoked: 'The token is revoked: it stops working at once.',
  sent_before:
    'This form was sent before: its token was created then, and shown that once. No other token was created. If it was not kept, revoke that token and create another.',
};

export interface McpTokensProps {
  ctx: PageContext;
  tokens: readonly McpToken[];
  mcpUrl: string;
  now: string;
  done?: string | undefined;
  error?: string | undefined;
  name?: string | undefined;
  scopes?: readonly string[];
  created?: { name: string; token: string; expiresAt: string };
}

/** The lifetimes a token can be made with, longest first. */
const lifetimes = [7, 6, 5, 4, 3, 2, 1].map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` }));

const tokenStatus = (t: McpToken, now: string) => (t.revokedAt ? 'revoked' : t.expiresAt <= now ? 'expired' : 'active');

export function McpTokensPage(p: McpTokensProps) {
  const action = developersPath(p.ctx, '/mcp-tokens');
  const here = deploymentName(p.ctx);
  const other = otherDeploymentName(p.ctx);
  const chosen = new Set(p.scopes ?? []);
  return (
    <Page ctx={p.ctx} title="MCP tokens" area="developers">
      <BackToDevelopers ctx={p.ctx} />
      <Notice notice={p.done ? mcpNotices[p.done] : undefined} error={p.error} />
      <section class="panel" aria-labelledby="mcp-deployments">
        <h2 id="mcp-deployments">{here} tab</h2>
        <p>
          These are your tokens for the {here} deployment: they act as you on this merchant and work only with this MCP URL: <code>{p.mcpUrl}</code>
        </p>
        <p class="muted">
          The {other} tab lives on the {other} deployment's own dashboard: sign in there and open Developers, then MCP tokens. A token made here never works
          there.
        </p>
      </section>
      {p.created ? (
        <section class="panel" aria-labelledby="new-token">
          <h2 id="new-token">Token “{p.created.name}” created</h2>
          <SecretOnce id="mcp-token-secret" label="MCP token" value={p.created.token} />
          <p class="hint">
            Send it as "Authorization: Bearer &lt;token&gt;" to <code>{p.mcpUrl}</code>. It works until <Time iso={p.created.expiresAt} />.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="tokens">
        <h2 id="tokens">Your tokens</h2>
        {p.tokens.length === 0 ? (
          <Empty>You have no MCP tokens on this merchant. Create one below for an agent that cannot sign in with OAuth.</Empty>
        ) : (
          <Table
            caption="Your MCP tokens on this merchant"
            columns={['Name', 'Token', 'Scopes', 'Created', 'Expires', 'Last used', 'Status', 'Action']}
            region="Your tokens"
          >
            {p.tokens.map((t) => {
              const status = tokenStatus(t, p.now);
              return (
                <tr>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.hint}</code>
                  </td>
                  <td>{t.scopes.join(', ')}</td>
                  <td>
                    <Time iso={t.createdAt} />
                  </td>
                  <td>
                    <Time iso={t.expiresAt} />
                  </td>
                  <td>
                    <Time iso={t.lastUsedAt} />
                  </td>
                  <td>
                    <Status status={status} />
                  </td>
                  <td>
                    {status === 'active' ? (
                      <ActionForm
                        ctx={p.ctx}
                        path={action}
                        action="revoke"
                        fields={{ mcpTokenId: t.id }}
                        confirm={`Revoke the MCP token "${t.name}"? It stops working at once.`}
                        tone="danger"
                        label={`Revoke ${t.name}`}
                      >
                        Revoke
                      </ActionForm>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </section>
      <section class="panel" aria-labelledby="create-token">
        <h2 id="create-token">Create a token</h2>
        <form method="post" action={action}>
          <Csrf ctx={p.ctx} />
          <input type="hidden" name="action" value="create" />
          <SentOnce ctx={p.ctx} />
          <Field id="name" label="Name" required maxlength={100} value={p.name} hint="The agent or computer that uses it." />
          <fieldset>
            <legend>Scopes</legend>
            {agentScopes.map((s) => (
              <div class="check">
                <input type="checkbox" id={`scope-${s}`} name="scopes" value={s} checked={chosen.has(s)} />
                <label for={`scope-${s}`}>
                  <code>{s}</code> — {agentScopeDescriptions[s]}
                </label>
              </div>
            ))}
          </fieldset>
          <SelectField id="expiresInDays" label="Lifetime" choices={lifetimes} />
          <div class="actions">
            <button type="submit">Create token</button>
          </div>
        </form>
      </section>
    </Page>
  );
}
