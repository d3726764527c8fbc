/**
 * The mail outbox: a mail that tells of a change (a failed payment, a cancellation, a renewal to come) is an item
 * written in the same `TransactWriteItems` as the change, so it exists exactly when the change does — of two
 * requests that race to make it, only the one that wrote it leaves a mail. The table's stream carries it, through the
 * stream relay, to the mail sender (functions/system/send-mail.ts), which sends each one once. A mail a person asks
 * for in a request (a sign-in link, an invitation) is sent by that request instead (./mailer.ts), so that a failure
 * is theirs to see and retry.
 */
import { v7 as uuidv7 } from 'uuid';
import type { TransactItem } from '../db/types.ts';
import type { Mail, OutgoingMail } from './mail.entity.ts';
import { sendMail } from './mailer.ts';
import { giveBackOutgoingMail, putOutgoingMail, takeOutgoingMail } from './mails.repository.ts';

/** The outbox item of `mail`, dated `at` (the change's instant), to add to the transaction of that change. */
export const outboxMail = (mail: Mail, at: string): TransactItem =>
  putOutgoingMail({ id: uuidv7(), ...mail, at, createdAt: new Date().toISOString(), sentAt: null });

/**
 * Sends `mail` at most once: a sender takes it first (so a record delivered twice, or to two senders, sends nothing
 * the second time), and gives it back when the send fails, for the record's next delivery. A sender that dies
 * between taking and sending leaves it unsent rather than risk sending it twice.
 */
export async function sendOutgoing(mail: OutgoingMail): Promise<void> {
  const takenAt = new Date().toISOString();
  if (!(await takeOutgoingMail(mail.id, takenAt))) return;
  try {
    await sendMail({ to: mail.to, subject: mail.subject, text: mail.text }, mail.at);
  } catch (e) {
    await giveBackOutgoingMail(mail.id, takenAt);
    throw e;
  }
}
