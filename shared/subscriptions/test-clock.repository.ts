/**
 * An organization's sandbox test clock (`MERCHANT#<orgId>` / `TESTCLOCK`): how far it was moved ahead of real time
 * (`offsetMs`, never less than before) and whether an advance is under way (`advancingTo` with its lease). No item:
 * the clock shows real time.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, sendIfCondition } from '../platform/db/client.ts';
import { type TestClock, TestClockEntity } from './test-clock.entity.ts';

export async function getTestClock(organizationId: string): Promise<TestClock> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: TestClockEntity.key({ organizationId }), ConsistentRead: true }));
  return TestClockEntity.parseOrNull(Item) ?? { organizationId, offsetMs: 0, advancingTo: null, leaseUntil: null, version: 0 };
}

/** Writes `clock` at `clock.version` if the stored one is still at `clock.version − 1`; false when another write won. */
export async function saveTestClock(clock: TestClock): Promise<boolean> {
  // Two advances read at one version in the same millisecond write the very same clock: the second loses (each write
  // its own id), so it does not take the lease too.
  return sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: TestClockEntity.item(clock),
      ...(clock.version === 1
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': clock.version - 1 } }),
    }),
  );
}
