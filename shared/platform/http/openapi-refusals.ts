/**
 * The refusals of the OpenAPI document: every refusal a route can give — those its definition implies
 * (authentication, scope and roles, validation, media type, its `unknownId`) and those its docs name — as error
 * responses in its face's error body, an example each, with its protocol's own answers beside them; and the error
 * body components of the faces.
 */
import { exampleOrigin } from './example-ids.ts';
import type { SchemaOf } from './json-schema.ts';
import type { DocumentedError } from './route-docs.ts';
import type { AuthKind, Face, RouteDef } from './route-def.ts';
import { pathParametersOf } from './path-bounds.ts';
import { IDEMPOTENCY_KEY_MAX } from '../../domain/idempotency.ts';

const merchantError = {
  type: 'object',
  required: ['statusCode', 'code', 'message', 'details'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'Stable, dotted, lowercase error code, e.g. request.validation_failed' },
    message: { type: 'string' },
    details: { type: 'object' },
  },
};

const organizationError = {
  type: 'object',
  required: ['errorCode', 'statusCode', 'message', 'details'],
  properties: {
    errorCode: { type: 'string', description: 'Stable, dotted, lowercase error code, e.g. request.validation_failed' },
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    details: { type: 'string' },
  },
};

const oauthError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'RFC 6749 §5.2 / RFC 7591 §3.2.2 error code, e.g. invalid_grant' },
    error_description: { type: 'string' },
  },
};

/** The agent face's error body (the MCP endpoint's 401 and 403 among them), as the spec's MCP 401 has it. */
const agentError = {
  type: 'object',
  required: ['statusCode', 'error', 'code', 'message', 'docUrl'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: "The status's reason phrase, e.g. Unauthorized" },
    code: { type: 'string', description: 'missing_token, invalid_token, token_expired, token_validation_unavailable, insufficient_scope, …' },
    message: { type: 'string' },
    docUrl: { type: 'string', format: 'uri', description: 'Where the code and what to do about it are explained' },
  },
};

/** The error body component of each face. */
const errorComponentOf = (face: Face) =>
  face === 'organization' ? 'OrganizationError' : face === 'oauth' ? 'OAuthError' : face === 'agent' ? 'AgentError' : 'Error';

/** Where the agent face's error bodies point (`docUrl`): the docs section of the MCP errors, on the deployment's origin. */
const AGENT_ERRORS_DOC_URL = `${exampleOrigin}/docs#mcp-errors`;

/** An example of the face's error body (as `errors.ts` writes it) for a refusal. */
function errorExample(face: Face, status: number, code: string, message: string): Record<string, unknown> {
  if (face === 'organization') return { errorCode: code, statusCode: status, message, details: '' };
  if (face === 'oauth') return { error: oauthErrorOf(status, code), error_description: message };
  if (face === 'agent') return { statusCode: status, error: reasonPhrases[status] ?? 'Error', code, message, docUrl: AGENT_ERRORS_DOC_URL };
  return { statusCode: status, code, message, details: {} };
}

/** The OAuth face's `error` for a platform refusal (as `oauthErrorCode` in `errors.ts` maps it), or the code itself. */
const oauthErrorOf = (status: number, code: string) =>
  /^[a-z_]+$/.test(code) ? code : status === 401 ? 'invalid_client' : status === 429 || status === 503 ? 'temporarily_unavailable' : 'invalid_request';

const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** The refusals of each auth kind's authentication (`shared/access/`, the services' authenticators). */
const authRefusals: Readonly<Record<AuthKind, readonly DocumentedError[]>> = {
  none: [],
  apiKey: [
    { status: 401, code: 'auth.missing_api_key', when: 'No `Authorization: Bearer <key>` header was sent.' },
    { status: 401, code: 'auth.invalid_api_key', when: "The key is unknown, revoked, or of the other deployment's mode." },
  ],
  session: [
    { status: 401, code: 'auth.missing_session', when: 'Neither the session cookie nor `Authorization: Bearer <session token>` was sent.' },
    { status: 401, code: 'auth.invalid_session', when: 'The session is unknown or has expired: sign in again.' },
  ],
  orgApiKey: [
    { status: 401, code: 'auth.missing_api_key', when: 'No `Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>` header was sent.' },
    { status: 401, code: 'auth.invalid_api_key', when: 'The key is unknown, revoked, malformed, or its account is not active.' },
  ],
  accountSecret: [{ status: 401, code: 'auth.invalid_secret', when: "The body's `secret` is not the account's, or the account id is wrong." }],
  clientToken: [
    { status: 401, code: 'auth.missing_client_token', when: 'No `Authorization: Bearer mor_ct_…` header was sent.' },
    { status: 401, code: 'auth.invalid_client_token', when: 'The client token is malformed, unknown, or of the other deployment.' },
    { status: 401, code: 'auth.client_token_expired', when: 'The client token has expired: mint a new one.' },
    { status: 401, code: 'auth.client_token_used_up', when: 'The client token has been used for as many tokenizations as it allows: mint a new one.' },
  ],
  agentToken: [
    { status: 400, code: 'unsupported_protocol_version', when: 'The `MCP-Protocol-Version` header names a version this server does not speak.' },
    { status: 401, code: 'missing_token', when: 'No `Authorization: Bearer <token>` header was sent.' },
    { status: 401, code: 'invalid_token', when: 'The token is unknown, revoked, of another deployment, or its person left the merchant.' },
    { status: 401, code: 'token_expired', when: 'The token has expired: mint a new one or refresh it.' },
    { status: 401, code: 'token_validation_unavailable', when: 'The token could not be checked just now (`Retry-After`): retry; do not ask for a new token.' },
    { status: 403, code: 'origin_not_allowed', when: 'The request came from a web page of a foreign `Origin`.' },
  ],
  portalSession: [{ status: 401, code: 'auth.portal_session', when: 'The portal session cookie is missing, or its session has ended.' }],
};

/** The refusals a route's definition implies, besides its docs' own (read `route()`'s middleware in `shared/access/`). */
function impliedRefusals(r: RouteDef): DocumentedError[] {
  const refusals: DocumentedError[] = [
    {
      status: 400,
      code: 'request.invalid_query',
      when: !r.query
        ? 'A query parameter was sent: this operation takes none.'
        : r.query.type === 'strict_object'
          ? 'A query parameter is unknown or breaks its rule; `details` names each.'
          : 'A query parameter breaks its rule (one this page does not read is ignored); `details` names each.',
    },
  ];
  if (r.body) {
    const form = r.bodyType === 'application/x-www-form-urlencoded';
    refusals.push(
      { status: 400, code: 'request.validation_failed', when: 'A field of the body is missing or breaks its rule; `details` names each.' },
      { status: 400, code: 'request.body_required', when: 'No body was sent.' },
      ...(form
        ? [{ status: 400, code: 'request.malformed_form', when: 'The body is not a form of UTF-8 text.' }]
        : [
            { status: 400, code: 'request.malformed_json', when: 'The body is not JSON of UTF-8 text.' },
            { status: 400, code: 'request.too_deep', when: 'The body is nested deeper than 64 objects or arrays.' },
          ]),
      { status: 413, code: 'request.too_large', when: 'The body is over 10 MB, or the request over the 6 MB a function takes.' },
      { status: 415, code: 'request.unsupported_media_type', when: `The body is not sent as \`${r.bodyType ?? 'application/json'}\`.` },
    );
  }
  if (r.idempotencyKey) {
    if (r.idempotencyKey === 'required')
      refusals.push({ status: 400, code: 'request.idempotency_key_required', when: 'No `Idempotency-Key` header was sent.' });
    refusals.push({
      status: 400,
      code: 'request.invalid_idempotency_key',
      when: `The \`Idempotency-Key\` is empty, over ${IDEMPOTENCY_KEY_MAX} characters or not printable ASCII.`,
    });
  }
  if (r.face === 'dashboard-api' && r.method !== 'GET') {
    refusals.push({
      status: 403,
      code: 'request.cross_origin',
      when: 'A browser sent it from a page of another site (its `Origin`, or else its `Sec-Fetch-Site`, says so): nothing was changed.',
    });
  }
  if (r.face === 'organization' && (r.api ?? 'main') === 'main') {
    refusals.push({
      status: 400,
      code: 'request.organization_id_misplaced',
      when: 'An `X-Organization-Id` header was sent: the organization is named in the path.',
    });
  }
  refusals.push(...authRefusals[r.auth]);
  if (r.table !== 'none' || r.imageStorage || r.policyStorage || r.invoicePdfStorage) {
    refusals.push({
      status: 503,
      code: 'request.busy',
      when:
        r.table === 'readWrite'
          ? 'Other requests were changing the same records at that moment, or the table throttled the request or did not answer in time, and it could not land after its retries; retry after `Retry-After` (with the same idempotency key, where the operation takes one).'
          : 'The table or the storage it reads throttled the request or did not answer in time, after its retries; retry after `Retry-After`.',
    });
  }
  const params = pathParametersOf(r.path);
  const scoped = r.auth !== 'none' && (params.includes('merchantId') || params.includes('organizationId') || params.includes('accountId'));
  if (scoped || (params.length > 0 && !r.unknownId)) {
    refusals.push({ status: 403, code: 'forbidden', when: 'The merchant, organization or account of the path is unknown or not yours to reach.' });
  }
  if (r.roles) refusals.push({ status: 403, code: 'forbidden', when: `Your role on the merchant is not ${r.roles.join(' or ')}.` });
  // Its answer to each of its ids naming nothing, once a code.
  const unknown = new Map(params.flatMap((name) => (r.unknownId ? [r.unknownId(name)] : [])).map((e) => [e.code, e]));
  for (const e of unknown.values()) refusals.push({ status: e.status, code: e.code, when: e.message });
  return refusals;
}

/** The error responses of a route: one per status, an example per code (the first refusal's message for each). */
export function errorResponses(r: RouteDef, documented: readonly DocumentedError[]) {
  // A refusal the route documents itself says more than the implied one of the same code: it takes its place.
  const byStatus = new Map<number, Map<string, DocumentedError>>();
  for (const e of [...impliedRefusals(r), ...documented]) {
    const codes = byStatus.get(e.status) ?? new Map<string, DocumentedError>();
    codes.set(e.code, e);
    byStatus.set(e.status, codes);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        {
          description: [...codes.values()].map((e) => `\`${e.code}\`: ${e.when}`).join('\n\n'),
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${errorComponentOf(r.face)}` },
              examples: Object.fromEntries(
                [...codes.entries()].map(([code, e]) => [code, { summary: e.when, value: errorExample(r.face, status, code, sentenceOf(e.when)) }]),
              ),
            },
          },
        },
      ]),
  );
}

type ResponseObject = { description: string; content?: { 'application/json': { schema: unknown } & Record<string, unknown> } };

/**
 * The route's error responses with its protocol's answers (`protocolAnswers`) added: at a status the face refuses at
 * too, the body is either (`oneOf`) and both descriptions are kept; at another, the answer alone.
 */
export function withProtocolAnswers(errors: Record<string, ResponseObject>, r: RouteDef, schemaOf: SchemaOf): Record<string, ResponseObject> {
  const responses = { ...errors };
  for (const answer of r.protocolAnswers ?? []) {
    const status = String(answer.status);
    const own = answer.response ? schemaOf(answer.response) : null;
    const refusal = responses[status];
    if (refusal?.content && own) {
      const json = refusal.content['application/json'];
      responses[status] = {
        description: `${refusal.description}\n\n${answer.when}`,
        content: { 'application/json': { ...json, schema: { oneOf: [json.schema, own] } } },
      };
    } else {
      responses[status] = { description: answer.when, ...(own ? { content: { 'application/json': { schema: own } } } : {}) };
    }
  }
  return responses;
}

/** A refusal's `when` as the message of its example (without Markdown backticks). */
const sentenceOf = (when: string) => when.replace(/`/g, '');

/** The error body of each face, as components of the document. */
export const errorComponents = { Error: merchantError, OrganizationError: organizationError, OAuthError: oauthError, AgentError: agentError };
