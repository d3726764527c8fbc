import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AccountLink } from '../../organizations/accounts.repository.ts';
import type { Merchant } from '../../domain/merchants.ts';
import type { AccountSecretPrincipal, OrgApiKeyPrincipal } from '../../organizations/accounts.service.ts';
import type { ApiKeyPrincipal } from '../../people/api-keys.service.ts';
import type { ClientTokenPrincipal } from '../../customers/client-tokens.service.ts';
import type { SessionPrincipal } from '../../people/people.service.ts';

export type Principal = ApiKeyPrincipal | SessionPrincipal | OrgApiKeyPrincipal | AccountSecretPrincipal | ClientTokenPrincipal;

/** What the middleware stack learns about a request before the handler runs. */
export interface HttpEvent extends APIGatewayProxyEventV2 {
  parsedBody?: unknown;
  parsedQuery?: unknown;
  principal?: Principal;
  /** The `{merchantId}` of the path, loaded once the scope check has passed. */
  merchant?: Merchant;
  /** The `{organizationId}` of the path (the same record as a merchant), loaded once the scope check has passed. */
  organization?: Merchant;
  /** The calling account's link to `organization`. */
  link?: AccountLink;
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
