/**
 * Queue consumer: the one signed attempt of each (event, destination), to a merchant's or an account's
 * destination. The batch's destinations are read at once; the event comes in the message.
 */
import { queueBatchConsumer } from '../../shared/platform/events/batch.ts';
import { deliver, parseDeliveryMessages, readDestinations } from '../../shared/webhooks/webhook-delivery.service.ts';

export const handler = queueBatchConsumer(
  async (records) => {
    const messages = parseDeliveryMessages(records.map((r) => r.body));
    return { messages, destinations: await readDestinations([...messages.values()]) };
  },
  (record, { messages, destinations }) => deliver(messages.get(record.body) ?? JSON.parse(record.body), new Date(), destinations),
);
