/**
 * The mails the local transport kept. A mail written through the outbox (shared/platform/mail/outbox.ts) is sent by
 * the stack's mail sender a moment after the change that wrote it, so a test waits for it.
 */
import { listKeptMails } from '../../shared/platform/mail/mailer.ts';
import type { SentMail } from '../../shared/platform/mail/mail.entity.ts';
import { eventually } from './receiver.ts';

/** The mails kept for `to` whose subject contains `subject`, oldest first. */
export const keptMailsTo = async (to: string, subject = ''): Promise<SentMail[]> =>
  (await listKeptMails()).filter((m) => m.to === to && m.subject.includes(subject));

/** The mails kept for `to` whose subject contains `subject`, once there are at least `count` of them. */
export const mailsArrived = (to: string, subject = '', count = 1): Promise<SentMail[]> =>
  eventually(
    async () => {
      const mails = await keptMailsTo(to, subject);
      return mails.length >= count ? mails : undefined;
    },
    20_000,
    `${count} mail(s) to ${to} about "${subject}"`,
  );

/** Every kept mail, once the stack's mail sender has been idle a second (no new one kept in between). */
export async function settledMails(timeoutMs = 30_000): Promise<SentMail[]> {
  const deadline = Date.now() + timeoutMs;
  let last = await listKeptMails();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = await listKeptMails();
    if (now.length === last.length || Date.now() > deadline) return now;
    last = now;
  }
}

/**
 * The mails of `mails` kept more than once: the same text, under the same subject, to the same address, dated the
 * same instant. A mail is dated at the instant of the change it tells of, so one change told twice has both; two
 * changes told in the same words (two payments of a subscription that failed on one day: the same amount, the same
 * next try) are dated each at its own.
 */
export function sentTwice(mails: readonly SentMail[]): SentMail[] {
  const seen = new Set<string>();
  return mails.filter((m) => {
    const key = JSON.stringify([m.to, m.subject, m.text, m.sentAt]);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}
