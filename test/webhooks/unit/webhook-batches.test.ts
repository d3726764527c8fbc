import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { retryFrom } from '../../../shared/platform/events/batch.ts';
import { eventsOfStreamBatch } from '../../../shared/platform/events/outbox.ts';

const image = (id: string, merchantId = 'm1') => ({
  id,
  type: 'customer.created',
  merchantId,
  parentMerchantId: null,
  payload: {},
  occurredAt: '2026-11-22T10:00:00.000Z',
});
const identity = (x: unknown) => x as Record<string, unknown>;
const record = (sequence: string): DynamoDBRecord => ({ eventID: sequence, dynamodb: { SequenceNumber: sequence } });

describe('eventsOfStreamBatch', () => {
  it('keeps the inserts in stream order with their record index, leaves out other records, and fails images that are not events', () => {
    const { events, failed } = eventsOfStreamBatch(
      [
        { eventName: 'INSERT', dynamodb: { NewImage: image('evt_a') } },
        { eventName: 'MODIFY', dynamodb: { NewImage: image('evt_b') } },
        { eventName: 'INSERT', dynamodb: {} },
        { eventName: 'INSERT', dynamodb: { NewImage: { entity: 'event' } } },
        { eventName: 'INSERT', dynamodb: { NewImage: image('evt_c', 'm2') } },
      ],
      identity,
    );
    expect(events.map((e) => [e.record, e.event.id, e.event.merchantId])).toEqual([
      [0, 'evt_a', 'm1'],
      [4, 'evt_c', 'm2'],
    ]);
    expect(failed).toEqual([3]);
  });

  it('fails a record whose image cannot be read, and only that one', () => {
    const { events, failed } = eventsOfStreamBatch(
      [
        { eventName: 'INSERT', dynamodb: { NewImage: 'bad' } },
        { eventName: 'INSERT', dynamodb: { NewImage: image('evt_a') } },
      ],
      (x) => {
        if (x === 'bad') throw new Error('unreadable');
        return x as Record<string, unknown>;
      },
    );
    expect(failed).toEqual([0]);
    expect(events.map((e) => e.record)).toEqual([1]);
  });
});

describe('retryFrom', () => {
  const records = [record('100'), record('200'), record('300')];

  it('reports nothing when no record failed', () => {
    expect(retryFrom(records, [])).toEqual({ batchItemFailures: [] });
  });

  it('reports the earliest failed record only, whatever the order of the failures', () => {
    expect(retryFrom(records, [2, 1])).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
    expect(retryFrom(records, [2])).toEqual({ batchItemFailures: [{ itemIdentifier: '300' }] });
  });
});
