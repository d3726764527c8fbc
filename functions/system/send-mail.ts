/**
 * Stream consumer, fed by the relay through its queue (new mails to send): sends each mail the outbox holds, once
 * (shared/platform/mail/outbox.ts). The batch's mails are sent at once; the first record that failed and those after
 * it come back (those sent already are taken, and send nothing again).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { relayedStreamConsumer } from '../../shared/platform/events/batch.ts';
import { logger } from '../../shared/platform/observability.ts';
import { OutgoingMailEntity } from '../../shared/platform/mail/mail.entity.ts';
import { sendOutgoing } from '../../shared/platform/mail/outbox.ts';

export const handler = relayedStreamConsumer(async (records) => {
  const results = await Promise.allSettled(
    records.map(async (r) => sendOutgoing(OutgoingMailEntity.parse(unmarshall(r.dynamodb!.NewImage as Record<string, AttributeValue>)))),
  );
  return results.flatMap((r, i) => {
    if (r.status === 'fulfilled') return [];
    logger.error('mail not sent', { eventID: records[i]!.eventID, error: r.reason as Error });
    return [i];
  });
});
