/**
 * The mail the merchant's owner gets when a customer cancels in the billing portal, as a template of the mail sender
 * (functions/system/send-mail.ts): who, what, when it ends, and the customer's reason and words. Its data is written
 * with the cancellation (shared/platform/mail/outbox.ts), so it goes out if and only if the cancellation was made.
 */
import { utcText } from '../domain/time.ts';
import type { MailTemplate } from '../platform/mail/mail.entity.ts';
import type { MailsOf } from '../platform/mail/outbox.ts';

const customerCancelled: MailTemplate<{
  customerEmail: string;
  customerId: string;
  subscriptionName: string;
  merchantName: string;
  /** When it ends (at the end of the paid period); null: it ended at once. */
  endsAt: string | null;
  /** The customer's reason, in words; null: none given. */
  reason: string | null;
  comment: string | null;
}> = (d) => ({
  subject: `${d.customerEmail} cancelled ${d.subscriptionName}`,
  text: [
    `${d.customerEmail} (customer ${d.customerId}) cancelled their subscription "${d.subscriptionName}" in the billing portal of ${d.merchantName}.`,
    d.endsAt ? `It ends on ${utcText(d.endsAt)}, at the end of the period they paid for.` : 'It has ended.',
    `Their reason: ${d.reason ?? 'none given'}.`,
    ...(d.comment ? [`Their words: "${d.comment}"`] : []),
  ].join('\n'),
});

export const portalMails = { 'portal.customer-cancelled': customerCancelled };

export type PortalMail = MailsOf<typeof portalMails>;
