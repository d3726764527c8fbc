/**
 * The sandbox processor's own state in the table, apart from the platform's records
 * (shared/processor/sandbox-processor.ts): its vault of cards, its charges and refunds (one per idempotency key, each written once with
 * `attribute_not_exists`), and each charge's refunded total.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type SandboxBehaviour, type SandboxCard, SandboxCardEntity } from './sandbox-card.entity.ts';
import { SandboxChargeRefundsEntity } from './sandbox-charge-refunds.entity.ts';
import { type SandboxCharge, SandboxChargeEntity, sandboxChargeById, sandboxChargesOf } from './sandbox-charge.entity.ts';
import { type SandboxRefund, SandboxRefundEntity } from './sandbox-refund.entity.ts';
import { db, isConditionFailed, tableName, sendIfCondition, putFresh, updateIfCondition } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** A new vault entry (its reference is new, so the condition only guards a collision). */
export async function putSandboxCard(card: SandboxCard): Promise<void> {
  await putFresh(SandboxCardEntity.item(card));
}

/** The vault entry of `reference`, or null. */
export async function getSandboxCardEntry(reference: string): Promise<SandboxCard | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SandboxCardEntity.key({ reference }), ConsistentRead: true }));
  return SandboxCardEntity.parseOrNull(Item);
}

/**
 * Sets what charges of the vaulted card `reference` do: `behaviour`, keeping what it did when vaulted in
 * `vaultedBehaviour`; or with `'vaulted'` that behaviour again. One Update, conditional on the card being in the
 * vault: null when it is not.
 */
export async function updateSandboxCardBehaviour(reference: string, behaviour: SandboxBehaviour | 'vaulted'): Promise<SandboxCard | null> {
  const item = await updateIfCondition({
    TableName: tableName(),
    Key: SandboxCardEntity.key({ reference }),
    ...(behaviour === 'vaulted'
      ? { UpdateExpression: 'SET #behaviour = if_not_exists(#vaulted, #behaviour) REMOVE #vaulted' }
      : {
          UpdateExpression: 'SET #behaviour = :behaviour, #vaulted = if_not_exists(#vaulted, #behaviour)',
          ExpressionAttributeValues: { ':behaviour': behaviour },
        }),
    ExpressionAttributeNames: { '#behaviour': 'behaviour', '#vaulted': 'vaultedBehaviour' },
    ConditionExpression: 'attribute_exists(pk)',
  });
  return SandboxCardEntity.parseOrNull(item ?? undefined);
}

/**
 * Records `charge` under its key, once (`attribute_not_exists`): null when it was written, else the charge the key
 * already holds (sent back by the refused write, or read).
 */
export async function putSandboxCharge(charge: SandboxCharge): Promise<SandboxCharge | null> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: SandboxChargeEntity.item(charge),
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return null;
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    const first = SandboxChargeEntity.failedItem(e) ?? (await getSandboxCharge(charge.keyHash));
    if (!first) throw e;
    return first;
  }
}

/** The charge made under the idempotency key of hash `keyHash`, or null. */
export async function getSandboxCharge(keyHash: string): Promise<SandboxCharge | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SandboxChargeEntity.key({ keyHash }), ConsistentRead: true }));
  return SandboxChargeEntity.parseOrNull(Item);
}

/** Every charge made on the card `reference`, oldest first (one Query of its gsi1 partition). */
export async function listSandboxCharges(reference: string): Promise<SandboxCharge[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': sandboxChargesOf(reference).gsi1pk },
    }),
  );
  return (Items ?? []).map(SandboxChargeEntity.parse);
}

/** The charge `chargeId` (through its id index, gsi2), or null. */
export async function getSandboxChargeById(chargeId: string): Promise<SandboxCharge | null> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': sandboxChargeById(chargeId).gsi2pk },
    }),
  );
  return SandboxChargeEntity.parseOrNull(Items?.[0]);
}

/** A new refund under its key, once (`attribute_not_exists`), for the transaction that takes it from its charge. */
export const newSandboxRefund = (refund: SandboxRefund): TransactItem => ({
  Put: { TableName: tableName(), Item: SandboxRefundEntity.item(refund), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Records `refund` under its key, once: false when the key already holds a refund. */
export async function putSandboxRefund(refund: SandboxRefund): Promise<boolean> {
  return sendIfCondition(new PutCommand(newSandboxRefund(refund).Put!));
}

/** The refund made under the idempotency key of hash `keyHash`, or null. */
export async function getSandboxRefund(keyHash: string): Promise<SandboxRefund | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SandboxRefundEntity.key({ keyHash }), ConsistentRead: true }));
  return SandboxRefundEntity.parseOrNull(Item);
}

/** Adds `refundMinor` to the refunded total of the charge `chargeId` (of `chargedMinor`), on the condition that it stays within the charge. */
export const takeFromCharge = (chargeId: string, chargedMinor: number, refundMinor: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: SandboxChargeRefundsEntity.key({ chargeId }),
    UpdateExpression: 'SET entity = :entity, amountMinor = :charged ADD refundedMinor :r',
    ConditionExpression: 'attribute_not_exists(refundedMinor) OR refundedMinor <= :maxBefore',
    ExpressionAttributeValues: {
      ':entity': SandboxChargeRefundsEntity.kind,
      ':charged': chargedMinor,
      ':r': refundMinor,
      ':maxBefore': chargedMinor - refundMinor,
    },
  },
});

/** How much of the charge `chargeId` its refunds gave back, in minor units (0 when none did). */
export async function getSandboxRefundedMinor(chargeId: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: SandboxChargeRefundsEntity.key({ chargeId }), ConsistentRead: true }));
  return SandboxChargeRefundsEntity.parseOrNull(Item)?.refundedMinor ?? 0;
}
