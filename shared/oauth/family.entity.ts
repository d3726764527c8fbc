/**
 * An OAuth token family (`OAUTHFAMILY#<familyId>` / `OAUTHFAMILY`): what one consent granted (person, merchant,
 * scopes, client, resource) and whether it still stands. Listed per (merchant, person) on gsi1 by creation
 * (`OAUTHFAMILIES#<merchantId>#<userId>`), so removing a person from a merchant's team revokes theirs without a Scan.
 */
import * as v from 'valibot';
import { isAgentScope, type AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { RETENTION_AFTER_EXPIRY_SECONDS } from './oauth.rules.ts';

/** What a consent granted, shared by every token issued from it. */
export interface GrantSubject {
  clientId: string;
  userId: string;
  merchantId: string;
  scopes: AgentScope[];
  /** The resource (RFC 8707) the tokens are for: the deployment's MCP endpoint. */
  resource: string;
  mode: Mode;
}

export interface TokenFamily extends GrantSubject {
  id: string;
  createdAt: string;
  /** No token of the family lives past it. */
  expiresAt: string;
  status: 'active' | 'revoked';
  revokedAt: string | null;
  /** Why it was revoked: `code_reuse`, `refresh_token_reuse`, `revocation` (RFC 7009) or `member_removed`. */
  revokedBecause: string | null;
}

/** An OAuth token family: what one consent granted, and whether it still stands. */
export const oauthFamily = (familyId: string) => ({ pk: `OAUTHFAMILY#${familyId}`, sk: 'OAUTHFAMILY' });
/** A person's OAuth token families on one merchant, listed by creation (gsi1): what removing them from the team revokes. */
export const oauthFamilyListing = (merchantId: string, userId: string, createdAt: string, familyId: string) => ({
  gsi1pk: `OAUTHFAMILIES#${merchantId}#${userId}`,
  gsi1sk: `${createdAt}#${familyId}`,
});
export const oauthFamiliesOf = (merchantId: string, userId: string) => ({ gsi1pk: `OAUTHFAMILIES#${merchantId}#${userId}` });

/** DynamoDB deletes an OAuth record some time after this (epoch seconds); every read checks expiry itself. */
export const retentionTtl = (expiresAt: string): number => Math.ceil(Date.parse(expiresAt) / 1000) + RETENTION_AFTER_EXPIRY_SECONDS;

/** The granted scopes as stored; a scope the platform no longer has grants nothing. */
export const grantedScopes = v.pipe(
  v.array(v.unknown()),
  v.transform((scopes) => scopes.filter(isAgentScope)),
);

/** The fields of a `GrantSubject`, as every OAuth record that carries one stores them. */
export const grantSubjectEntries = {
  clientId: v.string(),
  userId: v.string(),
  merchantId: v.string(),
  scopes: grantedScopes,
  resource: v.string(),
  mode: v.picklist(['test', 'live']),
};

export const TokenFamilyEntity = entity<TokenFamily, { id: string }>({
  kind: 'oauthFamily',
  schema: v.object({
    ...grantSubjectEntries,
    id: v.string(),
    createdAt: v.string(),
    expiresAt: v.string(),
    status: v.picklist(['active', 'revoked']),
    revokedAt: orNull(v.string()),
    revokedBecause: orNull(v.string()),
  }),
  key: (f) => oauthFamily(f.id),
  attributes: (f) => ({ ...oauthFamilyListing(f.merchantId, f.userId, f.createdAt, f.id), ttl: retentionTtl(f.expiresAt) }),
});
