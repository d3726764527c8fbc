/**
 * The middleware of every HTTP function, in the order `route()` uses them:
 * authenticate → merchant scope → JSON body → validation → (handler) → error mapping.
 */
import type { MiddlewareObj } from '@middy/core';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { RouteDef } from '../../infra/routes.ts';
import { getMembership } from '../db/memberships.ts';
import { getMerchant } from '../db/merchants.ts';
import { BadRequestError, DomainError, ForbiddenError, UnauthorizedError } from '../domain/errors.ts';
import { isMerchantId, keyReaches } from '../domain/merchants.ts';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../observability.ts';
import { authenticateApiKey } from '../services/api-keys.ts';
import { authenticateSession } from '../services/people.ts';
import type { HttpEvent, HttpResult } from './types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

export const authenticate = (route: RouteDef): Middleware => ({
  before: async ({ event }) => {
    if (route.auth === 'apiKey') event.principal = await authenticateApiKey(event.headers.authorization);
    if (route.auth === 'session') event.principal = await authenticateSession(event.headers.authorization, event.cookies ?? []);
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
    if (route.query) event.parsedQuery = check(route.query, event.queryStringParameters ?? {}, 'request.invalid_query', '(query)');
    if (route.body) event.parsedBody = check(route.body, event.parsedBody, 'request.validation_failed', '(body)');
  },
});

function check(schema: GenericSchema, input: unknown, code: string, whole: string): unknown {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => ({
    field: v.getDotPath(issue) ?? whole,
    message: issue.type === 'strict_object' && issue.expected === 'never' ? 'is not a field of this request' : issue.message,
  }));
  const [first] = issues;
  throw new BadRequestError(code, `${first!.field}: ${first!.message}`, { issues });
}

const errorBody = (status: number, code: string, message: string, details: Record<string, unknown>) =>
  JSON.stringify({ statusCode: status, code, message, details });

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

/** Maps errors to the face's error body `{ statusCode, code, message, details }`; anything unexpected is a 500. */
export const errorMapper = (): Middleware => ({
  onError: (request) => {
    const error = request.error;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (error instanceof DomainError) {
      logger.info('request refused', { status: error.status, code: error.code });
      if (error instanceof UnauthorizedError) headers['www-authenticate'] = 'Bearer';
      request.response = { statusCode: error.status, headers, body: errorBody(error.status, error.code, error.message, error.details) };
      return;
    }
    logger.error('request failed', error as Error);
    request.response = { statusCode: 500, headers, body: errorBody(500, 'internal_error', 'Something went wrong on our side.', {}) };
  },
});
