/** The mails the local transport keeps in the table (instead of sending them), listed oldest first. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, queryGsi1, tableName } from '../db/client.ts';
import { type Mail, MailEntity, mailListing, type SentMail } from './mail.entity.ts';

/** Keeps `mail`, sent at `now`. */
export async function keepMail(mail: Mail, now: string): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: MailEntity.item({ id: randomUUID(), ...mail, sentAt: now }) }));
}

/** Every kept mail, oldest first. */
export async function keptMails(): Promise<SentMail[]> {
  const items = await queryGsi1(mailListing('', '').gsi1pk);
  return items.map(MailEntity.parse);
}
