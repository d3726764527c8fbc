/** Queue consumer: the one signed attempt of each (event, destination). */
import type { SQSHandler } from 'aws-lambda';
import { processQueueBatch } from '../../shared/events/batch.ts';
import { deliver, type DeliveryMessage } from '../../shared/services/webhook-delivery.ts';

export const handler: SQSHandler = (event) =>
  processQueueBatch(event.Records, (record) => deliver(JSON.parse(record.body) as DeliveryMessage));
