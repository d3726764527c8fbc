/**
 * An organization's sandbox test clock (`MERCHANT#<orgId>` / `TESTCLOCK`): how far it was moved ahead of real time
 * (`offsetMs`, never less than before) and whether an advance is under way (`advancingTo` with its lease). No item:
 * the clock shows real time.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';

export interface TestClock {
  organizationId: string;
  offsetMs: number;
  /** The advance under way (clock time it goes to), or null. */
  advancingTo: string | null;
  /** Until when that advance holds the clock (real time); another advance may take it over after. */
  leaseUntil: string | null;
  /** Raised by every write; each write is conditional on the one read. */
  version: number;
}

export async function getTestClock(organizationId: string): Promise<TestClock> {
  const out = await db.send(new GetCommand({ TableName: tableName(), Key: keys.testClock(organizationId), ConsistentRead: true }));
  const i = out.Item;
  if (!i) return { organizationId, offsetMs: 0, advancingTo: null, leaseUntil: null, version: 0 };
  return {
    organizationId,
    offsetMs: Number(i.offsetMs),
    advancingTo: typeof i.advancingTo === 'string' ? i.advancingTo : null,
    leaseUntil: typeof i.leaseUntil === 'string' ? i.leaseUntil : null,
    version: Number(i.version),
  };
}

/** Writes `clock` at `clock.version` if the stored one is still at `clock.version − 1`; false when another write won. */
export async function saveTestClock(clock: TestClock): Promise<boolean> {
  const { advancingTo, leaseUntil, ...rest } = clock;
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.testClock(clock.organizationId),
          entity: 'testClock',
          ...rest,
          ...(advancingTo ? { advancingTo } : {}),
          ...(leaseUntil ? { leaseUntil } : {}),
        },
        ...(clock.version === 1
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': clock.version - 1 } }),
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}
