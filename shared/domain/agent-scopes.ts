/**
 * What an agent may do on the platform: the scopes of the MCP endpoint's tools, granted to an OAuth client at
 * consent or chosen for a user MCP token, and what a verified bearer token acts as. Shared by the authorization
 * server (`shared/oauth/`), which issues grants, and the MCP endpoint (`shared/agents/`), which checks them.
 */
export const agentScopes = [
  'docs:read',
  'merchant:create',
  'merchant:read',
  'merchant:go_live',
  'product:create',
  'product:read',
  'checkout:read',
  'checkout:write',
] as const;
export type AgentScope = (typeof agentScopes)[number];

/** What each scope allows, in the words the consent page and the token form show a person. */
export const agentScopeDescriptions: Readonly<Record<AgentScope, string>> = {
  'docs:read': 'Search the platform documentation',
  'merchant:create': 'Create sub-merchant accounts',
  'merchant:read': 'Read the merchant and its activation status',
  'merchant:go_live': 'Take the merchant live once every other activation step is done',
  'product:create': 'Create products, plans and product images',
  'product:read': 'List products',
  'checkout:read': 'Read the checkout customization',
  'checkout:write': 'Change the checkout customization and logo, and create orders',
};

export const isAgentScope = (x: unknown): x is AgentScope => (agentScopes as readonly unknown[]).includes(x);

/**
 * A verified bearer token of the MCP endpoint: who it acts as (a person, on one merchant of this deployment), with
 * what scopes, until when. `kind` says where it came from: an OAuth access token or a user MCP token.
 */
export interface AgentGrant {
  kind: 'oauth' | 'user';
  /** The token's record id (never the secret): what logs and revocation name. */
  tokenId: string;
  userId: string;
  merchantId: string;
  scopes: AgentScope[];
  /** ISO 8601: after it the token is `token_expired`. */
  expiresAt: string;
  /** The OAuth client it was issued to; null for a user MCP token. */
  clientId: string | null;
}

/** The MCP endpoint's path on every deployment, and so its OAuth resource (`<origin>/api/mcp`, RFC 8707 / RFC 9728). */
export const MCP_PATH = '/api/mcp';
