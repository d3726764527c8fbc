/**
 * A stream consumer fed by the relay through its queue (`relayedStreamConsumer`): each message's body is one stream
 * record, and exactly the failed records come back (a queue keeps no order: the others are done, and sending them again
 * would count them toward the dead-letter queue's limit beside a record that keeps failing).
 */
import type { Context, DynamoDBRecord, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { relayedStreamConsumer } from '../../../shared/platform/events/batch.ts';

const context = (): Context => lambdaContext({ name: 'relayed-test', timeoutMs: 5_000, region: 'us-east-1' });

const record = (id: string): DynamoDBRecord => ({
  eventID: id,
  eventName: 'MODIFY',
  dynamodb: { Keys: { pk: { S: id }, sk: { S: 'X' } }, NewImage: { pk: { S: id }, entity: { S: 'customer' } }, SequenceNumber: id },
});
const message = (id: string, body: string): SQSRecord => ({ messageId: id, body }) as SQSRecord;
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('relayedStreamConsumer', () => {
  it('hands the handler the records the messages carry, in order, and reports nothing when none failed', async () => {
    const seen: DynamoDBRecord[][] = [];
    const handler = relayedStreamConsumer(async (records) => {
      seen.push(records);
      return [];
    });
    const answer = await handler(event(message('m1', JSON.stringify(record('a'))), message('m2', JSON.stringify(record('b')))), context());
    expect(seen).toEqual([[record('a'), record('b')]]);
    expect(answer).toEqual({ batchItemFailures: [] });
  });

  it('reports exactly the failed records, not those after them, and a body that is no record alone', async () => {
    const handler = relayedStreamConsumer(async (records) => {
      expect(records.map((r) => r.eventID)).toEqual(['a', 'b', 'c', 'd']);
      return [2, 1];
    });
    const answer = await handler(
      event(
        message('m1', JSON.stringify(record('a'))),
        message('bad', 'not json'),
        message('m2', JSON.stringify(record('b'))),
        message('m3', JSON.stringify(record('c'))),
        message('m4', JSON.stringify(record('d'))),
        message('empty', '{}'),
      ),
      context(),
    );
    expect(answer).toEqual({
      batchItemFailures: [{ itemIdentifier: 'bad' }, { itemIdentifier: 'empty' }, { itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }],
    });
  });
});
