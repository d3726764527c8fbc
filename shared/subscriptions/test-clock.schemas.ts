/** The sandbox test clock's schemas (organization face), apart so the clock's routes carry no other schema. */
import * as v from 'valibot';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

/** `POST /test-clock/advance`: the clock time to move to. */
export const advanceTestClockRequest = named('AdvanceTestClockRequest', v.strictObject({ to: isoTime }));

export const testClockResponse = objectEnvelope(
  'TestClockResponse',
  named(
    'TestClock',
    v.strictObject({
      organizationId: uuid,
      now: isoTime,
      offsetSeconds: v.number(),
      status: v.picklist(['ready', 'advancing']),
      advancingTo: nullableIsoTime,
    }),
  ),
);
