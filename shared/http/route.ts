/**
 * `route(def, handler)` wires an HTTP function: Powertools logger/tracer/metrics, response counts, authentication,
 * the scope checks, JSON body parsing, valibot validation and error mapping in the face's shape, all driven by the
 * route's entry in the route table. The handler only receives what it needs and returns a `Reply`.
 */
import type { GenericSchema, InferOutput } from 'valibot';
import type { AccountLink } from '../db/accounts.ts';
import type { Merchant } from '../domain/merchants.ts';
import { observed } from '../observability.ts';
import type { RouteDef } from '../routes/types.ts';
import type { AccountSecretPrincipal, OrgApiKeyPrincipal } from '../services/accounts.ts';
import type { ApiKeyPrincipal } from '../services/api-keys.ts';
import type { SessionPrincipal } from '../services/people.ts';
import { securityHeaders } from './errors.ts';
import { accountSecret, authenticate, errorMapper, jsonBody, merchantScope, organizationScope, responseMetrics, validate } from './middleware.ts';
import type { HttpEvent, HttpResult, Reply } from './types.ts';

type PrincipalOf<R extends RouteDef> =
  R['auth'] extends 'apiKey' ? ApiKeyPrincipal
    : R['auth'] extends 'session' ? SessionPrincipal
      : R['auth'] extends 'orgApiKey' ? OrgApiKeyPrincipal
        : R['auth'] extends 'accountSecret' ? AccountSecretPrincipal
          : undefined;

type WithParam<R extends RouteDef, P extends string, T> = R['path'] extends `${string}{${P}}${string}` ? T : undefined;

export interface Request<R extends RouteDef> {
  body: R['body'] extends GenericSchema ? InferOutput<R['body']> : undefined;
  params: Record<string, string>;
  query: R['query'] extends GenericSchema ? InferOutput<R['query']> : Record<string, never>;
  principal: PrincipalOf<R>;
  /** The merchant named by `{merchantId}`, already scope-checked. */
  merchant: WithParam<R, 'merchantId', Merchant>;
  /** The organization named by `{organizationId}` (a merchant record), already scope-checked. */
  organization: WithParam<R, 'organizationId', Merchant>;
  /** The calling account's link to that organization. */
  link: WithParam<R, 'organizationId', AccountLink>;
  event: HttpEvent;
}

function toResult(reply: Reply): HttpResult {
  return {
    statusCode: reply.status,
    headers: { ...securityHeaders(), ...(reply.body === undefined ? {} : { 'content-type': 'application/json' }), ...reply.headers },
    ...(reply.cookies ? { cookies: reply.cookies } : {}),
    ...(reply.body === undefined ? {} : { body: JSON.stringify(reply.body) }),
  };
}

export function route<const R extends RouteDef>(def: R, handler: (req: Request<R>) => Promise<Reply> | Reply) {
  return observed<HttpEvent, HttpResult>()
    .use(responseMetrics())
    .use(authenticate(def))
    .use(merchantScope(def))
    .use(organizationScope(def))
    .use(jsonBody(def))
    .use(validate(def))
    .use(accountSecret(def))
    .use(errorMapper(def))
    .handler(async (event) => toResult(await handler({
      body: event.parsedBody as Request<R>['body'],
      params: (event.pathParameters ?? {}) as Record<string, string>,
      query: (event.parsedQuery ?? {}) as Request<R>['query'],
      principal: event.principal as PrincipalOf<R>,
      merchant: event.merchant as Request<R>['merchant'],
      organization: event.organization as Request<R>['organization'],
      link: event.link as Request<R>['link'],
      event,
    })));
}
