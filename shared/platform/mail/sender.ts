/**
 * The mail sender's work (functions/system/send-mail.ts): each mail of the outbox (./outbox.ts) rendered and sent once,
 * paced to its share of SES's sending rate.
 */
import pThrottle from 'p-throttle';
import { requiredEnv } from '../config.ts';
import type { MailContent, OutgoingMail } from './mail.entity.ts';
import { sendMail, sesMaxSendRate } from './mailer.ts';
import { giveBackOutgoingMail, takeOutgoingMail } from './mails.repository.ts';

/** Runs one mail's work in its turn. */
export type MailPace = <T>(work: () => Promise<T>) => Promise<T>;

/** The most mails a second one sender may send of SES's `rate` when `senders` run at once: its even share. */
export function throttleOf(rate: number, senders: number): { limit: number; interval: number } {
  const share = rate / senders;
  const limit = Math.max(1, Math.floor(share));
  return { limit, interval: Math.ceil((1000 * limit) / share) };
}

/**
 * The share of SES's rate the queued mails take. The rest is left to the mails two routes send as they answer (a
 * portal sign-in link, a team invitation), so a storm's receipts do not get them refused.
 */
export const QUEUED_MAIL_SHARE = 0.9;

let pace: Promise<MailPace> | undefined;

/**
 * This container's pace: nine tenths of the account's SES sending rate (read once a container; a failed read is tried
 * again on the next batch) over the senders the queue's mapping runs at once (`MAIL_SENDERS_AT_ONCE`, its
 * `maxConcurrency`), in any second however the senders' seconds fall (p-throttle's strict algorithm). A storm's
 * receipts then wait in the queue, unreceived, instead of being refused by SES, each refusal spending one of the
 * message's receives.
 */
export function mailPace(): Promise<MailPace> {
  pace ??= sesMaxSendRate().then(
    (rate) => {
      const senders = Number(requiredEnv('MAIL_SENDERS_AT_ONCE'));
      const throttled = pThrottle({ ...throttleOf(rate * QUEUED_MAIL_SHARE, senders), strict: true })((work: () => Promise<unknown>) => work());
      return throttled as MailPace;
    },
    (e: unknown) => {
      pace = undefined;
      throw e;
    },
  );
  return pace;
}

/** Renders a mail's template with its data: throws for a template it does not know. */
export type MailRenderer = (template: string, data: Record<string, unknown>) => MailContent;

/**
 * Sends `mail`, rendered by `render`, at most once: a sender takes it first (so a record delivered twice, or to two
 * senders, sends nothing the second time), and gives it back when the send fails, for the record's next delivery. A
 * sender that dies between taking and sending leaves it unsent rather than risk sending it twice; a send SES does not
 * answer in time fails (../aws/sdk-timeouts.ts) and is given back: sent twice, should SES have taken it, rather than
 * never. A mail that cannot be rendered is not taken: it fails, and its record comes back until the queue gives it up.
 */
export async function sendOutgoing(mail: OutgoingMail, render: MailRenderer): Promise<void> {
  const content = render(mail.template, mail.data);
  const takenAt = new Date().toISOString();
  if (!(await takeOutgoingMail(mail.id, takenAt))) return;
  try {
    await sendMail({ to: mail.to, ...content }, mail.id);
  } catch (e) {
    await giveBackOutgoingMail(mail.id, takenAt);
    throw e;
  }
}
