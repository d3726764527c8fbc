/**
 * Outgoing e-mail through one port. Deployed stacks send with Amazon SES (`MAIL_TRANSPORT=ses`, from
 * `MAIL_FROM`); the local stack keeps every mail as an item of the table (`MAIL_TRANSPORT=table`), where
 * `npm run admin -- emails --json` shows it.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '../db/client.ts';
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
    ses ??= new SESv2Client({});
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
  const out: SentMail[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({
      TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.mailListing('', '').gsi1pk }, ExclusiveStartKey,
    }));
    out.push(...(page.Items ?? []).map((i) => ({ id: i.id, to: i.to, subject: i.subject, text: i.text, sentAt: i.sentAt })));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
