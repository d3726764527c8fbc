/**
 * Card tokens of an organization (`CARDTOKEN#<id>` / `CARDTOKEN`, listed through gsi1 by creation under
 * `CARDTOKENS#<orgId>`). A token holds what tokenization may keep — brand, last four digits, expiry, the keyed
 * fingerprint and the processor's reference — never the number or the verification value. It is single-use:
 * `consumeCardToken` is the condition that makes it so, inside the transaction of whatever uses it.
 *
 * Token items carry a `ttl` (HISTORY_RETENTION_DAYS after the token expired), so DynamoDB removes them in time;
 * what a token became (a payment instrument) keeps its own copy of the card details.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { cancelledPart, db, type NamedParts, tableName } from '../platform/db/client.ts';
import { historyTtl, stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { CardBrand } from '../domain/card-data.ts';

export interface CardToken {
  id: string;
  organizationId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Keyed HMAC of the card number (shared/payments/processor/fingerprint.ts). */
  fingerprint: string;
  /** The processor's reference of the vaulted card. */
  processorReference: string;
  createdAt: string;
  expiratedAt: string;
  /** When the token was used (it can be used once); null while unused. */
  consumedAt: string | null;
}

/** Token ids: `tok_` and 24 alphanumerics. */
export const isCardTokenId = (id: string): boolean => /^tok_[A-Za-z0-9]{24}$/.test(id);

function toItem(t: CardToken): Record<string, unknown> {
  const { consumedAt, ...rest } = t;
  return {
    ...keys.catalogItem('CARDTOKEN', t.id),
    ...keys.cardTokenListing(t.organizationId, t.id, t.createdAt),
    entity: 'cardToken',
    ...rest,
    ...(consumedAt ? { consumedAt } : {}),
    ttl: historyTtl(t.expiratedAt),
  };
}

export function fromItem(i: Record<string, unknown>): CardToken {
  return {
    id: i.id as string,
    organizationId: i.organizationId as string,
    brand: i.brand as CardBrand,
    last4: i.last4 as string,
    expMonth: Number(i.expMonth),
    expYear: Number(i.expYear),
    fingerprint: i.fingerprint as string,
    processorReference: i.processorReference as string,
    createdAt: i.createdAt as string,
    expiratedAt: i.expiratedAt as string,
    consumedAt: stringOrNull(i.consumedAt),
  };
}

/** Create; the id is new, so the condition only guards against an id collision. */
export async function createCardToken(t: CardToken): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: toItem(t), ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** The organization's token `tokenId`, used or not, expired or not; null for unknown, malformed and other organizations' ids. */
export async function getCardToken(organizationId: string, tokenId: string): Promise<CardToken | null> {
  if (!isCardTokenId(tokenId)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('CARDTOKEN', tokenId), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? fromItem(Item) : null;
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
      Key: keys.catalogItem('CARDTOKEN', tokenId),
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
 * Why `consumeCardToken` failed, from the item its failed condition saw (undefined: there was none) — for a
 * service that maps it to an error.
 */
export function cardTokenRefusal(organizationId: string, old: Record<string, unknown> | undefined, now: string): CardTokenRefusal {
  if (!old || old.organizationId !== organizationId) return 'not_found';
  if (old.consumedAt) return 'consumed';
  if ((old.expiratedAt as string) <= now) return 'expired';
  // The condition failed on an item that now looks usable: it cannot happen; treat it as used.
  return 'consumed';
}

/** One offset page of the organization's tokens, by creation (a Query on gsi1). */
export async function listCardTokens(organizationId: string, options: Omit<CatalogListOptions, 'sortBy' | 'filter'>) {
  const page = await listCatalogPage('CARDTOKEN', organizationId, { ...options, sortBy: 'createdAt' });
  return { totalCount: page.totalCount, items: page.items.map(fromItem) };
}

/**
 * For a cancelled `transactWrite` of `parts` whose part `name` is `consumeCardToken`: why the token could not be
 * used, or null when the cancellation was not this item's doing (the caller rethrows then).
 */
export function cardTokenRefusalOf<N extends string>(e: unknown, parts: NamedParts<N>, name: N, organizationId: string, now: string): CardTokenRefusal | null {
  const failed = cancelledPart(e, parts, name)?.find((r) => r.code === 'ConditionalCheckFailed');
  return failed ? cardTokenRefusal(organizationId, failed.item, now) : null;
}
