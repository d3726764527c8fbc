/**
 * Outgoing e-mail through one port. Deployed stacks send with Amazon SES (`MAIL_TRANSPORT=ses`, from
 * `MAIL_FROM`: one SESv2 `SendEmail`, signed by `shared/platform/aws/signed-fetch.ts`, no SDK client); the local stack
 * keeps every mail as an item of the table (`MAIL_TRANSPORT=table`), where `npm run admin -- emails --json`
 * shows it. A function given neither (one not marked as sending mail) fails to send: a mail never lands in the table
 * of a deployed stage instead of going out.
 */
import { awsFetch, endpointOf } from '../aws/signed-fetch.ts';
import { requiredEnv } from '../config.ts';
import type { Mail, SentMail } from './mail.entity.ts';
import { keepMail, keptMails } from './mails.repository.ts';

export async function sendMail(mail: Mail, now = new Date().toISOString()): Promise<void> {
  const transport = requiredEnv('MAIL_TRANSPORT');
  if (transport === 'ses') {
    // SESv2 SendEmail (a signed JSON POST, shared/platform/aws/signed-fetch.ts).
    await awsFetch('sesv2', `${endpointOf('sesv2')}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        FromEmailAddress: requiredEnv('MAIL_FROM'),
        Destination: { ToAddresses: [mail.to] },
        Content: { Simple: { Subject: { Data: mail.subject }, Body: { Text: { Data: mail.text } } } },
      }),
    });
    return;
  }
  if (transport !== 'table') throw new Error(`MAIL_TRANSPORT must be ses or table, not ${transport}`);
  await keepMail(mail, now);
}

/** SES's sending rate for the account (SESv2 `GetAccount`): the most mails it takes a second. */
export async function sesMaxSendRate(): Promise<number> {
  const res = await awsFetch('sesv2', `${endpointOf('sesv2')}/v2/email/account`, { method: 'GET' });
  const rate = ((await res.json()) as { SendQuota?: { MaxSendRate?: unknown } }).SendQuota?.MaxSendRate;
  if (typeof rate !== 'number' || !(rate > 0)) throw new Error(`SES gave no sending rate (MaxSendRate ${JSON.stringify(rate)})`);
  return rate;
}

/** Mails kept by the local transport, oldest first. */
export const listKeptMails = (): Promise<SentMail[]> => keptMails();
