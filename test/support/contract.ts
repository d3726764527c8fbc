/**
 * The contract check every e2e response goes through: a success must have the route's declared status and a
 * body that its declared (strict) response schema accepts; an error must have the face's error shape. A handler
 * that returns an undeclared field, a missing one, or another status fails the test that received it.
 */
import * as v from 'valibot';
import { routeMatcher } from '../../shared/platform/http/route-match.ts';
import { routeList, type Face, type RouteDef } from '../../shared/routes/index.ts';
import { oauthErrorCodes } from '../../shared/platform/http/errors.ts';
import { htmlPage } from '../../shared/platform/http/schemas/common.ts';
import { openApiDocument } from '../../shared/platform/http/openapi-document.ts';

const matcher = routeMatcher(routeList);

const merchantError = v.strictObject({ statusCode: v.number(), code: v.string(), message: v.string(), details: v.record(v.string(), v.unknown()) });
const organizationError = v.strictObject({ errorCode: v.string(), statusCode: v.number(), message: v.string(), details: v.string() });
const oauthError = v.strictObject({ error: v.picklist(oauthErrorCodes), error_description: v.string() });
const agentError = v.strictObject({ statusCode: v.number(), error: v.string(), code: v.string(), message: v.string(), docUrl: v.pipe(v.string(), v.url()) });
const errorSchema = (face: Face) =>
  face === 'organization' ? organizationError : face === 'oauth' ? oauthError : face === 'agent' ? agentError : merchantError;

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

function fail(route: RouteDef, status: number, problem: string): never {
  throw new ContractViolation(`${route.method} ${route.path} (${route.name}) answered ${status}: ${problem}`);
}

const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Throws a ContractViolation when the answer to `method path` breaks its route's declared contract. With the
 * answer's `contentType`, a success must also have the route's media type; a text route's (`contentType` in the
 * route table) body text is checked against its response schema instead of a JSON body. A route whose success is
 * a redirect (3xx) must answer an absolute URL in `location` (checked when the answer's `headers` are given), and so
 * must the 302 / 303 of a route marked `redirects`. A route marked `etag` may answer 304 without a body. A page's
 * refusal (4xx of a `text/html` route, answered `text/html`) is a page too: its text must pass the route's schema. An
 * answer at a status of the route's `protocolAnswers` must pass that answer's schema (or be the face's error).
 * `path` is relative to `/api`; `checkContractAt` takes a path from the root (the discovery documents').
 */
export function checkContract(
  method: string,
  path: string,
  status: number,
  json: unknown,
  text: string,
  contentType?: string | null,
  headers?: { get(name: string): string | null },
): void {
  checkContractAt(method, `/api${path}`, status, json, text, contentType, headers);
}

export function checkContractAt(
  method: string,
  path: string,
  status: number,
  json: unknown,
  text: string,
  contentType?: string | null,
  headers?: { get(name: string): string | null },
): void {
  const match = matcher.match(method.toUpperCase(), path.split('?')[0]!);
  if (!match) return; // the gateway's own answers are checked by the gateway tests
  const route = match.route;
  if (status >= 400 && route.contentType === 'text/html' && mediaType(contentType ?? null) === 'text/html') {
    // A route that answers no page of its own (a form that only redirects) still refuses with a whole page.
    if (!v.is(route.response ?? htmlPage, text)) fail(route, status, 'the refusal page breaks the declared response schema');
    return;
  }
  const protocol = route.protocolAnswers?.find((a) => a.status === status);
  if (protocol) {
    if (protocol.response === null ? text === '' : v.is(protocol.response, json)) return;
    // At a status the face refuses at too, a body that is not the protocol's must be the face's error.
    if (status < 400) fail(route, status, protocol.response === null ? 'declared no body, but one was sent' : "the body breaks the protocol answer's schema");
  }
  if (status >= 400) {
    const result = v.safeParse(errorSchema(route.face), json);
    if (!result.success) fail(route, status, `error body is not the ${route.face} face's shape: ${v.summarize(result.issues)}`);
    if (route.face !== 'oauth' && (json as { statusCode: number }).statusCode !== status)
      fail(route, status, 'statusCode in the body differs from the HTTP status');
    return;
  }
  const declaredRedirect = route.redirects && (status === 302 || status === 303);
  if (status === 304 && route.etag) {
    if (text !== '') fail(route, status, '304 Not Modified must have no body');
    if (headers && !headers.get('etag')) fail(route, status, '304 Not Modified must name the ETag');
    return;
  }
  if (status !== route.status && !declaredRedirect) fail(route, status, `declared success status is ${route.status}`);
  if (status >= 300 && status < 400 && headers) {
    const location = headers.get('location');
    if (!location || !URL.canParse(location)) fail(route, status, 'a redirect must have an absolute URL in its location header');
  }
  if (declaredRedirect) {
    if (text !== '') fail(route, status, 'a redirect of a route marked redirects has no body');
    return;
  }
  if (route.response === null) {
    if (text !== '') fail(route, status, 'declared no body, but one was sent');
    return;
  }
  const declared = route.contentType ?? 'application/json';
  // A declared range (`image/*`) takes any type of it.
  const fits = (actual: string) => (declared.endsWith('/*') ? actual.startsWith(declared.slice(0, -1)) : actual === declared);
  if (contentType !== undefined && !fits(mediaType(contentType))) fail(route, status, `content type is ${contentType}, declared ${declared}`);
  // A PDF is a download: it must name its file.
  if (declared === 'application/pdf' && headers && !/^attachment; filename="[^"/\\]+\.pdf"$/.test(headers.get('content-disposition') ?? '')) {
    fail(route, status, 'a PDF must have content-disposition: attachment; filename="<name>.pdf"');
  }
  const result = v.safeParse(route.response, declared === 'application/json' ? json : text);
  if (!result.success) fail(route, status, `body breaks the declared response schema:\n${v.summarize(result.issues)}`);
}

/** The gateway's own answers, given before any function runs (docs/deploying.md, "Answers no function gives"). */
const gatewayCodes = new Set(['route.not_found', 'route.method_not_allowed', 'request.too_large', 'request.headers_too_large', 'request.malformed']);

let document: { paths: Record<string, Record<string, OpenApiOperation>> } | undefined;
interface OpenApiOperation {
  responses: Record<string, { content?: { 'application/json'?: { examples?: Record<string, unknown> } } }>;
}

/**
 * Throws a ContractViolation when a refusal of the run's stack has a code the OpenAPI document (the one the stack
 * wrote at its start, `.build/openapi/`) does not declare for its route at that status: every code a route answers
 * is in its reference. The OAuth face's `error` (RFC 6749's few codes) and the gateway's own answers are not per route.
 */
export function checkDeclaredRefusal(method: string, path: string, status: number, json: unknown): void {
  if (status < 400) return;
  const route = matcher.match(method.toUpperCase(), path.split('?')[0]!)?.route;
  if (!route || route.face === 'page' || route.face === 'oauth' || status === route.status) return;
  if (route.stages && !route.stages.includes('sandbox')) return;
  const body = json as { errorCode?: unknown; code?: unknown } | null;
  const code = route.face === 'organization' ? body?.errorCode : body?.code;
  if (typeof code !== 'string' || gatewayCodes.has(code)) return;
  document ??= openApiDocument('sandbox') as unknown as typeof document;
  const operation = document!.paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) fail(route, status, 'the route is not in the OpenAPI document');
  if (!operation.responses[String(status)]?.content?.['application/json']?.examples?.[code]) {
    fail(route, status, `\`${code}\` is not among the refusals the OpenAPI document declares for it at ${status}`);
  }
}
