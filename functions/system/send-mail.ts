/**
 * Stream consumer, fed by the relay through its queue (new mails to send): renders each mail the outbox holds with
 * its template and sends it, once (shared/platform/mail/sender.ts). The templates are the modules' (`*.mails.ts`): this
 * function alone carries mail text (each module offers its templates through its front door). The batch's mails are sent at once, as fast as this sender's share of SES's
 * sending rate allows (`mailPace`); the records that failed come back (those sent are taken, and send nothing again).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { receiptMails } from '../../shared/checkout/index.ts';
import { relayedStreamConsumer } from '../../shared/platform/events/batch.ts';
import { logger } from '../../shared/platform/observability.ts';
import { type MailTemplate, OutgoingMailEntity } from '../../shared/platform/mail/mail.entity.ts';
import { type MailPace, type MailRenderer, mailPace, sendOutgoing } from '../../shared/platform/mail/sender.ts';
import { portalMails } from '../../shared/portal/index.ts';
import { subscriptionMails } from '../../shared/subscriptions/index.ts';
import { webhookMails } from '../../shared/webhooks/index.ts';

const templates: Readonly<Record<string, MailTemplate<never>>> = { ...subscriptionMails, ...receiptMails, ...portalMails, ...webhookMails };

/** A mail's template applied to its data, as written by the change that wrote it. */
export const render: MailRenderer = (template, data) => {
  const make = Object.hasOwn(templates, template) ? templates[template] : undefined;
  if (!make) throw new Error(`no mail template "${template}"`);
  return (make as MailTemplate<Record<string, unknown>>)(data);
};

export const handler = relayedStreamConsumer(async (records) => {
  let pace: MailPace;
  try {
    pace = await mailPace();
  } catch (error) {
    // Without SES's rate nothing is sent: every record comes back, none taken.
    logger.error("mail not sent: SES's sending rate could not be read", { error: error as Error });
    return records.map((_, i) => i);
  }
  const results = await Promise.allSettled(
    records.map(async (r) => pace(() => sendOutgoing(OutgoingMailEntity.parse(unmarshall(r.dynamodb!.NewImage as Record<string, AttributeValue>)), render))),
  );
  return results.flatMap((r, i) => {
    if (r.status === 'fulfilled') return [];
    logger.error('mail not sent', { eventID: records[i]!.eventID, error: r.reason as Error });
    return [i];
  });
});
