/**
 * OAuth authorization codes, found by the SHA-256 of the code. A code is issued once at consent, bound to its
 * client, redirect URI, PKCE challenge and resource, and redeemed at most once: the redemption records the family
 * of tokens it started, which a second redemption by the same client (with its PKCE verifier) revokes.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { RETENTION_AFTER_EXPIRY_SECONDS } from './oauth.rules.ts';

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

const fromItem = (item: Record<string, unknown>): AuthorizationCode => ({
  verifier: item.verifier as string,
  clientId: item.clientId as string,
  redirectUri: item.redirectUri as string,
  redirectUriGiven: item.redirectUriGiven === true,
  codeChallenge: item.codeChallenge as string,
  resource: item.resource as string,
  userId: item.userId as string,
  merchantId: item.merchantId as string,
  scopes: item.scopes as AgentScope[],
  refreshable: item.refreshable === true,
  mode: item.mode as Mode,
  createdAt: item.createdAt as string,
  expiresAt: item.expiresAt as string,
  status: item.status as AuthorizationCode['status'],
  familyId: stringOrNull(item.familyId),
});

export async function putNewCode(code: AuthorizationCode): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.oauthCode(code.verifier),
        entity: 'oauthCode',
        ...code,
        ttl: Math.ceil(Date.parse(code.expiresAt) / 1000) + RETENTION_AFTER_EXPIRY_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getCode(verifier: string): Promise<AuthorizationCode | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.oauthCode(verifier), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** Redeem a code that is still issued and unexpired, recording the family it starts: of two redemptions one wins. */
export const redeemCode = (verifier: string, familyId: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.oauthCode(verifier),
    UpdateExpression: 'SET #status = :redeemed, familyId = :familyId, redeemedAt = :now',
    ConditionExpression: '#status = :issued AND expiresAt > :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':redeemed': 'redeemed', ':issued': 'issued', ':familyId': familyId, ':now': now },
  },
});
