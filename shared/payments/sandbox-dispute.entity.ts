/**
 * The sandbox processor's pointer from a dispute it opened (`SANDBOXDISPUTE#<dp_ id>` / `SANDBOXDISPUTE`; its ids are
 * globally unique) to its organization, for the operator command that moves it.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface SandboxDisputePointer {
  disputeId: string;
  organizationId: string;
}

/** The sandbox processor's pointer from a dispute it opened (`dp_…`, globally unique) to its organization. */
export const sandboxDispute = (disputeId: string) => ({ pk: `SANDBOXDISPUTE#${disputeId}`, sk: 'SANDBOXDISPUTE' });

export const SandboxDisputeEntity = entity<SandboxDisputePointer, { disputeId: string }>({
  kind: 'sandboxDispute',
  schema: v.object({ disputeId: v.string(), organizationId: v.string() }),
  key: (p) => sandboxDispute(p.disputeId),
});
