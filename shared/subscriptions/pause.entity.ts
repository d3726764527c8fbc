/**
 * A pause of a subscription (`SUBPAUSE#<id>` / `SUBPAUSE`), a catalog record of the organization listed through gsi1
 * by creation and gsi2 by last update (`SUBPAUSES#<orgId>`). It is written whole by every change, in the same
 * transaction as the change of its subscription.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { changeRecordFields } from './change-record.entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';
import { type PauseRecord, pausedByValues, pauseStatuses } from './changes.rules.ts';

export const PauseEntity = entity<PauseRecord, { id: string }>({
  kind: 'subscriptionPause',
  schema: v.object({
    ...changeRecordFields,
    status: v.picklist(pauseStatuses),
    pausedBy: v.picklist(pausedByValues),
    description: orNull(v.string()),
    effectiveAt: v.string(),
    endAt: orNull(v.string()),
  }),
  key: (p) => catalogItem('SUBPAUSE', p.id),
  attributes: (p) => catalogListing('SUBPAUSE', p.organizationId, p.id, p.createdAt, p.updatedAt),
});
