/**
 * Queue consumer: the one signed attempt of each (event, destination), to a merchant's or an account's
 * destination. A batch's destinations are read at once and its attempts claimed at once; then every POST; then
 * their outcomes written at once. The event comes in the message.
 */
import { queueBatchConsumer } from '../../shared/platform/events/batch.ts';
import { claimDeliveries, completeBatch, sendClaimed } from '../../shared/webhooks/webhook-delivery.service.ts';

export const handler = queueBatchConsumer(
  (records) => claimDeliveries(records.map((r) => r.body)),
  (record, batch) => sendClaimed(record.body, batch),
  completeBatch,
);
