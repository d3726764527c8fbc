/**
 * The refusals of the OAuth endpoints (token, registration, revocation): an RFC error code and a description that
 * says what to do, mapped by the OAuth face to `{ error, error_description }`.
 */
import { DomainError } from '../domain/errors.ts';
import type { OAuthErrorCode } from '../platform/http/errors.ts';

export class OAuthError extends DomainError {
  constructor(status: 400 | 401 | 429, code: OAuthErrorCode, description: string, headers?: Readonly<Record<string, string>>) {
    super(status, code, description, {}, headers);
  }
}

/** 400 with `code` (`invalid_request`, `invalid_grant`, `invalid_target`, …). */
export const oauthRefusal = (code: OAuthErrorCode, description: string) => new OAuthError(400, code, description);

/**
 * 401 `invalid_client` (RFC 6749 §5.2): a client that presented HTTP Basic credentials is told to use them
 * (`WWW-Authenticate: Basic`).
 */
export const invalidClient = (description: string, usedBasic: boolean) =>
  new OAuthError(401, 'invalid_client', description, usedBasic ? { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' } : undefined);
