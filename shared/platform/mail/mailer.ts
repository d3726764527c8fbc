/**
 * Outgoing e-mail: Amazon SES, from the stage's sender address (`MAIL_FROM`): one SESv2 `SendEmail`, signed by
 * `shared/platform/aws/signed-fetch.ts`, no SDK client. A function not marked as sending mail has no `MAIL_FROM` (and
 * no right to send): it fails to send. The local stack runs an SES of its own on loopback (infra/local/ses.ts), which
 * keeps every mail instead of delivering it (`npm run admin -- emails`).
 */
import { awsFetch, endpointOf } from '../aws/signed-fetch.ts';
import { requiredEnv } from '../config.ts';
import type { Mail } from './mail.entity.ts';

/**
 * The header naming the mail's own reference (an outbox mail's id): mail clients do not thread two mails with different
 * references together (two receipts with one subject stay two mails), and the reference ties a mail in an inbox to its
 * item.
 */
export const mailReferenceHeader = 'X-Entity-Ref-ID';

/** Sends `mail` through SES; `reference`, when given, goes in its `X-Entity-Ref-ID` header. */
export async function sendMail(mail: Mail, reference?: string): Promise<void> {
  await awsFetch('sesv2', `${endpointOf('sesv2')}/v2/email/outbound-emails`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      FromEmailAddress: requiredEnv('MAIL_FROM'),
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject },
          Body: { Text: { Data: mail.text } },
          ...(reference ? { Headers: [{ Name: mailReferenceHeader, Value: reference }] } : {}),
        },
      },
    }),
  });
}

/** SES's sending rate for the account (SESv2 `GetAccount`): the most mails it takes a second. */
export async function sesMaxSendRate(): Promise<number> {
  const res = await awsFetch('sesv2', `${endpointOf('sesv2')}/v2/email/account`, { method: 'GET' });
  const rate = ((await res.json()) as { SendQuota?: { MaxSendRate?: unknown } }).SendQuota?.MaxSendRate;
  if (typeof rate !== 'number' || !(rate > 0)) throw new Error(`SES gave no sending rate (MaxSendRate ${JSON.stringify(rate)})`);
  return rate;
}
