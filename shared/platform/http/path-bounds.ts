/**
 * Ids are bounded before any table call. `pathParameterMaxLength` is the longest value each path parameter of the
 * route table can take: the longest id of its kind, as the id formats in `shared/domain` and the modules' rules, schemas and
 * repositories define them (ids are ASCII: characters are bytes); `test/routes/unit/path-parameters.test.ts` holds each
 * bound to its formats and every route's parameters to this list. Plain numbers, so that every function carries
 * them without any id format's module.
 *
 * A longer value names nothing, so `pathParameterBounds` answers what the route answers for an id that names
 * nothing (its `unknownId`: the same status, code and message) at once, instead of its handler asking the table
 * for a key DynamoDB may refuse as too long (2,048 bytes for a partition key, 1,024 for a sort key: an error, not
 * an empty read). It runs after the scope checks and validation, as the handler would: an unknown id with a bad
 * body is the body's 400 either way, and the scope checks refuse a malformed `{merchantId}` or `{organizationId}`
 * before it.
 */
import type { MiddlewareObj } from '@middy/core';
import { ForbiddenError } from '../../domain/errors.ts';
import type { RouteDef } from './route-def.ts';
import type { HttpEvent, HttpResult } from './types.ts';

/** The longest value of each path parameter of the route table. */
export const pathParameterMaxLength = {
  // UUIDs: merchants (= organizations), accounts, people, organization API keys, transactions (v7).
  merchantId: 36,
  organizationId: 36,
  accountId: 36,
  userId: 36,
  apiKeyId: 36,
  transactionId: 36,
  subscriptionId: 36,
  subscriptionCancellationId: 36,
  subscriptionPauseId: 36,
  subscriptionReactivationId: 36,
  /** A merchant API key (`ak_` + 24 hex), customer (`cus_` + 32 hex), invoice (`inv_` + 32 hex) or webhook destination (`wh_` + 24 hex). */
  id: 36,
  /** `plan_` + 32 hex. */
  planId: 37,
  /** `prod_` + 32 hex. */
  productId: 37,
  /** `promo_` + 32 hex. */
  promoCodeId: 38,
  /** `web_` + 32 hex. */
  websiteId: 36,
  /** `ord_` + 32 hex. */
  orderId: 36,
  /** `cus_` + 32 hex. */
  customerId: 36,
  /** `inv_` + 32 hex. */
  customerInvoiceId: 36,
  invoiceId: 36,
  /** `inst_` + 32 hex. */
  paymentInstrumentId: 37,
  /** `tok_` + 24 letters and digits. */
  tokenId: 28,
  /** `pom_` + 32 hex. */
  payoutMethodId: 36,
  /** `po_` + 32 hex. */
  withdrawalId: 35,
  /** `evt_` + 32 hex. */
  eventId: 36,
  /** `whd_` + 32 hex. */
  webhookDestinationId: 36,
  /** The caller's own: 1 to 64 letters, digits, `_` and `-`. */
  disputeId: 64,
  /** The transaction's id (a UUID), or a legacy `pay_` + 1 to 64 letters and digits. */
  receiptId: 68,
  /** The longest policy type, `return-policy`. */
  policyType: 13,
  /** `img_` + 32 hex (a logo or product image). */
  imageId: 36,
  /** `upl_` + 32 hex (a product image waiting for its confirm). */
  uploadId: 36,
  /** A join link: the merchant's UUID, `.` and 64 hex (longer than a team invitation's: `inv_`, the UUID, `.`, 16 hex, `.`, 40 hex). */
  token: 101,
  /** A user MCP token's id: `mcp_` + 24 hex. */
  mcpTokenId: 28,
  /** A docs page's name (`isDocsPageName`): at most 64 characters. */
  page: 64,
} as const satisfies Readonly<Record<string, number>>;

export type PathParameterName = keyof typeof pathParameterMaxLength;

/** The `{name}` parameters of a route's path, in order (a final greedy `{rest+}` is the rest of a path, not an id). */
export const pathParametersOf = (path: string): string[] => [...path.matchAll(/\{([^}+]+)\}/g)].map((m) => m[1]!);

const maxLengths: Readonly<Record<string, number>> = pathParameterMaxLength;

/** The middleware of `route` that answers its `unknownId` for a path parameter longer than its bound. */
export const pathParameterBounds = (route: RouteDef): MiddlewareObj<HttpEvent, HttpResult> => {
  const bounds = pathParametersOf(route.path).map((name) => {
    const max = maxLengths[name];
    if (max === undefined) throw new Error(`${route.name}: no maximum length for the path parameter {${name}} (pathParameterMaxLength)`);
    return { name, max };
  });
  // Undeclared: the route's only ids are those its scope check reads, and an id that names nothing is its 403.
  const unknownId = route.unknownId ?? (() => new ForbiddenError());
  return {
    before: ({ event }) => {
      for (const { name, max } of bounds) {
        if ((event.pathParameters?.[name]?.length ?? 0) > max) throw unknownId(name);
      }
    },
  };
};
