/**
 * Outgoing e-mail through one port. Deployed stacks send with Amazon SES (`MAIL_TRANSPORT=ses`, from
 * `MAIL_FROM`: one SESv2 `SendEmail`, signed by `shared/platform/aws/signed-fetch.ts`, no SDK client); the local stack
 * keeps every mail as an item of the table (`MAIL_TRANSPORT=table`), where `npm run admin -- emails --json`
 * shows it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { awsFetch, endpointOf } from '../aws/signed-fetch.ts';
import { db, queryGsi1, tableName } from '../db/client.ts';
import * as keys from '../db/keys.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail extends Mail {
  id: string;
  sentAt: string;
}

export async function sendMail(mail: Mail, now = new Date().toISOString()): Promise<void> {
  if (process.env.MAIL_TRANSPORT === 'ses') {
    // SESv2 SendEmail (a signed JSON POST, shared/platform/aws/signed-fetch.ts).
    await awsFetch('sesv2', `${endpointOf('sesv2')}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        FromEmailAddress: process.env.MAIL_FROM,
        Destination: { ToAddresses: [mail.to] },
        Content: { Simple: { Subject: { Data: mail.subject }, Body: { Text: { Data: mail.text } } } },
      }),
    });
    return;
  }
  const id = randomUUID();
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.mail(id), ...keys.mailListing(now, id), entity: 'mail', id, ...mail, sentAt: now },
    }),
  );
}

/** Mails kept by the local transport, oldest first. */
export async function listKeptMails(): Promise<SentMail[]> {
  const items = await queryGsi1(keys.mailListing('', '').gsi1pk);
  return items.map((i) => ({ id: i.id as string, to: i.to as string, subject: i.subject as string, text: i.text as string, sentAt: i.sentAt as string }));
}
