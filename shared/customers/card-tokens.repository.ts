/**
 * Card tokens of an organization (`CARDTOKEN#<id>` / `CARDTOKEN`, listed through gsi1 by creation under
 * `CARDTOKENS#<orgId>`). A token holds what tokenization may keep — brand, last four digits, expiry, the keyed
 * fingerprint and the processor's reference — never the number or the verification value. It is single-use:
 * `consumeCardToken` is the condition that makes it so, inside the transaction of whatever uses it.
 *
 * Token items carry a `ttl` (HISTORY_RETENTION_DAYS after the token expired), so DynamoDB removes them in time;
 * what a token became (a payment instrument) keeps its own copy of the card details.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import { cancelledPart, type NamedParts } from '../platform/db/transactions.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type CardToken, CardTokenEntity } from './card-token.entity.ts';

/** Token ids: `tok_` and 24 alphanumerics. */
export const isCardTokenId = (id: string): boolean => /^tok_[A-Za-z0-9]{24}$/.test(id);

/** Create; the id is new, so the condition only guards against an id collision. */
export async function createCardToken(t: CardToken): Promise<void> {
  await putFresh(CardTokenEntity.item(t));
}

/** The organization's token `tokenId`, used or not, expired or not; null for unknown, malformed and other organizations' ids. */
export async function getCardToken(organizationId: string, tokenId: string): Promise<CardToken | null> {
  if (!isCardTokenId(tokenId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: CardTokenEntity.key({ id: tokenId }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? CardTokenEntity.parse(Item) : null;
}

/**
 * The transaction item that uses a token: sets `consumedAt = now` on the condition that the token exists,
 * belongs to `organizationId`, is unused and has not expired (`expiratedAt > now`). Two transactions that use one
 * token: one commits, the other is cancelled with `ConditionalCheckFailed` on this item. The failed item comes
 * back with the cancellation (`ALL_OLD`), so `cardTokenRefusal` can say why.
 */
export function consumeCardToken(organizationId: string, tokenId: string, now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: CardTokenEntity.key({ id: tokenId }),
      UpdateExpression: 'SET consumedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND organizationId = :org AND attribute_not_exists(consumedAt) AND expiratedAt > :now',
      ExpressionAttributeValues: { ':org': organizationId, ':now': now },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Why a token could not be used: none of the organization's; used already; expired. */
export type CardTokenRefusal = 'not_found' | 'consumed' | 'expired';

/**
 * Why `consumeCardToken` failed, from the token its failed condition saw (null: there was none) — for a
 * service that maps it to an error.
 */
export function cardTokenRefusal(organizationId: string, old: CardToken | null, now: string): CardTokenRefusal {
  if (!old || old.organizationId !== organizationId) return 'not_found';
  if (old.consumedAt) return 'consumed';
  if (old.expiratedAt <= now) return 'expired';
  // The condition failed on an item that now looks usable: it cannot happen; treat it as used.
  return 'consumed';
}

/** One offset page of the organization's tokens, by creation (a Query on gsi1). */
export async function listCardTokens(organizationId: string, options: Omit<CatalogListOptions, 'sortBy' | 'filter'>) {
  const page = await listCatalogPage('CARDTOKEN', organizationId, { ...options, sortBy: 'createdAt' });
  return { totalCount: page.totalCount, items: page.items.map(CardTokenEntity.parse) };
}

/**
 * For a cancelled `transactWrite` of `parts` whose part `name` is `consumeCardToken`: why the token could not be
 * used, or null when the cancellation was not this item's doing (the caller rethrows then).
 */
export function cardTokenRefusalOf<N extends string>(e: unknown, parts: NamedParts<N>, name: N, organizationId: string, now: string): CardTokenRefusal | null {
  const failed = cancelledPart(e, parts, name)?.find((r) => r.code === 'ConditionalCheckFailed');
  return failed ? cardTokenRefusal(organizationId, CardTokenEntity.parseOrNull(failed.item), now) : null;
}
