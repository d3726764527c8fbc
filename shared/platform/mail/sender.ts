/** The mail sender's work (functions/system/send-mail.ts): each mail of the outbox (./outbox.ts) rendered and sent once. */
import type { MailContent, OutgoingMail } from './mail.entity.ts';
import { sendMail } from './mailer.ts';
import { giveBackOutgoingMail, takeOutgoingMail } from './mails.repository.ts';

/** Renders a mail's template with its data: throws for a template it does not know. */
export type MailRenderer = (template: string, data: Record<string, unknown>) => MailContent;

/**
 * Sends `mail`, rendered by `render`, at most once: a sender takes it first (so a record delivered twice, or to two
 * senders, sends nothing the second time), and gives it back when the send fails, for the record's next delivery. A
 * sender that dies between taking and sending leaves it unsent rather than risk sending it twice. A mail that cannot
 * be rendered is not taken: it fails, and its record comes back until the queue gives it up.
 */
export async function sendOutgoing(mail: OutgoingMail, render: MailRenderer): Promise<void> {
  const content = render(mail.template, mail.data);
  const takenAt = new Date().toISOString();
  if (!(await takeOutgoingMail(mail.id, takenAt))) return;
  try {
    await sendMail({ to: mail.to, ...content }, mail.at);
  } catch (e) {
    await giveBackOutgoingMail(mail.id, takenAt);
    throw e;
  }
}
