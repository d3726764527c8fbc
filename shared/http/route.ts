/**
 * `route(def, handler)` wires an HTTP function: Powertools logger/tracer/metrics, response counts, authentication, the merchant
 * scope check, JSON body parsing, valibot validation and error mapping, all driven by the route's entry in
 * the route table. The handler only receives what it needs and returns a `Reply`.
 */
import type { GenericSchema, InferOutput } from 'valibot';
import type { RouteDef } from '../../infra/routes.ts';
import type { Merchant } from '../domain/merchants.ts';
import { observed } from '../observability.ts';
import type { ApiKeyPrincipal } from '../services/api-keys.ts';
import type { SessionPrincipal } from '../services/people.ts';
import { authenticate, errorMapper, jsonBody, merchantScope, responseMetrics, validate } from './middleware.ts';
import type { HttpEvent, HttpResult, Reply } from './types.ts';

type PrincipalOf<R extends RouteDef> =
  R['auth'] extends 'apiKey' ? ApiKeyPrincipal : R['auth'] extends 'session' ? SessionPrincipal : undefined;

export interface Request<R extends RouteDef> {
  body: R['body'] extends GenericSchema ? InferOutput<R['body']> : undefined;
  params: Record<string, string>;
  query: R['query'] extends GenericSchema ? InferOutput<R['query']> : Record<string, string>;
  principal: PrincipalOf<R>;
  /** The merchant named by `{merchantId}`, already scope-checked. */
  merchant: R['path'] extends `${string}{merchantId}${string}` ? Merchant : undefined;
  event: HttpEvent;
}

function toResult(reply: Reply): HttpResult {
  return {
    statusCode: reply.status,
    headers: { 'cache-control': 'no-store', ...(reply.body === undefined ? {} : { 'content-type': 'application/json' }), ...reply.headers },
    ...(reply.cookies ? { cookies: reply.cookies } : {}),
    ...(reply.body === undefined ? {} : { body: JSON.stringify(reply.body) }),
  };
}

export function route<const R extends RouteDef>(def: R, handler: (req: Request<R>) => Promise<Reply> | Reply) {
  return observed<HttpEvent, HttpResult>()
    .use(responseMetrics())
    .use(authenticate(def))
    .use(merchantScope(def))
    .use(jsonBody(def))
    .use(validate(def))
    .use(errorMapper())
    .handler(async (event) => toResult(await handler({
      body: event.parsedBody as Request<R>['body'],
      params: (event.pathParameters ?? {}) as Record<string, string>,
      query: (event.parsedQuery ?? event.queryStringParameters ?? {}) as Request<R>['query'],
      principal: event.principal as PrincipalOf<R>,
      merchant: event.merchant as Request<R>['merchant'],
      event,
    })));
}
