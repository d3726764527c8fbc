/** Stream consumer: each new outbox event becomes one queue message per subscribed destination. */
import type { DynamoDBStreamHandler } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { processStreamBatch } from '../../shared/events/batch.ts';
import { eventFromItem } from '../../shared/events/outbox.ts';
import { fanOut } from '../../shared/services/webhook-delivery.ts';

export const handler: DynamoDBStreamHandler = (event) =>
  processStreamBatch(event.Records, async (record) => {
    if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
    await fanOut(eventFromItem(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>)));
  });
