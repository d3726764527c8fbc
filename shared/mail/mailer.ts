/**
 * Outgoing e-mail through one port. Deployed stacks send with Amazon SES (`MAIL_TRANSPORT=ses`, from
 * `MAIL_FROM`); the local stack keeps every mail as an item of the table (`MAIL_TRANSPORT=table`), where
 * `npm run admin -- emails --json` shows it.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, queryGsi1, tableName } from '../db/client.ts';
import { keys } from '../db/keys.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail extends Mail {
  id: string;
  sentAt: string;
}

let ses: SESv2Client | undefined;

export async function sendMail(mail: Mail, now = new Date().toISOString()): Promise<void> {
  if (process.env.MAIL_TRANSPORT === 'ses') {
    ses ??= new SESv2Client({ credentials: fromEnv() });
    await ses.send(new SendEmailCommand({
      FromEmailAddress: process.env.MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Content: { Simple: { Subject: { Data: mail.subject }, Body: { Text: { Data: mail.text } } } },
    }));
    return;
  }
  const id = randomUUID();
  await db.send(new PutCommand({
    TableName: tableName(),
    Item: { ...keys.mail(id), ...keys.mailListing(now, id), entity: 'mail', id, ...mail, sentAt: now },
  }));
}

/** Mails kept by the local transport, oldest first. */
export async function listKeptMails(): Promise<SentMail[]> {
  const items = await queryGsi1(keys.mailListing('', '').gsi1pk);
  return items.map((i) => ({ id: i.id as string, to: i.to as string, subject: i.subject as string, text: i.text as string, sentAt: i.sentAt as string }));
}
