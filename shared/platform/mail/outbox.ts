/**
 * The mail outbox: a mail that tells of a change (a failed payment, a cancellation, a receipt, a renewal to come) is
 * an item written in the same `TransactWriteItems` as the change, so it exists exactly when the change does — of two
 * requests that race to make it, only the one that wrote it leaves a mail. The item holds the mail's template and
 * data; the table's stream carries it, through the stream relay, to the mail sender (functions/system/send-mail.ts),
 * which renders it with its template and sends it, once (./sender.ts). A mail a person asks for in a request (a
 * sign-in link, an invitation) is sent by that request instead (./mailer.ts), so that a failure is theirs to see and
 * retry. The functions that write mails carry neither a mailer nor any mail's text.
 */
import { v7 as uuidv7 } from 'uuid';
import type { TransactItem } from '../db/types.ts';
import { putOutgoingMail } from './mails.repository.ts';

/** A mail as a change writes it: the template that renders it and that template's data (JSON). */
export interface TemplatedMail {
  template: string;
  data: object;
}

/**
 * The outbox item of the mail to `to` that `mail.template` renders from `mail.data`, dated `at` (the change's
 * instant), to add to the transaction of that change.
 */
export const outboxMail = (to: string, mail: TemplatedMail, at: string): TransactItem =>
  putOutgoingMail({ id: uuidv7(), to, template: mail.template, data: { ...mail.data }, at, createdAt: new Date().toISOString(), sentAt: null });

/** A mail to write with its address: `to`, and the template and data `mail`. */
export interface AddressedMail {
  to: string;
  mail: TemplatedMail;
}

/**
 * The mails of a module's templates (`{ name: template }`) as the changes write them: each template's name with its
 * data, so a writer names a template and its data with their types, without importing the template itself.
 */
export type MailsOf<M extends Record<string, (data: never) => unknown>> = { [K in keyof M & string]: { template: K; data: Parameters<M[K]>[0] } }[keyof M &
  string];
