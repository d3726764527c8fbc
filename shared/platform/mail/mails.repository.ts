/**
 * The mails to send of the table (./mail.entity.ts): written by the change they tell of, taken by one sender each.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition, tableName } from '../db/client.ts';
import type { TransactItem } from '../db/types.ts';
import { type OutgoingMail, OutgoingMailEntity, outgoingMailKey } from './mail.entity.ts';

/** The put of a mail to send (a new one: its id is its own). */
export const putOutgoingMail = (mail: OutgoingMail): TransactItem => ({
  Put: { TableName: tableName(), Item: OutgoingMailEntity.item(mail), ConditionExpression: 'attribute_not_exists(pk)' },
});

/**
 * Takes the mail `id` to send at `now`: false when a sender has it already (or it is gone). A take that landed and is
 * sent again by the SDK (its answer lost) is still this take's (`sendIfCondition`), where it would otherwise leave the
 * mail taken by no one who sends it.
 */
export const takeOutgoingMail = (id: string, now: string): Promise<boolean> =>
  sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: outgoingMailKey(id),
      UpdateExpression: 'SET sentAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sentAt)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );

/** Gives back the mail `id` taken at `takenAt`, not sent: the next delivery of its record takes it again. */
export async function giveBackOutgoingMail(id: string, takenAt: string): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: outgoingMailKey(id),
      UpdateExpression: 'REMOVE sentAt',
      ConditionExpression: 'sentAt = :at',
      ExpressionAttributeValues: { ':at': takenAt },
    }),
  );
}
