/**
 * What a route is: the single definition the CDK stacks, the local gateway, the OpenAPI document, the
 * `events/` samples and each handler's middleware are all built from. Each module's `routes.ts` holds its routes on
 * every face, each route its own export written as a plain object (`{ face, name, … } as const satisfies RouteDef`:
 * no call, nothing run at import, so a bundle drops every route its handler doesn't name); the route table
 * (`shared/routes/index.ts`) gathers them from the modules, and the faces are read from the routes, never listed.
 */
import type { GenericSchema } from 'valibot';
import type { Stage } from '../../domain/deployments.ts';
import type { DomainError } from '../../domain/errors.ts';
import type { Role } from '../../domain/merchants.ts';

/**
 * How a route authenticates: not at all; a merchant key (`Authorization: Bearer mor_…`); a dashboard session;
 * an organization API key (`Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`); an account's secret
 * (the `secret` field of the body, for the account routes that exist before any key does); a hosted-fields
 * client token (`Authorization: Bearer mor_ct_…`, minted by a merchant back end for the browser); or an agent's
 * bearer token on the MCP endpoint (an OAuth access token `mor_oat_…` or a user MCP token `mor_mcp_<mode>_…`); or a
 * customer's portal session (the `__Host-mor_portal` cookie, one customer of one merchant).
 */
export type AuthKind = 'none' | 'apiKey' | 'session' | 'orgApiKey' | 'accountSecret' | 'clientToken' | 'agentToken' | 'portalSession';
/**
 * Which face a route belongs to: it decides the error body's shape (`oauth`: the OAuth authorization server's
 * `{ error, error_description }` of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 7009; `agent`: the MCP endpoint's
 * `{statusCode, error, code, message, docUrl}`; `page`: the dashboard's server-rendered pages, whose errors are pages
 * too, and whose missing or expired session sends the browser to the sign-in page).
 */
export type Face = 'merchant' | 'organization' | 'checkout' | 'dashboard-api' | 'system' | 'oauth' | 'agent' | 'page';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** The API stack a route's function lives in (stacks are split to stay far below CloudFormation's 500 resources). */
export type RouteGroup =
  | 'system'
  | 'merchants'
  | 'dashboard'
  | 'organizations'
  | 'catalog'
  | 'payments'
  | 'customers'
  | 'checkout'
  | 'subscriptions'
  | 'oauth'
  | 'agents'
  | 'pages'
  | 'portal'
  | 'docs';
/** What a route's function may do to the table (least privilege). */
export type TableAccess = 'none' | 'read' | 'readWrite';
/**
 * The items an authentication writes, by kind, as the partition key prefixes of the items it updates: the use of a
 * merchant key is recorded on it (`lastUsedAt`, at most once a minute), on a route that only reads the table too. A
 * `read` function authenticating so may update those items and no others (`UpdateItem` where the partition key
 * starts so: infra/stacks/route-function.ts; the local stack holds its functions to the same, infra/local/function-rights.ts).
 */
export const authenticationWrites: Readonly<Partial<Record<AuthKind, readonly string[]>>> = { apiKey: ['APIKEY#'] };
/**
 * The HTTP API a route is served on: the platform's main API, or the production tokenization host (its own
 * stack, API and domain, so raw card data reaches as few functions as possible).
 */
export type ApiName = 'main' | 'tokenization';
/**
 * The media type of a route's success body. JSON bodies are serialized by `route()`; a text route's handler
 * returns its body as a string, sent as is with `; charset=utf-8`. A binary route's (`application/pdf`) handler
 * returns its body as bytes (a Uint8Array), sent base64-encoded with `isBase64Encoded` (API Gateway decodes it).
 */
export type ContentType = 'application/json' | 'text/html' | 'text/css' | 'text/javascript' | 'application/pdf' | 'image/*';

/**
 * The media type of a route's request body: JSON (an object), or an HTML form's / OAuth's
 * `application/x-www-form-urlencoded`, parsed into an object of strings (a name sent several times: the list of
 * its values, in order).
 */
export type BodyType = 'application/json' | 'application/x-www-form-urlencoded';

/**
 * Media types whose bodies are bytes, not text. `image/*` is a route answering an image of one of the accepted
 * formats: its handler sets the actual `content-type` (`image/png`, `image/jpeg`, `image/webp`).
 */
export const binaryContentTypes: readonly ContentType[] = ['application/pdf', 'image/*'];

/** An answer of the protocol a route speaks (`RouteDef.protocolAnswers`). */
export interface ProtocolAnswer {
  readonly status: number;
  readonly response: GenericSchema | null;
  /** When it is given, in a sentence a caller can act on. */
  readonly when: string;
}

export interface RouteDef {
  /** Function name: also the name of its sample event in `events/`. */
  readonly name: string;
  readonly face: Face;
  readonly method: HttpMethod;
  /** Full path as API Gateway routes it, with `{param}` placeholders. */
  readonly path: string;
  /** Lambda entry file, relative to the repository root. */
  readonly handler: string;
  readonly auth: AuthKind;
  readonly group: RouteGroup;
  readonly table: TableAccess;
  /** valibot schema of the body (after parsing, see `bodyType`); a route without one takes no body. */
  readonly body?: GenericSchema;
  /** Media type of the request body (default `application/json`). */
  readonly bodyType?: BodyType;
  /** valibot schema of the query string parameters; a route without one takes none. */
  readonly query?: GenericSchema;
  /**
   * The `Idempotency-Key` header the route reads (shared/domain/idempotency.ts: 1 to 255 printable ASCII
   * characters), `required` or `optional`; the OpenAPI document declares it so. A route without it reads none.
   */
  readonly idempotencyKey?: 'required' | 'optional';
  /** The success status. */
  readonly status: number;
  /**
   * valibot schema of the success body (strict, so an undeclared field fails the contract tests); null: no body.
   * For a text route (see `contentType`) it is the schema of the body text.
   */
  readonly response: GenericSchema | null;
  /** Media type of the success body (default `application/json`). */
  readonly contentType?: ContentType;
  /**
   * The route may also answer with a redirect instead of its success status: 302 Found or 303 See Other, with an
   * absolute `Location` and no body (e.g. the OAuth authorization endpoint sending the browser back to its client).
   */
  readonly redirects?: boolean;
  /**
   * The success body is a cacheable document: `route()` gives it a strong `ETag` (a hash of the body) and answers
   * 304 Not Modified, without a body, to a request whose `If-None-Match` names it.
   */
  readonly etag?: boolean;
  /**
   * Answers of the protocol the route speaks, beside its success and its face's refusals (the MCP endpoint's transport:
   * 202 for notifications alone, JSON-RPC errors at 400, 406 and 415): each a status, its body's schema (null: none)
   * and when it is given. The OpenAPI document declares them, and the contract tests hold answers of those statuses to
   * them (or, at a status the face refuses at too, to the face's error shape).
   */
  readonly protocolAnswers?: readonly ProtocolAnswer[];
  /** The function signs webhooks, so it may read the deployment's webhook signing key. */
  readonly signsWebhooks?: boolean;
  /** The function tokenizes cards, so it may read the deployment's card fingerprint key. */
  readonly fingerprintsCards?: boolean;
  /**
   * The function works with the seller policy PDFs (`shared/platform/storage/policies.ts`): `read` may list, head and get
   * them (and so sign GET URLs), `write` may also put and delete them (and so sign PUT URLs). Its function gets the
   * bucket's name in `POLICY_BUCKET`; a route without the flag gets neither.
   */
  readonly policyStorage?: 'read' | 'write';
  /**
   * The function works with merchants' images (`shared/platform/storage/images.ts`, in the same bucket as the policy
   * PDFs): `read` may get the served images (`images/*`), `write` may also put and delete them and work with the
   * product image uploads (`image-uploads/*`: sign their PUT URLs, head, read, copy and delete them). Its function
   * gets the bucket's name in `POLICY_BUCKET`.
   */
  readonly imageStorage?: 'read' | 'write';
  /**
   * The function reads invoices' stored PDFs (`shared/platform/storage/invoice-pdfs.ts`, `invoices/*` in the same
   * bucket): it may get and head them, and so sign GET URLs. Its function gets the bucket's name in `POLICY_BUCKET`.
   */
  readonly invoicePdfStorage?: 'read';
  /**
   * The function makes invoices or checkout receipts, with the platform as seller of record: it gets the stage's
   * seller (legal name, address, phone, tax number) in the `SELLER_OF_RECORD_*` variables (`sellerOfRecord()`,
   * `shared/platform/seller-of-record.ts`); a route without the flag gets none.
   */
  readonly buildsInvoices?: boolean;
  /**
   * The function sends e-mail through the platform mailer (`shared/platform/mail/mailer.ts`): deployed, it sends with
   * SES from the stage's sender address (`MAIL_FROM`, `ses:SendEmail` on that sender only).
   */
  readonly sendsMail?: boolean;
  /** Session routes on a merchant: the roles allowed (any member when absent). */
  readonly roles?: readonly Role[];
  /**
   * Files (repository-relative) the function reads at run time, copied next to its bundle (e.g. the invoice
   * PDF's font): the code finds them beside its module, or in the repository when it runs unbundled.
   */
  readonly assets?: readonly string[];
  /** Function timeout (default 10 s). */
  readonly timeoutSeconds?: number;
  /** The deployments the route exists on (default both); elsewhere it is not routed at all (404). */
  readonly stages?: readonly Stage[];
  /** The HTTP API serving the route (default `main`). */
  readonly api?: ApiName;
  /**
   * What the route answers for an id in its path that names nothing: its handler's answer to an unknown id (one of
   * `shared/domain/unknown-ids.ts`). `route()` gives it at once, before any table call, for a path parameter
   * longer than any value it can take (`shared/platform/http/path-bounds.ts`). Without one, such a parameter gets the scope
   * check's 403: only the ids the scope check reads (`{merchantId}`, `{organizationId}`, an account's own
   * `{accountId}`) may go undeclared, and the scope check has refused a malformed one before (a test holds both). It is
   * given the parameter, so that a route with two ids of its own answers each its own way.
   */
  readonly unknownId?: (parameter: string) => DomainError;
  readonly summary: string;
}

/** Route timeout unless a definition sets its own: well inside API Gateway's 30 s integration limit. */
export const defaultRouteTimeoutSeconds = 10;

/** The roles of a merchant's members that may manage it (webhook destinations, members, refunds from the dashboard). */
export const managers = ['owner', 'admin'] as const satisfies readonly Role[];
