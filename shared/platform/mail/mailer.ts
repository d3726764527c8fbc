/**
 * Outgoing e-mail through one port. Deployed stacks send with Amazon SES (`MAIL_TRANSPORT=ses`, from
 * `MAIL_FROM`: one SESv2 `SendEmail`, signed by `shared/platform/aws/signed-fetch.ts`, no SDK client); the local stack
 * keeps every mail as an item of the table (`MAIL_TRANSPORT=table`), where `npm run admin -- emails --json`
 * shows it.
 */
import { awsFetch, endpointOf } from '../aws/signed-fetch.ts';
import type { Mail, SentMail } from './mail.entity.ts';
import { keepMail, keptMails } from './mails.repository.ts';

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
  await keepMail(mail, now);
}

/** Mails kept by the local transport, oldest first. */
export const listKeptMails = (): Promise<SentMail[]> => keptMails();
