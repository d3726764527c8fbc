/**
 * The middleware of every HTTP function that needs no credentials and no table: where the organization id is
 * (organization face), the body (its media type, JSON or a form, and the body rule: an object), validation (with the text
 * rule of `text-rule.ts`), response counts and error mapping in the face's shape. Nothing
 * here reads the table, so a route without authentication (`auth-none.ts`) bundles no DynamoDB client; the
 * authentication and scope middleware are in `middleware.ts`.
 */
import type { MiddlewareObj } from '@middy/core';
import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { BadRequestError, DomainError, UnauthorizedError } from '../../domain/errors.ts';
import { logger, metrics } from '../observability.ts';
import type { BodyType, RouteDef } from './route-def.ts';
import { corsHeaders } from './cors.ts';
import { errorBody, securityHeaders } from './errors.ts';
import { isTableBusy } from '../db/busy.ts';
import { MAX_DEPTH, nestedDeeperThan, textIssues } from './text-rule.ts';
import type { HttpEvent, HttpResult } from './types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/** The header that names the organization on the production tokenization host, and only there. */
export const ORGANIZATION_ID_HEADER = 'x-organization-id';

/** 400 `request.organization_id_misplaced`: an `X-Organization-Id` header on the public API, or an organization id in a path on the tokenization host. */
const misplaced = (message: string) => () => new BadRequestError('request.organization_id_misplaced', message);
export const organizationIdMisplaced = {
  header: misplaced('The public API takes the organization id in the path; send no X-Organization-Id header.'),
  path: misplaced('The tokenization host takes the organization id in the X-Organization-Id header, not in the path: POST /tokens.'),
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

/** `application/json`, or any `application/…+json`, with or without parameters. */
export const isJson = (contentType: string) => /^application\/([\w.+-]*\+)?json\b/i.test(contentType);

/** `application/x-www-form-urlencoded`, with or without parameters (`; charset=UTF-8`). */
const isForm = (contentType: string) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);

/** How each request media type is recognized, named in refusals, and parsed into the object the schema reads. */
const bodyParsers = {
  'application/json': { accepts: isJson, noun: 'JSON', parse: parseJsonObject },
  'application/x-www-form-urlencoded': { accepts: isForm, noun: 'form', parse: parseForm },
} as const satisfies Record<BodyType, { accepts: (contentType: string) => boolean; noun: string; parse: (text: string) => Record<string, unknown> }>;

/**
 * The body of a route that takes one, in its media type (`bodyType`, JSON by default): 415
 * `request.unsupported_media_type` for a body of another media type or a body without `Content-Type`; 400
 * `request.body_required` without a body (and with no `Content-Type`, or the route's); 400 `request.malformed_json`
 * (`request.malformed_form`) for a body that is not UTF-8 JSON (form); 400 `request.too_deep` for a JSON body nested
 * deeper than `MAX_DEPTH`; then the body rule.
 */
export const requestBody = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    if (!route.body) return;
    const mediaType = route.bodyType ?? 'application/json';
    const parser = bodyParsers[mediaType];
    const contentType = event.headers['content-type'];
    if (contentType ? !parser.accepts(contentType) : Boolean(event.body)) {
      throw new DomainError(
        415,
        'request.unsupported_media_type',
        `Send the body as ${mediaType}${contentType ? '' : `, with a Content-Type: ${mediaType} header`}.`,
      );
    }
    if (!event.body) throw new BadRequestError('request.body_required', `This request needs a ${parser.noun} body.`);
    event.parsedBody = parser.parse(utf8Text(event, parser.noun));
  },
});

/** A JSON body that must be nested no deeper than `MAX_DEPTH` (the depth rule), then be an object (the body rule). */
function parseJsonObject(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequestError('request.malformed_json', 'The body is not valid JSON.');
  }
  if (nestedDeeperThan(parsed)) throw tooDeep('body');
  if (!isJsonObject(parsed)) throw notAnObject();
  return parsed;
}

/**
 * A form body (`a=1&b=x+y&b=z`): each name's value, decoded (`+` is a space), or the list of its values when it
 * is sent more than once (`{ a: '1', b: ['x y', 'z'] }`); the route's schema decides whether a list is allowed.
 * Names are own properties, never the prototype (`__proto__` is a name like any other). A line break is a newline:
 * browsers send a textarea's as CRLF.
 */
function parseForm(raw: string): Record<string, unknown> {
  if (/%(?![0-9a-f]{2})/i.test(raw)) throw new BadRequestError('request.malformed_form', 'The body is not a valid form: a % must start a %XX escape.');
  const values = new Map<string, string | string[]>();
  for (const [name, sent] of new URLSearchParams(raw)) {
    // An escape of bytes that are not UTF-8 (`%FF`) decodes to U+FFFD, as such bytes sent raw do: refused alike.
    if ((name + sent).includes('\uFFFD')) throw notUtf8('form');
    const value = sent.replace(/\r\n?/g, '\n');
    const before = values.get(name);
    values.set(name, before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value]);
  }
  return Object.fromEntries(values);
}

/**
 * The request's body as text (empty without one), as `requestBody` reads it (400 when it is not UTF-8), for a handler
 * that reads its body itself (the MCP endpoint's JSON-RPC messages).
 */
export const bodyText = (event: HttpEvent): string => (event.body ? utf8Text(event, 'JSON') : '');

/**
 * The body as UTF-8 text: a base64 one (API Gateway encodes every body whose media type it does not take for text)
 * decoded. A byte that is not UTF-8 has become U+FFFD on its way here — API Gateway's decoding of a text body, or this
 * one's — so a body holding U+FFFD is refused as not UTF-8 (a JSON string may still write it `\uFFFD`). A BOM is kept,
 * as JSON.parse refuses it.
 */
function utf8Text(event: HttpEvent, noun: 'JSON' | 'form'): string {
  const text = event.isBase64Encoded ? Buffer.from(event.body!, 'base64').toString() : event.body!;
  if (text.includes('\uFFFD')) throw notUtf8(noun);
  return text;
}

const notUtf8 = (noun: 'JSON' | 'form') =>
  new BadRequestError(noun === 'JSON' ? 'request.malformed_json' : 'request.malformed_form', `The body is not valid ${noun}: it must be UTF-8.`);

/**
 * The body rule: every route's body is a JSON object. valibot's object schemas take an array too (its type is
 * `object`), so an array, a string, a number, a boolean or null is refused here, before any schema sees it.
 */
const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** 400 `request.validation_failed` for a body that is valid JSON but not an object, in the validation issues' form. */
const notAnObject = () =>
  new BadRequestError('request.validation_failed', '(body): must be a JSON object', {
    issues: [{ field: '(body)', message: 'must be a JSON object' }],
  });

/**
 * The depth rule and the text rule (`text-rule.ts`), then valibot validation, of the query string and the parsed body;
 * the 400 names every bad field (the strings that break the text rule first, then the schema's issues of other fields).
 */
export const validate = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    event.parsedQuery = validated(route.query ?? noQuery, event.queryStringParameters ?? {}, 'request.invalid_query', 'query');
    if (route.body) event.parsedBody = validated(route.body, event.parsedBody, 'request.validation_failed', 'body');
  },
});

/** Routes without a query schema take no query parameters. */
const noQuery = v.strictObject({});

/** A field name that is safe to repeat in a message; anything else is not echoed back. */
const safeName = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/** How the messages name an input (a query string, a JSON body, an MCP tool's arguments), a part of it no schema knows, and the whole as a sentence's subject. */
const wording = {
  query: { whole: 'query', unknown: 'has an unknown query parameter', notOne: 'is not a query parameter of this request', it: 'The query is' },
  body: { whole: 'body', unknown: 'has an unknown field', notOne: 'is not a field of this request', it: 'The body is' },
  arguments: { whole: 'arguments', unknown: 'has an unknown argument', notOne: 'is not an argument of this tool', it: 'The arguments are' },
} as const;

/**
 * 400 `request.too_deep`: `where` (a JSON body, a query, an MCP tool's arguments) is nested deeper than `MAX_DEPTH`.
 * Checked before the text rule and the schema, whose walks are not made for any depth.
 */
const tooDeep = (where: keyof typeof wording) => new BadRequestError('request.too_deep', `${wording[where].it} nested deeper than ${MAX_DEPTH} levels.`);

/**
 * An issue in words: a schema's own message as it is; for a limit a schema left valibot's default message on
 * (`Invalid code points: Expected <=10 but received 11`), what the limit is, in the words the schemas use; a field
 * left out, that it is required (`Invalid key: Expected "url"`); any other default without what was received (the
 * request's own text is never repeated: a value not among a list's says the list, `Invalid type: Expected ("a" | "b")`).
 */
export function plainMessage(issue: v.BaseIssue<unknown>): string {
  if (!issue.message.startsWith('Invalid ')) return issue.message;
  const { input, requirement: limit } = issue;
  if (input === undefined && issue.path?.at(-1)?.type === 'object') return 'is required';
  const bound = /^(max|min)_(length|code_points|graphemes|value|size)$/.exec(issue.type);
  if (bound && typeof limit === 'number') {
    const unit = bound[2] === 'value' ? '' : typeof input === 'string' ? ' characters' : Array.isArray(input) ? ' items' : '';
    return `must be at ${bound[1] === 'max' ? 'most' : 'least'} ${limit}${unit}`;
  }
  return issue.message.replace(/( but r|: R)eceived .*$/s, '');
}

/**
 * `input` as `schema` makes it, or a 400 `code` naming every bad part of it: the strings that break the text rule
 * first, then the schema's issues of other parts. `where` says what the input is (a query string, a JSON body, an
 * MCP tool's arguments), for the messages. An input nested deeper than `MAX_DEPTH` is refused first, whole (`tooDeep`).
 */
export function validated<S extends GenericSchema>(schema: S, input: unknown, code: string, where: 'query' | 'body' | 'arguments'): v.InferOutput<S> {
  if (nestedDeeperThan(input)) throw tooDeep(where);
  const { whole, unknown, notOne } = wording[where];
  const fieldOf = (path: string) => (path && safeName.test(path) ? path : `(${whole})`);
  const textual = textIssues(input, where === 'query' ? 'query' : 'body').map(({ path, message }) => ({ field: fieldOf(path), message }));
  const result = v.safeParse(schema, input);
  // valibot's objects and records take an array as well (`[]` for `{}`, `["x"]` for `{"0": "x"}`): not here.
  const array = result.success ? arrayTakenAsObject(input, result.output, '') : null;
  if (result.success && textual.length === 0 && array === null) return result.output;
  const named = new Set(textual.map((i) => i.field));
  const all = [
    ...textual,
    ...(array === null ? [] : [{ field: fieldOf(array), message: 'must be an object' }]),
    ...(result.success
      ? []
      : result.issues
          .map((issue) => {
            const path = v.getDotPath(issue);
            const unknownKey = issue.type === 'strict_object' && issue.expected === 'never';
            const field = fieldOf(path ?? '');
            const message = unknownKey ? (field === `(${whole})` ? unknown : notOne) : plainMessage(issue);
            return { field, message };
          })
          .filter((issue) => !named.has(issue.field))),
  ];
  // One problem a field, its first: a negative amount is not also "more than 0" and "has more decimals" too.
  const said = new Set<string>();
  const issues = all.filter((issue) => !said.has(issue.field) && said.add(issue.field));
  const [first] = issues;
  throw new BadRequestError(code, `${first!.field}: ${first!.message}`, { issues });
}

/** The path of the first array of `input` its schema made an object of in `output` (null: none). */
function arrayTakenAsObject(input: unknown, output: unknown, path: string): string | null {
  if (!input || !output || typeof input !== 'object' || typeof output !== 'object') return null;
  if (Array.isArray(input) !== Array.isArray(output)) return path;
  for (const [key, value] of Object.entries(output)) {
    const found = arrayTakenAsObject((input as Record<string, unknown>)[key], value, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/** Counts responses by status class (`2xx`, `4xx`, `5xx`, …) as a metric. */
export const responseMetrics = (): Middleware => {
  // Middleware hooks must return nothing: middy takes a returned value as the response.
  const count = (status: number | undefined): void => {
    metrics.addMetric(`${Math.floor((status ?? 500) / 100)}xx`, MetricUnit.Count, 1);
  };
  return {
    after: ({ response }) => {
      count(response?.statusCode);
    },
    onError: ({ response }) => {
      count(response?.statusCode);
    },
  };
};

/** A page's error answer: its HTML page, or the redirect to sign in (`page-errors.ts`). */
export type PageErrorResult = (status: number, message: string, event: HttpEvent, headers: Record<string, string>) => HttpResult;

/** The `Retry-After` of a 503 `request.busy`. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Maps errors to the face's error body; a table too busy for the request, or silent (`isTableBusy`), is 503
 * `request.busy` with `Retry-After`; anything else unexpected is a 500 that says nothing about why. A page answers
 * with `pageError` (its route is wired with the page kit: `shared/access/page-route.ts`), so a function of any other
 * face carries no page rendering.
 */
export const errorMapper = (route: RouteDef, pageError?: PageErrorResult): Middleware => ({
  onError: (request) => {
    const error = request.error;
    const headers: Record<string, string> = {
      ...securityHeaders(),
      ...corsHeaders(route, request.event.headers?.origin),
      'content-type': 'application/json',
    };
    if (error instanceof DomainError) {
      logger.info('request refused', { status: error.status, code: error.code });
      if (error.headers) Object.assign(headers, error.headers);
      if (pageError) {
        request.response = pageError(error.status, error.message, request.event, headers);
        return;
      }
      if (error instanceof UnauthorizedError) headers['www-authenticate'] = route.auth === 'orgApiKey' ? 'ApiKey' : 'Bearer';
      request.response = { statusCode: error.status, headers, body: errorBody(route.face, error.status, error.code, error.message, error.details) };
      return;
    }
    if (isTableBusy(error)) {
      // Contention, throttling or silence that outlasted the retries: the caller can try again in a moment.
      logger.warn('request found the table busy', error as Error);
      const busy = 'The records this request needs were busy at this moment; retry shortly.';
      Object.assign(headers, { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) });
      request.response = pageError
        ? pageError(503, busy, request.event, headers)
        : { statusCode: 503, headers, body: errorBody(route.face, 503, 'request.busy', busy) };
      return;
    }
    logger.error('request failed', error as Error);
    const message = 'Something went wrong on our side.';
    request.response = pageError
      ? pageError(500, message, request.event, headers)
      : { statusCode: 500, headers, body: errorBody(route.face, 500, 'internal_error', message) };
  },
});
