/**
 * The mails to send (`OUTMAIL#<mailId>` / `OUTMAIL`), each written in the transaction of the change it tells of
 * (./outbox.ts), sent from the table's stream once that change is written, and kept 30 days.
 */
import * as v from 'valibot';
import { entity, orNull } from '../db/entity.ts';
import { historyTtl } from '../db/items.ts';
import { ttlAttribute } from '../db/table.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The `entity` of a mail to send: the stream relay forwards its inserts to the mail sender. */
export const outgoingMailEntity = 'outgoingMail';

/** What a mail template makes of its data: the mail's subject and text. */
export type MailContent = Pick<Mail, 'subject' | 'text'>;

/**
 * A template of the mail sender (functions/system/send-mail.ts): the data a change wrote, as a mail's subject and
 * text. Each module keeps its own (`<module>/*.mails.ts`), pure, so that the functions that write mails carry no
 * mail text, only its data.
 */
export type MailTemplate<D> = (data: D) => MailContent;

/** A mail to send: its template's name and data, written with the change it tells of, rendered when it is sent. */
export interface OutgoingMail {
  id: string;
  to: string;
  /** The template that renders it (`subscription.receipt`, …). */
  template: string;
  /** The template's data, as JSON. */
  data: Record<string, unknown>;
  /** The instant the change it tells of happened (on a test clock, the clock's). */
  at: string;
  /** When it was written (real time): it is kept 30 days from then. */
  createdAt: string;
  /** When a sender took it to send (real time); null until then, and again after a send that failed. */
  sentAt: string | null;
}

export const outgoingMailKey = (mailId: string) => ({ pk: `OUTMAIL#${mailId}`, sk: 'OUTMAIL' });

export const OutgoingMailEntity = entity<OutgoingMail, { id: string }>({
  kind: outgoingMailEntity,
  schema: v.object({
    id: v.string(),
    to: v.string(),
    template: v.string(),
    data: v.record(v.string(), v.unknown()),
    at: v.string(),
    createdAt: v.string(),
    sentAt: orNull(v.string()),
  }),
  key: (m) => outgoingMailKey(m.id),
  attributes: (m) => ({ [ttlAttribute]: historyTtl(m.createdAt) }),
});
