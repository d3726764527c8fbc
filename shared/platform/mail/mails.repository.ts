/**
 * The mails to send of the table (./mail.entity.ts): written by the change they tell of, taken by one sender each.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../db/client.ts';
import { refusedItem } from '../db/refused-item.ts';
import type { TransactItem } from '../db/types.ts';
import { type OutgoingMail, OutgoingMailEntity, outgoingMailKey } from './mail.entity.ts';

/** The put of a mail to send (a new one: its id is its own). */
export const putOutgoingMail = (mail: OutgoingMail): TransactItem => ({
  Put: { TableName: tableName(), Item: OutgoingMailEntity.item(mail), ConditionExpression: 'attribute_not_exists(pk)' },
});

/**
 * Takes the mail `id` to send at `now`: false when a sender has it already (or it is gone). The take carries its own
 * random `takenBy`: the SDK's retry of a take that landed (its answer lost) finds the mail taken by this very take and
 * answers true, where it would otherwise leave the mail taken by no one who sends it.
 */
export async function takeOutgoingMail(id: string, now: string): Promise<boolean> {
  const takenBy = randomUUID();
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: outgoingMailKey(id),
        UpdateExpression: 'SET sentAt = :now, takenBy = :me',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sentAt)',
        ExpressionAttributeValues: { ':now': now, ':me': takenBy },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return true;
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    return refusedItem(e)?.takenBy === takenBy;
  }
}

/** Gives back the mail `id` taken at `takenAt`, not sent: the next delivery of its record takes it again. */
export async function giveBackOutgoingMail(id: string, takenAt: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: outgoingMailKey(id),
      UpdateExpression: 'REMOVE sentAt, takenBy',
      ConditionExpression: 'sentAt = :at',
      ExpressionAttributeValues: { ':at': takenAt },
    }),
  );
}
