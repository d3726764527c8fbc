/**
 * The mails of the table (./mail.entity.ts): those the local transport keeps instead of sending them, listed oldest
 * first; and those to send, written by the change they tell of and taken by one sender each.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, queryGsi1, tableName, updateIfCondition } from '../db/client.ts';
import type { TransactItem } from '../db/types.ts';
import { type Mail, MailEntity, mailListing, type OutgoingMail, OutgoingMailEntity, outgoingMailKey, type SentMail } from './mail.entity.ts';

/** Keeps `mail`, sent at `now`. */
export async function keepMail(mail: Mail, now: string): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: MailEntity.item({ id: randomUUID(), ...mail, sentAt: now }) }));
}

/** Every kept mail, oldest first. */
export async function keptMails(): Promise<SentMail[]> {
  const items = await queryGsi1(mailListing('', '').gsi1pk);
  return items.map(MailEntity.parse);
}

/** The put of a mail to send (a new one: its id is its own). */
export const putOutgoingMail = (mail: OutgoingMail): TransactItem => ({
  Put: { TableName: tableName(), Item: OutgoingMailEntity.item(mail), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Takes the mail `id` to send at `now`: false when a sender has it already (or it is gone). */
export async function takeOutgoingMail(id: string, now: string): Promise<boolean> {
  const taken = await updateIfCondition({
    TableName: tableName(),
    Key: outgoingMailKey(id),
    UpdateExpression: 'SET sentAt = :now',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sentAt)',
    ExpressionAttributeValues: { ':now': now },
  });
  return taken !== null;
}

/** Gives back the mail `id` taken at `takenAt`, not sent: the next delivery of its record takes it again. */
export async function giveBackOutgoingMail(id: string, takenAt: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: outgoingMailKey(id),
      UpdateExpression: 'REMOVE sentAt',
      ConditionExpression: 'sentAt = :at',
      ExpressionAttributeValues: { ':at': takenAt },
    }),
  );
}
