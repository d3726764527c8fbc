/**
 * `route(def, handler)` wires an HTTP function: Powertools logger/tracer/metrics, response counts, authentication,
 * the scope checks, JSON body parsing, valibot validation, the bound of the path's ids and error mapping in the
 * face's shape, all driven by the route's entry in the route table. The handler only receives what it needs and
 * returns a `Reply`.
 *
 * A handler takes `route` from the module of its route's auth kind (`auth-none.ts`, `auth-api-key.ts`,
 * `auth-session.ts`, `auth-org-api-key.ts`, `auth-account-secret.ts`, `auth-client-token.ts`, `auth-agent-token.ts`;
 * a page's from `auth-none-page.ts`, `auth-session-page.ts` or `auth-portal-session.ts`, which add the page kit of
 * `page-route.ts`), which accepts only routes of that kind and face: the function then bundles that kind's
 * authenticator and nothing of the others, a route without authentication bundles no table client at all, and only
 * a page bundles the page rendering. This module itself reads no table.
 */
import type { MiddlewareObj } from '@middy/core';
import type { GenericSchema, InferOutput } from 'valibot';
import type { AccountLink, AccountSecretPrincipal, OrgApiKeyPrincipal } from '../organizations/index.ts';
import type { Merchant, Role } from '../domain/merchants.ts';
import { idempotencyKeyHeader } from '../domain/idempotency.ts';
import { observed } from '../platform/observability.ts';
import { binaryContentTypes, type AuthKind, type Face, type RouteDef } from '../platform/http/route-def.ts';
import type { ApiKeyPrincipal, SessionPrincipal } from '../people/index.ts';
import type { ClientTokenPrincipal } from '../customers/index.ts';
import type { AgentPrincipal } from '../agents/index.ts';
import type { PortalPrincipal } from '../portal/index.ts';
import { corsHeaders } from '../platform/http/cors.ts';
import { securityHeaders } from '../platform/http/errors.ts';
import { pageOriginGuard } from '../platform/http/page-guard.ts';
import { pathParameterBounds } from '../platform/http/path-bounds.ts';
import { entityTagOf, notModified } from '../platform/http/etag.ts';
import { errorMapper, organizationIdPlacement, type PageErrorResult, requestBody, responseMetrics, validate } from '../platform/http/request-middleware.ts';
import type { HttpEvent, HttpResult, Reply } from '../platform/http/types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/**
 * Authentication and scope checks of an auth kind (`authMiddleware` in `middleware.ts`): the middleware that
 * runs before the body is read, and the one that runs after validation (the account secret, which is in the body).
 */
export interface AuthMiddleware {
  readonly beforeBody: (def: RouteDef) => Middleware[];
  readonly afterValidation: (def: RouteDef) => Middleware[];
}

type PrincipalOf<R extends RouteDef> = R['auth'] extends 'apiKey'
  ? ApiKeyPrincipal
  : R['auth'] extends 'session'
    ? SessionPrincipal
    : R['auth'] extends 'orgApiKey'
      ? OrgApiKeyPrincipal
      : R['auth'] extends 'accountSecret'
        ? AccountSecretPrincipal
        : R['auth'] extends 'clientToken'
          ? ClientTokenPrincipal
          : R['auth'] extends 'agentToken'
            ? AgentPrincipal
            : R['auth'] extends 'portalSession'
              ? PortalPrincipal
              : undefined;

type WithParam<R extends RouteDef, P extends string, T> = R['path'] extends `${string}{${P}}${string}` ? T : undefined;
/** The names of a path's `{param}` placeholders (a greedy `{proxy+}` by its name). */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? (Name extends `${infer N}+` ? N : Name) | PathParams<Rest> : never;
/** The organization of a route: named by `{organizationId}`, or on the tokenization host by `X-Organization-Id`. */
type WithOrganization<R extends RouteDef, T> = R extends { api: 'tokenization'; auth: 'orgApiKey' } ? T : WithParam<R, 'organizationId', T>;

export interface Request<R extends RouteDef> {
  body: R['body'] extends GenericSchema ? InferOutput<R['body']> : undefined;
  /** The path's parameters, by the names its `{…}` placeholders give them. */
  params: { readonly [K in PathParams<R['path']>]: string };
  query: R['query'] extends GenericSchema ? InferOutput<R['query']> : Record<string, never>;
  principal: PrincipalOf<R>;
  /** The merchant named by `{merchantId}`, already scope-checked. */
  merchant: WithParam<R, 'merchantId', Merchant>;
  /** The organization named by `{organizationId}` or `X-Organization-Id` (a merchant record), already scope-checked. */
  organization: WithOrganization<R, Merchant>;
  /** On a session route: the person's role on `merchant`. */
  role: R['auth'] extends 'session' ? WithParam<R, 'merchantId', Role> : undefined;
  /** The calling account's link to that organization. */
  link: WithOrganization<R, AccountLink>;
  /** The `Idempotency-Key` the route declares, checked (shared/domain/idempotency.ts): a required one is always there. */
  idempotencyKey: R['idempotencyKey'] extends 'required' ? string : R['idempotencyKey'] extends 'optional' ? string | undefined : undefined;
  event: HttpEvent;
}

/**
 * The Lambda result of a reply: a JSON route's body serialized, a text route's (`contentType`) string body as is.
 * Reply headers win over the defaults; a page whose own CSP lets some origin frame it (`frame-ancestors` other than
 * `'none'`) drops the default `x-frame-options: DENY`, which would forbid what the CSP allows (the CSP is then the
 * one rule on who may frame it). A page whose CSP says `frame-ancestors 'none'` keeps `DENY` as well.
 *
 * A route marked `etag` gets its success body's entity tag, and a request that already holds it (`If-None-Match`)
 * gets 304 Not Modified with the same headers and no body. A route marked `redirects` may answer 302 or 303 with an
 * absolute `Location` and no body; another route answering a redirect it does not declare is a wiring mistake.
 *
 * A text route may answer its body already compressed: bytes with `content-encoding: gzip` (for a browser whose
 * `Accept-Encoding` takes it), sent base64-encoded like a binary body.
 */
function toResult(def: RouteDef, reply: Reply, event: HttpEvent): HttpResult {
  const contentType = def.contentType ?? 'application/json';
  const json = contentType === 'application/json';
  if (binaryContentTypes.includes(contentType)) return binaryResult(def, reply, contentType);
  if (!json && reply.body instanceof Uint8Array && reply.headers?.['content-encoding'] === 'gzip') {
    return binaryResult(def, reply, `${contentType}; charset=utf-8`);
  }
  if (!json && reply.body !== undefined && typeof reply.body !== 'string') throw new Error(`${def.name} answers ${contentType}: its body must be a string`);
  if (isRedirect(reply.status) && reply.status !== def.status && (!def.redirects || reply.body !== undefined || !URL.canParse(reply.headers?.location ?? ''))) {
    throw new Error(`${def.name} answered a redirect it does not declare, or one without an absolute location`);
  }
  const body = reply.body === undefined ? undefined : json ? JSON.stringify(reply.body) : (reply.body as string);
  const tag = def.etag && reply.status === def.status && body !== undefined ? entityTagOf(body) : undefined;
  const headers: Record<string, string> = {
    ...securityHeaders(),
    ...corsHeaders(def, event.headers?.origin),
    ...(body === undefined ? {} : { 'content-type': json ? contentType : `${contentType}; charset=utf-8` }),
    ...(tag ? { etag: tag } : {}),
    ...reply.headers,
  };
  if (framedBy(headers['content-security-policy'])) delete headers['x-frame-options'];
  if (tag && notModified(event.headers['if-none-match'], tag)) {
    delete headers['content-type'];
    return { statusCode: 304, headers };
  }
  return {
    statusCode: reply.status,
    headers,
    ...(reply.cookies ? { cookies: reply.cookies } : {}),
    ...(body === undefined ? {} : { body }),
  };
}

const isRedirect = (status: number) => status === 302 || status === 303;

/** Whether a CSP lets some origin frame the page: its `frame-ancestors` names sources other than `'none'` (none at all is `'none'`). */
function framedBy(csp: string | undefined): boolean {
  const directive = (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name?.toLowerCase() === 'frame-ancestors');
  const sources = directive?.slice(1) ?? [];
  return sources.length > 0 && !(sources.length === 1 && sources[0]!.toLowerCase() === "'none'");
}

/** A binary route's result (or a compressed text body's): its bytes base64-encoded (`isBase64Encoded`, decoded by API Gateway). */
function binaryResult(def: RouteDef, reply: Reply, contentType: string): HttpResult {
  if (reply.body !== undefined && !(reply.body instanceof Uint8Array)) throw new Error(`${def.name} answers ${contentType}: its body must be bytes`);
  return {
    statusCode: reply.status,
    headers: {
      ...securityHeaders(),
      ...corsHeaders(def),
      ...(reply.body === undefined ? {} : { 'content-type': contentType }),
      ...reply.headers,
    },
    ...(reply.body === undefined ? {} : { body: Buffer.from(reply.body).toString('base64'), isBase64Encoded: true }),
  };
}

/** A route handler of the route `R`. */
export type RouteHandler<R extends RouteDef> = (req: Request<R>) => Promise<Reply> | Reply;

/**
 * What a page's wiring adds (`page-route.ts`): the CSRF token check of its forms and its error pages. A function of
 * another face is wired without it and carries neither.
 */
export interface PageKit {
  readonly csrfGuard: (def: RouteDef) => Middleware;
  readonly errorResult: PageErrorResult;
}

/**
 * The `route()` of one auth kind: `auth` is that kind's authentication and scope middleware (null for routes that
 * authenticate nothing), and the routes it takes are only those of kind `K`, of any face but `page` (a page takes
 * the `route()` of `page-route.ts`'s kit).
 */
export const routeOfKind =
  <K extends AuthKind>(auth: AuthMiddleware | null) =>
  <const R extends RouteDef & { readonly auth: K; readonly face: Exclude<Face, 'page'> }>(def: R, handler: RouteHandler<R>) =>
    wire(def, handler, auth, null);

/** The `Idempotency-Key` header of a route that declares one, checked; 400 when it is malformed, or missing and required. */
const idempotencyKeyOf = (def: RouteDef, event: HttpEvent): string | undefined =>
  def.idempotencyKey === undefined
    ? undefined
    : def.idempotencyKey === 'required'
      ? idempotencyKeyHeader(event.headers['idempotency-key'], { what: 'This operation' })
      : idempotencyKeyHeader(event.headers['idempotency-key']);

/** Wires a route's function; a `page` route only with the page kit (else it throws at cold start). */
export function wire<R extends RouteDef>(def: R, handler: RouteHandler<R>, auth: AuthMiddleware | null, page: PageKit | null) {
  if ((def.face === 'page') !== (page !== null))
    throw new Error(`${def.name}: a page is wired with the page kit (shared/access/page-route.ts), any other route without it`);
  const fn = observed<HttpEvent, HttpResult>().use(responseMetrics()).use(organizationIdPlacement(def)).use(pageOriginGuard(def));
  for (const m of auth?.beforeBody(def) ?? []) fn.use(m);
  if (page) fn.use(page.csrfGuard(def));
  fn.use(requestBody(def)).use(validate(def));
  for (const m of auth?.afterValidation(def) ?? []) fn.use(m);
  return fn
    .use(pathParameterBounds(def))
    .use(errorMapper(def, page?.errorResult))
    .handler(async (event) =>
      toResult(
        def,
        await handler({
          body: event.parsedBody as Request<R>['body'],
          params: (event.pathParameters ?? {}) as Request<R>['params'],
          query: (event.parsedQuery ?? {}) as Request<R>['query'],
          principal: event.principal as PrincipalOf<R>,
          merchant: event.merchant as Request<R>['merchant'],
          organization: event.organization as Request<R>['organization'],
          link: event.link as Request<R>['link'],
          role: event.role as Request<R>['role'],
          idempotencyKey: idempotencyKeyOf(def, event) as Request<R>['idempotencyKey'],
          event,
        }),
        event,
      ),
    );
}
