/**
 * An OAuth authorization code (`OAUTHCODE#<sha256(code)>` / `OAUTHCODE`), found by the SHA-256 of the code. It is
 * issued once at consent, bound to its client, redirect URI, PKCE challenge and resource, and redeemed at most once:
 * the redemption records the family of tokens it started (and `redeemedAt`).
 */
import * as v from 'valibot';
import type { AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { grantSubjectEntries, retentionTtl } from './family.entity.ts';

export interface AuthorizationCode {
  /** SHA-256 of the code. */
  verifier: string;
  clientId: string;
  redirectUri: string;
  /** The authorization request named `redirectUri` (then the token request must name it too, RFC 6749 §4.1.3). */
  redirectUriGiven: boolean;
  /** The PKCE S256 challenge the token request's verifier must answer. */
  codeChallenge: string;
  resource: string;
  userId: string;
  merchantId: string;
  scopes: AgentScope[];
  /** Whether the exchange also issues a refresh token (the client uses the `refresh_token` grant). */
  refreshable: boolean;
  mode: Mode;
  createdAt: string;
  expiresAt: string;
  status: 'issued' | 'redeemed';
  /** The family of tokens the redemption started (null until redeemed). */
  familyId: string | null;
}

/** An OAuth authorization code, found by the SHA-256 of the code (the code itself is never stored). */
export const oauthCode = (codeVerifier: string) => ({ pk: `OAUTHCODE#${codeVerifier}`, sk: 'OAUTHCODE' });

export const AuthorizationCodeEntity = entity<AuthorizationCode, { verifier: string }>({
  kind: 'oauthCode',
  schema: v.object({
    ...grantSubjectEntries,
    verifier: v.string(),
    redirectUri: v.string(),
    redirectUriGiven: v.optional(v.boolean(), false),
    codeChallenge: v.string(),
    refreshable: v.optional(v.boolean(), false),
    createdAt: v.string(),
    expiresAt: v.string(),
    status: v.picklist(['issued', 'redeemed']),
    familyId: orNull(v.string()),
  }),
  key: (c) => oauthCode(c.verifier),
  attributes: (c) => ({ ttl: retentionTtl(c.expiresAt) }),
});
