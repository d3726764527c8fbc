/**
 * The mails the local SES kept (infra/local/ses.ts). A mail written through the outbox (shared/platform/mail/outbox.ts)
 * is sent by the stack's mail sender a moment after the change that wrote it, so a test waits for it; such a mail
 * names its outbox item (`X-Entity-Ref-ID`), whose instant (`at`: the change's, on a test clock the clock's) a kept
 * mail is given here.
 */
import { type LocalSesMail, localSesMails } from '../../infra/local/ses.ts';
import { batchReadMany } from '../../shared/platform/db/batch-read.ts';
import { outgoingMailKey } from '../../shared/platform/mail/mail.entity.ts';
import { mailReferenceHeader } from '../../shared/platform/mail/mailer.ts';
import { eventually } from './receiver.ts';

/** A kept mail: what SES was given and when, and the instant of the change it tells of (outbox mails only). */
export interface KeptMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** When SES took it (real time). */
  readonly sentAt: string;
  /** Its outbox item's id, or null for a mail a route sent as it answered. */
  readonly reference: string | null;
  /** The instant of the change it tells of (its outbox item's `at`), or null for a mail a route sent. */
  readonly at: string | null;
}

/** What the run's local SES kept (for `to` only, when given), oldest first. */
export const sesMails = (to?: string): Promise<LocalSesMail[]> => localSesMails(process.env.AWS_ENDPOINT_URL_SESV2!, to);

/** `mails` with the instants of their outbox items, ordered by them (a route's mail by when it was sent). */
async function withInstants(mails: readonly LocalSesMail[]): Promise<KeptMail[]> {
  const references = [...new Set(mails.flatMap((m) => (m.headers[mailReferenceHeader] ? [m.headers[mailReferenceHeader]] : [])))];
  // The kit's batch read: 100 keys a call, what DynamoDB leaves unprocessed sent again a bounded number of times.
  const read = await batchReadMany(
    references.map((reference) => ({ key: outgoingMailKey(reference), from: (item) => [String(item.id), String(item.at)] as const })),
    { projection: { expression: 'id, #at', names: { '#at': 'at' } } },
  );
  const instants = new Map(read.filter((r) => r !== null));
  const kept = mails.map((m): KeptMail => {
    const reference = m.headers[mailReferenceHeader] ?? null;
    return { to: m.to, subject: m.subject, text: m.text, sentAt: m.sentAt, reference, at: reference === null ? null : (instants.get(reference) ?? null) };
  });
  return kept.sort((a, b) => (a.at ?? a.sentAt).localeCompare(b.at ?? b.sentAt));
}

/** The mails kept for `to` whose subject contains `subject`, oldest first. */
export const keptMailsTo = async (to: string, subject = ''): Promise<KeptMail[]> =>
  withInstants((await sesMails(to)).filter((m) => m.subject.includes(subject)));

/** The mails kept for `to` whose subject contains `subject`, once there are at least `count` of them. */
export const mailsArrived = (to: string, subject = '', count = 1): Promise<KeptMail[]> =>
  eventually(
    async () => {
      const mails = await keptMailsTo(to, subject);
      return mails.length >= count ? mails : undefined;
    },
    20_000,
    `${count} mail(s) to ${to} about "${subject}"`,
  );

/**
 * Every kept mail whose address `to` accepts, once at least one is kept and the stack's mail sender has then been idle
 * a second (no new mail kept in between), or after `timeoutMs`: on a busy run the mails reach SES well after the changes
 * that wrote them (the table's stream, its queue and the sender's pace between), and an idle second before the first
 * of them says nothing.
 */
export async function settledMails(to: (address: string) => boolean, timeoutMs = 60_000): Promise<KeptMail[]> {
  const deadline = Date.now() + timeoutMs;
  let last = await sesMails();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = await sesMails();
    const idle = now.length === last.length && now.some((m) => to(m.to));
    if (idle || Date.now() > deadline) return withInstants(now.filter((m) => to(m.to)));
    last = now;
  }
}

/**
 * The mails of `mails` kept more than once: the same text, under the same subject, to the same address, telling of a
 * change at the same instant. One change told twice has both; two changes told in the same words (two payments of a
 * subscription that failed on one day: the same amount, the same next try) are each at its own instant.
 */
export function sentTwice(mails: readonly KeptMail[]): KeptMail[] {
  const seen = new Set<string>();
  return mails.filter((m) => {
    const key = JSON.stringify([m.to, m.subject, m.text, m.at ?? m.sentAt]);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}
