/**
 * The mail the merchant's owner gets when a webhook destination's circuit opens, as a template of the mail sender
 * (functions/system/send-mail.ts). Its data is written in the transaction that opens the circuit
 * (shared/platform/mail/outbox.ts), so the owner is told exactly once.
 */
import type { MailTemplate } from '../platform/mail/mail.entity.ts';
import type { MailsOf } from '../platform/mail/outbox.ts';

const circuitOpened: MailTemplate<{
  merchantName: string;
  destinationId: string;
  /** The receiver's host only: its path or query may carry a token, and mail is no place for it. */
  host: string;
  failures: number;
}> = (d) => ({
  subject: `Webhook deliveries to ${d.host} are paused`,
  text: [
    `Deliveries of ${d.merchantName}'s webhook destination ${d.destinationId} (on ${d.host}) failed`,
    `${d.failures} times in a row with a server error or no answer, so its circuit is open and further events are skipped.`,
    'Events that occur while the circuit is open are not sent later.',
    'Fix the receiver, then reset the circuit in the dashboard (developer tools, webhooks) to resume deliveries.',
  ].join('\n'),
});

export const webhookMails = { 'webhooks.circuit-opened': circuitOpened };

export type WebhookMail = MailsOf<typeof webhookMails>;
