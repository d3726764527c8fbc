import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Merchant, Role } from '../../domain/merchants.ts';

/** What the middleware stack learns about a request before the handler runs. */
export interface HttpEvent extends APIGatewayProxyEventV2 {
  parsedBody?: unknown;
  parsedQuery?: unknown;
  /** Who calls, as the route's authentication found it (shared/access/ sets and types it). */
  principal?: { readonly kind: string };
  /** The `{merchantId}` of the path, loaded once the scope check has passed. */
  merchant?: Merchant;
  /** On a session route: the signed-in person's role on the path's `{merchantId}`, once the scope check has passed. */
  role?: Role;
  /** The `{organizationId}` of the path (the same record as a merchant), loaded once the scope check has passed. */
  organization?: Merchant;
  /** The calling account's link to `organization` (shared/access/ sets and types it). */
  link?: unknown;
}

export type HttpResult = APIGatewayProxyStructuredResultV2;

/**
 * What a handler returns: a status, an optional body (JSON, or a string on a text route), and optional extra
 * headers and cookies.
 */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}
