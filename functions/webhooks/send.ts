/** Queue consumer: the one signed attempt of each (event, destination), to a merchant's or an account's destination. */
import { queueConsumer } from '../../shared/events/batch.ts';
import { deliver, type DeliveryMessage } from '../../shared/services/webhook-delivery.ts';

export const handler = queueConsumer((record) => deliver(JSON.parse(record.body) as DeliveryMessage));
