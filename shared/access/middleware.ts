/**
 * The middleware of every HTTP function, in the order `wire()` (./route.ts) uses them: response metrics → where the
 * organization id is (organization face) → the page origin guard → authenticate and scope (merchant, organization,
 * account) → the CSRF check (pages) → body → validation → account secret → path-id bounds → error mapping in the
 * face's shape → (handler).
 * Here: authentication and the scope checks; the rest needs no table and is in `request-middleware.ts`. A route's
 * function is given only its own auth kind's authenticator (`auth-*.ts`), so it bundles none of the others.
 */
import type { MiddlewareObj } from '@middy/core';
import {
  getAccountLink,
  listAccountLinksOfAccount,
  type AccountLink,
  type AccountSecretPrincipal,
  type authenticateAccountSecret,
  type authenticateOrgApiKey,
  type OrgApiKeyPrincipal,
} from '../organizations/index.ts';
import { getMembership, getMerchant, type ApiKeyPrincipal, type authenticateApiKey, type authenticateSession, type SessionPrincipal } from '../people/index.ts';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../domain/errors.ts';
import { isMerchantId, keyReaches, type Merchant } from '../domain/merchants.ts';
import { isUuid } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import type { authenticateClientToken, ClientTokenPrincipal } from '../customers/index.ts';
import type { AgentPrincipal, authenticateAgentRequest } from '../agents/index.ts';
import type { authenticatePortalSession, PortalPrincipal } from '../portal/index.ts';
import { ORGANIZATION_ID_HEADER } from '../platform/http/request-middleware.ts';
import type { AuthMiddleware } from './route.ts';
import type { HttpEvent, HttpResult } from '../platform/http/types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/** Who can call: what each auth kind's authenticator answers. */
export type Principal =
  | ApiKeyPrincipal
  | SessionPrincipal
  | OrgApiKeyPrincipal
  | AccountSecretPrincipal
  | ClientTokenPrincipal
  | AgentPrincipal
  | PortalPrincipal;

/** The request's principal as its route's authentication set it. */
const principalOf = (event: HttpEvent) => event.principal as Principal | undefined;

/** The authenticator of each auth kind; a function holds only its routes' kind's (see `auth-*.ts`). */
export interface Authenticators {
  readonly apiKey?: typeof authenticateApiKey;
  readonly session?: typeof authenticateSession;
  readonly orgApiKey?: typeof authenticateOrgApiKey;
  readonly clientToken?: typeof authenticateClientToken;
  readonly accountSecret?: typeof authenticateAccountSecret;
  readonly agentToken?: typeof authenticateAgentRequest;
  readonly portalSession?: typeof authenticatePortalSession;
}

/** The authenticator of `kind`; a route whose kind's authenticator its function was not given is a wiring mistake. */
function authenticatorOf<K extends keyof Authenticators>(authenticators: Authenticators, kind: K): NonNullable<Authenticators[K]> {
  const authenticator = authenticators[kind];
  if (!authenticator) throw new Error(`This function has no ${kind} authenticator`);
  return authenticator;
}

/**
 * The authentication and scope middleware of a route, with the given authenticators: before the body is read,
 * the credentials in headers and the merchant and organization scopes; after validation, the account secret.
 */
export const authMiddleware = (authenticators: Authenticators): AuthMiddleware => ({
  beforeBody: (route) => [authenticate(route, authenticators), merchantScope(route), organizationScope(route)],
  afterValidation: (route) => [accountSecret(route, authenticators)],
});

/**
 * Credentials sent in headers: merchant keys, sessions, organization keys, hosted-fields client tokens (the
 * frame names the page it is mounted on in `X-Hosted-Fields-Origin`; its scope is the token's organization) and an
 * agent's bearer token on the MCP endpoint (whose request is checked first: its origin and protocol version; the
 * token then names its merchant, read with it).
 */
export const authenticate = (route: RouteDef, authenticators: Authenticators): Middleware => ({
  before: async ({ event }) => {
    if (route.auth === 'apiKey') {
      // A merchant's path: its merchant is read with the key in one call, and the scope check uses that read.
      const merchantId = merchantIdOfPath(route, event);
      const { principal, merchant } = await authenticatorOf(authenticators, 'apiKey')(event.headers.authorization, merchantId);
      event.principal = principal;
      if (merchantId !== undefined) readWithKey.set(event, { id: merchantId, merchant: merchant ?? null });
    }
    if (route.auth === 'session') event.principal = await authenticatorOf(authenticators, 'session')(event.headers.authorization, event.cookies ?? []);
    if (route.auth === 'orgApiKey') event.principal = await authenticatorOf(authenticators, 'orgApiKey')(event.headers.authorization);
    if (route.auth === 'clientToken') {
      event.principal = await authenticatorOf(authenticators, 'clientToken')(event.headers.authorization, event.headers['x-hosted-fields-origin']);
    }
    if (route.auth === 'agentToken') event.principal = await authenticatorOf(authenticators, 'agentToken')(event);
    if (route.auth === 'portalSession') event.principal = await authenticatorOf(authenticators, 'portalSession')(event.cookies ?? []);
  },
});

/** The well-formed `{merchantId}` of a merchant's path, or undefined (the scope check then refuses it). */
const merchantIdOfPath = (route: RouteDef, event: HttpEvent): string | undefined => {
  const merchantId = route.path.includes('{merchantId}') ? event.pathParameters?.merchantId : undefined;
  return merchantId && isMerchantId(merchantId) ? merchantId : undefined;
};

/** The path's merchant as read together with a merchant key (null: not found), for the scope check to use. */
const readWithKey = new WeakMap<HttpEvent, { id: string; merchant: Merchant | null }>();

/**
 * The scope check of every route with a `{merchantId}`: a key reaches its own merchant and its sub-merchants;
 * a person reaches the merchants they are a member of; a customer's portal session reaches its own merchant only.
 * Unknown and foreign ids get the same 403.
 */
export const merchantScope = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    const merchantId = event.pathParameters?.merchantId;
    if (!route.path.includes('{merchantId}') || !event.principal) return;
    if (!merchantId || !isMerchantId(merchantId)) throw new ForbiddenError();
    const principal = principalOf(event)!;
    const read = readWithKey.get(event);
    const [merchant, membership] = await Promise.all([
      read?.id === merchantId ? read.merchant : getMerchant(merchantId),
      principal.kind === 'session' ? getMembership(merchantId, principal.userId) : null,
    ]);
    const allowed =
      merchant &&
      (principal.kind === 'apiKey'
        ? keyReaches(principal.merchantId, merchant)
        : principal.kind === 'portalSession'
          ? principal.merchantId === merchant.id
          : membership !== null);
    if (!allowed) throw new ForbiddenError();
    if (route.roles && membership && !route.roles.includes(membership.role)) {
      throw new ForbiddenError(`This needs the role ${route.roles.join(' or ')} on this merchant.`);
    }
    event.merchant = merchant;
    if (membership) event.role = membership.role;
  },
});

/** `/accounts/{accountId}/…`: an account's own routes (elsewhere an `{accountId}` names another linked account). */
const isAccountPath = (route: RouteDef) => route.path.startsWith('/api/v1/public-api/accounts/{accountId}');

/**
 * The scope check of the organization face: `{organizationId}` (on the tokenization host: the `X-Organization-Id`
 * header, which must be there) must be an organization the calling account is linked to (one read of the link,
 * one of the organization, at once), and the `{accountId}` of an account's own routes must be the calling
 * account. An organization that does not exist, one the account is not linked to and (on the host) a missing
 * header get the same 403 body, so ids cannot be probed.
 */
export const organizationScope = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    const principal = principalOf(event);
    if (principal?.kind !== 'orgApiKey') return;
    if (isAccountPath(route) && event.pathParameters?.accountId !== principal.accountId) throw new ForbiddenError();
    const onHost = route.api === 'tokenization';
    if (!onHost && !route.path.includes('{organizationId}')) return;
    const organizationId = onHost ? event.headers[ORGANIZATION_ID_HEADER] : event.pathParameters?.organizationId;
    const scope = await organizationInScope(principal.accountId, organizationId);
    event.organization = scope.organization;
    event.link = scope.link;
  },
});

/**
 * The organization `organizationId` and the account's link to it, when the account may act for it: linked to it,
 * and of this deployment's mode. Anything else — a malformed id, an organization that does not exist, one the
 * account is not linked to — is the same 403, so ids cannot be probed. The one scope check of the organization
 * face, wherever the id comes from (path, header or body).
 */
export async function organizationInScope(accountId: string, organizationId: string | undefined): Promise<{ organization: Merchant; link: AccountLink }> {
  if (!organizationId || !isMerchantId(organizationId)) throw new ForbiddenError();
  const [organization, link] = await Promise.all([getMerchant(organizationId), getAccountLink(organizationId, accountId)]);
  if (!organization || !link || organization.mode !== config.mode) throw new ForbiddenError();
  return { organization, link };
}

/**
 * For organization-face routes that take the organization in the body (`POST /api/transactions`): the
 * `organizationId` given, scope-checked like a path's; without one, the one organization the account is linked
 * to (one Query of at most two of its links). An account linked to several must name one (400
 * `request.organization_id_required`); an account linked to none gets the scope's 403.
 */
export async function organizationOfBody(
  principal: OrgApiKeyPrincipal,
  organizationId: string | undefined,
): Promise<{ organization: Merchant; link: AccountLink }> {
  if (organizationId !== undefined) return organizationInScope(principal.accountId, organizationId);
  // Two links say "several": however many organizations the account has, one page of two is read.
  const links = await listAccountLinksOfAccount(principal.accountId, 2);
  if (links.length > 1) {
    throw new BadRequestError('request.organization_id_required', 'This account is linked to several organizations: name one in organizationId.');
  }
  return organizationInScope(principal.accountId, links[0]?.organizationId);
}

/** Account routes that exist before any key: the body's `secret` must be `{accountId}`'s secret. */
export const accountSecret = (route: RouteDef, authenticators: Authenticators): Middleware => ({
  before: async ({ event }) => {
    if (route.auth !== 'accountSecret') return;
    const secret = (event.parsedBody as { secret?: unknown } | undefined)?.secret;
    const accountId = event.pathParameters?.accountId ?? '';
    if (typeof secret !== 'string' || !isUuid(accountId)) throw new UnauthorizedError('auth.invalid_secret', 'The account id or secret is wrong.');
    event.principal = await authenticatorOf(authenticators, 'accountSecret')(accountId, secret, event.requestContext?.http?.sourceIp);
  },
});
