/**
 * Hosted-fields client tokens: the short-lived browser credential a merchant back end mints (with its ApiKey,
 * which never reaches a browser) and hands to its page, where the hosted-fields frame uses it to tokenize
 * cards for that organization only. A client token:
 * - lives `CLIENT_TOKEN_LIFETIME_MINUTES` and allows `CLIENT_TOKEN_MAX_USES` tokenization attempts (a buyer
 *   may correct a refused card and retry, a card tester gets few tries);
 * - may be bound to one page origin; the frame then works on that page only;
 * - is shown once: the table keeps a hash of it.
 */
import { config } from '../platform/config.ts';
import type { Mode } from '../domain/deployments.ts';
import * as repo from './client-tokens.repository.ts';
import { DomainError, UnauthorizedError } from '../domain/errors.ts';
import { bearerToken, randomHex, sha256Hex } from '../domain/secrets.ts';

export const CLIENT_TOKEN_LIFETIME_MINUTES = 15;
export const CLIENT_TOKEN_MAX_USES = 10;

export interface ClientTokenPrincipal {
  kind: 'clientToken';
  organizationId: string;
  mode: Mode;
  allowedOrigin: string | null;
}

const clientTokenPattern = /^mor_ct_[0-9a-f]{64}$/;
/** What the table keeps of a client token (and finds it by). */
export const clientTokenVerifierOf = (token: string): string => sha256Hex(`client-token:${token}`);

/** Mints a client token for `organizationId`, optionally bound to the page origin `allowedOrigin`. */
export async function mintClientToken(organizationId: string, input: { allowedOrigin?: string | null | undefined }, now = new Date()) {
  const clientToken = `mor_ct_${randomHex(32)}`;
  const expiresAt = new Date(now.getTime() + CLIENT_TOKEN_LIFETIME_MINUTES * 60_000).toISOString();
  await repo.putClientToken({
    verifier: clientTokenVerifierOf(clientToken),
    organizationId,
    mode: config.mode,
    allowedOrigin: input.allowedOrigin ?? null,
    createdAt: now.toISOString(),
    expiresAt,
    uses: 0,
    maxUses: CLIENT_TOKEN_MAX_USES,
  });
  return { clientToken, expiresAt };
}

/**
 * The client token of `Authorization: Bearer mor_ct_…`, for a frame mounted on the page `origin` (the frame's
 * `X-Hosted-Fields-Origin`); spends one of its uses. Refuses with 401 `auth.missing_client_token`,
 * `auth.invalid_client_token` (malformed, unknown, other deployment), `auth.client_token_expired` or
 * `auth.client_token_used_up`, and 403 `client_token.origin_not_allowed`.
 */
export async function authenticateClientToken(authorization: string | undefined, origin: string | undefined, now = new Date()): Promise<ClientTokenPrincipal> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('auth.missing_client_token', 'Send the client token as "Authorization: Bearer mor_ct_…".');
  const invalid = () => new UnauthorizedError('auth.invalid_client_token', 'The client token is not valid.');
  if (!clientTokenPattern.test(token)) throw invalid();
  const used = await repo.useClientToken(clientTokenVerifierOf(token), origin ?? '', config.mode, now.toISOString());
  switch (used) {
    case 'unknown':
      throw invalid();
    case 'expired':
      throw new UnauthorizedError(
        'auth.client_token_expired',
        `The client token has expired (client tokens last ${CLIENT_TOKEN_LIFETIME_MINUTES} minutes); mint a new one.`,
      );
    case 'used_up':
      throw new UnauthorizedError('auth.client_token_used_up', `The client token has been used for ${CLIENT_TOKEN_MAX_USES} tokenizations; mint a new one.`);
    case 'origin':
      throw new DomainError(403, 'client_token.origin_not_allowed', "The client token does not allow hosted fields on this page's origin.");
    default:
      return { kind: 'clientToken', organizationId: used.organizationId, mode: used.mode, allowedOrigin: used.allowedOrigin };
  }
}
