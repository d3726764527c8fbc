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
