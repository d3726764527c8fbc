/**
 * The fields every change record of a subscription holds (cancellations, pauses, reactivations: `ChangeRecord` of
 * `changes.rules.ts`), for their entities' item schemas.
 */
import * as v from 'valibot';

export const changeRecordFields = {
  id: v.string(),
  organizationId: v.string(),
  subscriptionId: v.string(),
  isTestData: v.boolean(),
  createdAt: v.string(),
  updatedAt: v.string(),
};
