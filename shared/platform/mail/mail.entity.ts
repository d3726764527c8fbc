/**
 * A mail kept by the local transport (`MAIL#<mailId>` / `MAIL`), listed on gsi1 under `MAILS` by `<sentAt>#<mailId>`:
 * what `npm run admin -- emails --json` shows.
 */
import * as v from 'valibot';
import { entity } from '../db/entity.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail extends Mail {
  id: string;
  sentAt: string;
}

/** A kept mail, in its own partition. */
export const mailKey = (mailId: string) => ({ pk: `MAIL#${mailId}`, sk: 'MAIL' });
/** The kept mails' listing (gsi1): one partition, by the time they were sent. */
export const mailListing = (sentAt: string, mailId: string) => ({ gsi1pk: 'MAILS', gsi1sk: `${sentAt}#${mailId}` });

export const MailEntity = entity<SentMail, { id: string }>({
  kind: 'mail',
  schema: v.object({ id: v.string(), to: v.string(), subject: v.string(), text: v.string(), sentAt: v.string() }),
  key: (m) => mailKey(m.id),
  attributes: (m) => mailListing(m.sentAt, m.id),
});
