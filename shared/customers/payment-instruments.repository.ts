/**
 * Payment instruments: what a customer's used card token became (`PAYMENTINSTRUMENT#<id>` / `PAYMENTINSTRUMENT`,
 * listed per customer through gsi1 under `CUSTOMERINSTRUMENTS#<orgId>#<customerId>` by creation). An instrument
 * keeps what tokenization kept — brand, last four digits, expiry, the keyed fingerprint and the processor's
 * reference — never a card number or verification value.
 *
 * Attaching is one transaction (`attachPaymentInstrument`): the instrument's Put, the token's single use
 * (`consumeCardToken`) and the customer item's condition, which also makes the instrument the customer's
 * primary one when the customer has none yet.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { cardTokenRefusalOf, consumeCardToken, type CardTokenRefusal } from './card-tokens.repository.ts';
import { db, queryAll, tableName, updateOrRefused } from '../platform/db/client.ts';
import { cancelledPartItem, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { PaymentMethod } from '../domain/payment-methods.ts';
import type { GatewaySlug } from './payment-instruments.schemas.ts';
import { customerKey } from './customer.entity.ts';
import { type BillingAddress, customerInstrumentsOf, type PaymentInstrument, PaymentInstrumentEntity } from './payment-instrument.entity.ts';

/** Payment instrument ids: `inst_` and 32 lowercase hex digits. */
export const isPaymentInstrumentId = (id: string): boolean => /^inst_[0-9a-f]{32}$/.test(id);

/**
 * The organization's payment instrument `id` (deleted ones too: `deletedAt` says so); null for unknown and
 * malformed ids and for another organization's instruments. One consistent read.
 */
export async function getPaymentInstrument(organizationId: string, id: string): Promise<PaymentInstrument | null> {
  if (!isPaymentInstrumentId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PaymentInstrumentEntity.key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? PaymentInstrumentEntity.parse(Item) : null;
}

/**
 * What the customer's item must say for an attach: whether it has a primary instrument (read just before); or, to make
 * the new one its primary in place of another, which one it has (`replacing`, null: none).
 */
export interface AttachingCustomer {
  organizationId: string;
  id: string;
  hasPrimary: boolean;
  replacing?: string | null;
}

/** How an attach ended: written; refused by the token (why); or the customer changed since it was read (read it again). */
export type AttachOutcome = { attached: true } | { attached: false; token: CardTokenRefusal } | { attached: false; customerChanged: true };

/**
 * Attaches `p` in one transaction: the instrument's Put (a new id), the token's single use (`consumeCardToken`:
 * exists in the organization, unused, unexpired) and the customer's item. A customer read without a primary
 * instrument gets this one as primary (`{method, id}`, and its `updatedAt`), on the condition that it exists and
 * still has none; one with `replacing` gets it in place of that one, on the condition that it still has that one;
 * else a customer with one only has to exist (a ConditionCheck). Of two attaches of one token, one commits and the
 * other is refused on the token.
 */
export async function attachPaymentInstrument(p: PaymentInstrument, customer: AttachingCustomer, now: string): Promise<AttachOutcome> {
  const Key = customerKey(customer.organizationId, customer.id);
  const was = customer.replacing;
  const customerItem: TransactItem =
    was === undefined && customer.hasPrimary
      ? { ConditionCheck: { TableName: tableName(), Key, ConditionExpression: 'attribute_exists(pk)' } }
      : {
          Update: {
            TableName: tableName(),
            Key,
            UpdateExpression: 'SET primaryPaymentInstrument = :ref, updatedAt = :now',
            ConditionExpression: was ? 'primaryPaymentInstrument.id = :was' : 'attribute_exists(pk) AND attribute_not_exists(primaryPaymentInstrument)',
            ExpressionAttributeValues: { ':ref': { method: p.method, id: p.id }, ':now': now, ...(was ? { ':was': was } : {}) },
          },
        };
  const parts: NamedParts<'instrument' | 'token' | 'customer'> = [
    ['instrument', [putNewPaymentInstrument(p)]],
    ['token', [consumeCardToken(p.organizationId, p.tokenId, now)]],
    ['customer', [customerItem]],
  ];
  try {
    await transactWrite(parts);
    return { attached: true };
  } catch (e) {
    const refusal = cardTokenRefusalOf(e, parts, 'token', p.organizationId, now);
    if (refusal) return { attached: false, token: refusal };
    if (failedParts(e, parts)?.has('customer')) return { attached: false, customerChanged: true };
    throw e;
  }
}

/**
 * The condition that the organization's customer `customerId` still has `instrumentId` as its primary instrument, for
 * a transaction that acts on it being so (a subscription taking the customer's new card).
 */
export const primaryIs = (organizationId: string, customerId: string, instrumentId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: customerKey(organizationId, customerId),
    ConditionExpression: 'primaryPaymentInstrument.id = :id',
    ExpressionAttributeValues: { ':id': instrumentId },
  },
});

/** A new instrument, for a transaction that also uses its token up (`consumeCardToken`); the id is new, so the condition only guards a collision. */
export function putNewPaymentInstrument(p: PaymentInstrument): TransactItem {
  return { Put: { TableName: tableName(), Item: PaymentInstrumentEntity.item(p), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * Every payment instrument of the organization's customer, oldest first: one Query of the customer's gsi1
 * partition (a customer has a handful; the list filters, sorts and pages them in memory).
 */
export async function listCustomerInstruments(organizationId: string, customerId: string): Promise<PaymentInstrument[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': customerInstrumentsOf(organizationId, customerId).gsi1pk },
  });
  return items.map(PaymentInstrumentEntity.parse);
}

/** The fields an update may change (given ones only; null clears a billing-address field). */
export interface PaymentInstrumentChanges {
  billingAddress?: Partial<BillingAddress>;
  expiry?: { expMonth: number; expYear: number };
  stickyGatewaySlug?: GatewaySlug;
  method?: PaymentMethod;
  useAsBackup?: boolean;
}

/** Why an update was refused: no such instrument in the organization; deleted; card fields on an instrument that is no card. */
export type UpdateRefusal = 'not_found' | 'deleted' | 'not_a_card';

/**
 * The conditional Update of the given fields (one SET or REMOVE per field, so concurrent updates of different
 * fields both land; billing-address fields one by one inside the map): the instrument must exist in
 * `organizationId` and not be deleted, and card fields need a card. Never an upsert.
 */
function updateOf(organizationId: string, id: string, changes: PaymentInstrumentChanges, now: string) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':org': organizationId, ':now': now };
  const sets = ['updatedAt = :now'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(changes.billingAddress ?? {})) {
    if (value === undefined) continue;
    names['#ba'] = 'billingAddress';
    names[`#ba_${field}`] = field;
    if (value === null) removes.push(`#ba.#ba_${field}`);
    else {
      values[`:ba_${field}`] = value;
      sets.push(`#ba.#ba_${field} = :ba_${field}`);
    }
  }
  const card = changes.expiry !== undefined || changes.stickyGatewaySlug !== undefined;
  if (changes.expiry) {
    values[':expMonth'] = changes.expiry.expMonth;
    values[':expYear'] = changes.expiry.expYear;
    sets.push('creditCard.expMonth = :expMonth', 'creditCard.expYear = :expYear');
  }
  if (changes.stickyGatewaySlug !== undefined) {
    values[':slug'] = changes.stickyGatewaySlug;
    sets.push('creditCard.stickyGatewaySlug = :slug');
  }
  if (changes.method !== undefined) {
    names['#method'] = 'method';
    values[':method'] = changes.method;
    sets.push('#method = :method');
  }
  if (changes.useAsBackup !== undefined) {
    values[':backup'] = changes.useAsBackup;
    sets.push('useAsBackup = :backup');
  }
  return {
    TableName: tableName(),
    Key: PaymentInstrumentEntity.key({ id }),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: `attribute_exists(pk) AND organizationId = :org AND attribute_not_exists(deletedAt)${card ? ' AND attribute_exists(creditCard)' : ''}`,
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  };
}

function refusalOf(organizationId: string, old: PaymentInstrument | null): UpdateRefusal {
  if (!old || old.organizationId !== organizationId) return 'not_found';
  if (old.deletedAt) return 'deleted';
  return 'not_a_card';
}

/** Changes the given fields of the organization's instrument (one conditional Update); the instrument as it now is, or why not. */
export async function updatePaymentInstrument(
  organizationId: string,
  id: string,
  changes: PaymentInstrumentChanges,
  now: string,
): Promise<PaymentInstrument | UpdateRefusal> {
  if (!isPaymentInstrumentId(id)) return 'not_found';
  const outcome = await updateOrRefused(updateOf(organizationId, id, changes, now));
  if ('updated' in outcome) return PaymentInstrumentEntity.parse(outcome.updated);
  return refusalOf(organizationId, PaymentInstrumentEntity.parseOrNull(outcome.refused));
}

/**
 * The same update for an instrument that is its customer's primary one, with a new `method`: one transaction
 * that also changes the method the customer's `primaryPaymentInstrument` names, on the condition that the
 * customer's primary instrument is still this one (else `customer_changed`: the caller decides again). The
 * instrument as it now is comes from a consistent read after the commit.
 */
export async function updatePrimaryPaymentInstrument(
  organizationId: string,
  id: string,
  customerId: string,
  changes: PaymentInstrumentChanges & { method: PaymentMethod },
  now: string,
): Promise<PaymentInstrument | UpdateRefusal | 'customer_changed'> {
  if (!isPaymentInstrumentId(id)) return 'not_found';
  const customerUpdate: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: customerKey(organizationId, customerId),
      UpdateExpression: 'SET primaryPaymentInstrument.#method = :method, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND primaryPaymentInstrument.id = :id',
      ExpressionAttributeNames: { '#method': 'method' },
      ExpressionAttributeValues: { ':method': changes.method, ':id': id, ':now': now },
    },
  };
  const parts: NamedParts<'instrument' | 'customer'> = [
    ['instrument', [{ Update: { ...updateOf(organizationId, id, changes, now), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }]],
    ['customer', [customerUpdate]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (!failed) throw e;
    if (failed.has('instrument')) return refusalOf(organizationId, PaymentInstrumentEntity.parseOrNull(cancelledPartItem(e, parts, 'instrument')));
    if (failed.has('customer')) return 'customer_changed';
    throw e;
  }
  return (await getPaymentInstrument(organizationId, id)) ?? 'not_found';
}
