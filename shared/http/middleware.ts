/**
 * The middleware of every HTTP function, in the order `route()` uses them:
 * where the organization id is (organization face) → authenticate → scope (merchant, organization, account) →
 * JSON body → validation → account secret → (handler) → error mapping in the face's shape.
 */
import type { MiddlewareObj } from '@middy/core';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { getAccountLink, listAccountLinksOfAccount, type AccountLink } from '../db/accounts.ts';
import { getMembership } from '../db/memberships.ts';
import { getMerchant } from '../db/merchants.ts';
import { BadRequestError, DomainError, ForbiddenError, UnauthorizedError } from '../domain/errors.ts';
import { isMerchantId, keyReaches, type Merchant } from '../domain/merchants.ts';
import { isUuid } from '../domain/secrets.ts';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../config.ts';
import { logger, metrics } from '../observability.ts';
import type { RouteDef } from '../routes/types.ts';
import { authenticateAccountSecret, authenticateOrgApiKey, type OrgApiKeyPrincipal } from '../services/accounts.ts';
import { authenticateApiKey } from '../services/api-keys.ts';
import { authenticateClientToken } from '../services/client-tokens.ts';
import { authenticateSession } from '../services/people.ts';
import { corsHeaders } from './cors.ts';
import { errorBody, securityHeaders } from './errors.ts';
import type { HttpEvent, HttpResult } from './types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/**
 * Credentials sent in headers: merchant keys, sessions, organization keys and hosted-fields client tokens (the
 * frame names the page it is mounted on in `X-Hosted-Fields-Origin`; its scope is the token's organization).
 */
export const authenticate = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    if (route.auth === 'apiKey') event.principal = await authenticateApiKey(event.headers.authorization);
    if (route.auth === 'session') event.principal = await authenticateSession(event.headers.authorization, event.cookies ?? []);
    if (route.auth === 'orgApiKey') event.principal = await authenticateOrgApiKey(event.headers.authorization);
    if (route.auth === 'clientToken') {
      event.principal = await authenticateClientToken(event.headers.authorization, event.headers['x-hosted-fields-origin']);
    }
  },
});

/**
 * The scope check of every route with a `{merchantId}`: a key reaches its own merchant and its sub-merchants;
 * a person reaches the merchants they are a member of. Unknown and foreign ids get the same 403.
 */
export const merchantScope = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    const merchantId = event.pathParameters?.merchantId;
    if (!route.path.includes('{merchantId}') || !event.principal) return;
    if (!merchantId || !isMerchantId(merchantId)) throw new ForbiddenError();
    const principal = event.principal;
    const [merchant, membership] = await Promise.all([
      getMerchant(merchantId),
      principal.kind === 'session' ? getMembership(merchantId, principal.userId) : null,
    ]);
    const allowed = merchant && (principal.kind === 'apiKey' ? keyReaches(principal.merchantId, merchant) : membership !== null);
    if (!allowed) throw new ForbiddenError();
    if (route.roles && membership && !route.roles.includes(membership.role)) {
      throw new ForbiddenError(`This needs the role ${route.roles.join(' or ')} on this merchant.`);
    }
    event.merchant = merchant;
  },
});

/** The header that names the organization on the production tokenization host, and only there. */
export const ORGANIZATION_ID_HEADER = 'x-organization-id';

/** 400 `request.organization_id_misplaced`: an `X-Organization-Id` header on the public API, or an organization id in a path on the tokenization host. */
export const organizationIdMisplaced = {
  header: () => new BadRequestError('request.organization_id_misplaced',
    'The public API takes the organization id in the path; send no X-Organization-Id header.'),
  path: () => new BadRequestError('request.organization_id_misplaced',
    'The tokenization host takes the organization id in the X-Organization-Id header, not in the path: POST /tokens.'),
};

/**
 * The two ways of naming the organization never mix: the public API takes it in the path and refuses an
 * `X-Organization-Id` header; the tokenization host takes it in that header and refuses it in the path (its
 * routes for such paths exist only to say so). Checked before anything else, credentials included.
 */
export const organizationIdPlacement = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    if (route.face !== 'organization') return;
    if ((route.api ?? 'main') === 'main') {
      if (event.headers[ORGANIZATION_ID_HEADER] !== undefined) throw organizationIdMisplaced.header();
    } else if (route.path.includes('/organizations/')) {
      throw organizationIdMisplaced.path();
    }
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
    const principal = event.principal;
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
 * to (one Query of its links). An account linked to several must name one (400
 * `request.organization_id_required`); an account linked to none gets the scope's 403.
 */
export async function organizationOfBody(principal: OrgApiKeyPrincipal, organizationId: string | undefined): Promise<{ organization: Merchant; link: AccountLink }> {
  if (organizationId !== undefined) return organizationInScope(principal.accountId, organizationId);
  const links = await listAccountLinksOfAccount(principal.accountId);
  if (links.length > 1) {
    throw new BadRequestError('request.organization_id_required', 'This account is linked to several organizations: name one in organizationId.');
  }
  return organizationInScope(principal.accountId, links[0]?.organizationId);
}

const isJson = (contentType: string | undefined) => !contentType || /^application\/([\w.+-]*\+)?json\b/i.test(contentType);

export const jsonBody = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    if (!route.body) return;
    if (!isJson(event.headers['content-type'])) {
      throw new DomainError(415, 'request.unsupported_media_type', 'Send the body as application/json.');
    }
    const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    if (!raw) throw new BadRequestError('request.body_required', 'This request needs a JSON body.');
    try {
      event.parsedBody = JSON.parse(raw);
    } catch {
      throw new BadRequestError('request.malformed_json', 'The body is not valid JSON.');
    }
  },
});

/** valibot validation of the query string and the parsed body; the 400 names every bad field. */
export const validate = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    event.parsedQuery = check(route.query ?? noQuery, event.queryStringParameters ?? {}, 'request.invalid_query', 'query');
    if (route.body) event.parsedBody = check(route.body, event.parsedBody, 'request.validation_failed', 'body');
  },
});

/** Routes without a query schema take no query parameters. */
const noQuery = v.strictObject({});

/** A field name that is safe to repeat in a message; anything else is not echoed back. */
const safeName = /^[A-Za-z0-9_.[\]-]{1,64}$/;

function check(schema: GenericSchema, input: unknown, code: string, where: 'query' | 'body'): unknown {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => {
    const path = v.getDotPath(issue);
    const unknownKey = issue.type === 'strict_object' && issue.expected === 'never';
    const field = path && safeName.test(path) ? path : `(${where})`;
    const message = unknownKey
      ? (field === `(${where})` ? `has an unknown ${where === 'query' ? 'query parameter' : 'field'}` : `is not a ${where === 'query' ? 'query parameter' : 'field'} of this request`)
      // valibot's default messages end with what was received; the request's own text is never repeated.
      : issue.message.replace(/ but received .*$/s, '');
    return { field, message };
  });
  const [first] = issues;
  throw new BadRequestError(code, `${first!.field}: ${first!.message}`, { issues });
}

/** Account routes that exist before any key: the body's `secret` must be `{accountId}`'s secret. */
export const accountSecret = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    if (route.auth !== 'accountSecret') return;
    const secret = (event.parsedBody as { secret?: unknown } | undefined)?.secret;
    const accountId = event.pathParameters?.accountId ?? '';
    if (typeof secret !== 'string') throw new UnauthorizedError('auth.invalid_secret', 'The account id or secret is wrong.');
    if (!isUuid(accountId)) throw new UnauthorizedError('auth.invalid_secret', 'The account id or secret is wrong.');
    event.principal = await authenticateAccountSecret(accountId, secret, event.requestContext?.http?.sourceIp);
  },
});

/** Counts responses by status class (`2xx`, `4xx`, `5xx`, …) as a metric. */
export const responseMetrics = (): Middleware => {
  // Middleware hooks must return nothing: middy takes a returned value as the response.
  const count = (status: number | undefined): void => {
    metrics.addMetric(`${Math.floor((status ?? 500) / 100)}xx`, MetricUnit.Count, 1);
  };
  return {
    after: ({ response }) => { count(response?.statusCode); },
    onError: ({ response }) => { count(response?.statusCode); },
  };
};

/** Maps errors to the face's error body; anything unexpected is a 500 that says nothing about why. */
export const errorMapper = (route: RouteDef): Middleware => ({
  onError: (request) => {
    const error = request.error;
    const headers: Record<string, string> = { ...securityHeaders(), ...corsHeaders(route.face), 'content-type': 'application/json' };
    if (error instanceof DomainError) {
      logger.info('request refused', { status: error.status, code: error.code });
      if (error instanceof UnauthorizedError) headers['www-authenticate'] = route.auth === 'orgApiKey' ? 'ApiKey' : 'Bearer';
      if (error.headers) Object.assign(headers, error.headers);
      request.response = { statusCode: error.status, headers, body: errorBody(route.face, error.status, error.code, error.message, error.details) };
      return;
    }
    logger.error('request failed', error as Error);
    request.response = { statusCode: 500, headers, body: errorBody(route.face, 500, 'internal_error', 'Something went wrong on our side.') };
  },
});
