/**
 * Stream consumer: each new outbox event becomes one queue message per subscribed destination, merchants' and
 * (for payment events) those of the organization-API accounts linked to the organization.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { streamConsumer } from '../../shared/events/batch.ts';
import { eventFromItem } from '../../shared/events/outbox.ts';
import { fanOut } from '../../shared/services/webhook-delivery.ts';

export const handler = streamConsumer(async (record) => {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
  await fanOut(eventFromItem(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>)));
});
