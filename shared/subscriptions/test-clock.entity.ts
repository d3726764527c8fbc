/**
 * An organization's sandbox test clock (`MERCHANT#<orgId>` / `TESTCLOCK`): how far it was moved ahead of real time
 * (`offsetMs`, never less than before) and whether an advance is under way (`advancingTo` with its lease).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';

export interface TestClock {
  organizationId: string;
  offsetMs: number;
  /** The advance under way (clock time it goes to), or null. */
  advancingTo: string | null;
  /** Until when that advance holds the clock (real time); another advance may take it over after. */
  leaseUntil: string | null;
  /**
   * True when the advance's request ran out of time and handed the rest to the background: the stream's consumer
   * (functions/subscriptions/continue-advance.ts) takes it up from this write.
   */
  continuing?: boolean;
  /** Raised by every write; each write is conditional on the one read. */
  version: number;
}

/** An organization's sandbox test clock (how far it was moved ahead of real time). */
export const testClockKey = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'TESTCLOCK' });

export const TestClockEntity = entity<TestClock, { organizationId: string }>({
  kind: 'testClock',
  schema: v.object({
    organizationId: v.string(),
    offsetMs: v.number(),
    advancingTo: orNull(v.string()),
    leaseUntil: orNull(v.string()),
    continuing: v.optional(v.boolean()),
    version: v.number(),
  }),
  key: (c) => testClockKey(c.organizationId),
});
