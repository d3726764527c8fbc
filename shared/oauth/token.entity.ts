/**
 * An OAuth access or refresh token (`OAUTHTOKEN#<tokenId>` / `OAUTHTOKEN`), found by its id (a derivation of the
 * token; only the SHA-256 of the token is stored). It names its family and carries the family's grant, so a token
 * and its family are read in one call.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';
import { grantSubjectEntries, retentionTtl, type GrantSubject } from './family.entity.ts';
import type { TokenKind } from './oauth.rules.ts';

export interface OAuthToken extends GrantSubject {
  id: string;
  kind: TokenKind;
  /** SHA-256 of the token. */
  verifier: string;
  familyId: string;
  createdAt: string;
  expiresAt: string;
  /** `used`: a refresh token already exchanged for the next pair (a second use is a reuse). */
  status: 'active' | 'used' | 'revoked';
}

/** An OAuth access or refresh token, found by its id (a derivation of the token). */
export const oauthToken = (tokenId: string) => ({ pk: `OAUTHTOKEN#${tokenId}`, sk: 'OAUTHTOKEN' });

export const OAuthTokenEntity = entity<OAuthToken, { id: string }>({
  kind: 'oauthToken',
  schema: v.object({
    ...grantSubjectEntries,
    id: v.string(),
    kind: v.picklist(['access', 'refresh']),
    verifier: v.string(),
    familyId: v.string(),
    createdAt: v.string(),
    expiresAt: v.string(),
    status: v.picklist(['active', 'used', 'revoked']),
  }),
  key: (t) => oauthToken(t.id),
  attributes: (t) => ({ ttl: retentionTtl(t.expiresAt) }),
});
