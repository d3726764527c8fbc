/**
 * The reconciler's work list, for the reconciliation module: the charges and refunds claimed before `before` and
 * still unsettled (through the unsettled index, never a Scan), optionally of one organization.
 */
import { listUnsettled, type Unsettled } from './unsettled.repository.ts';

export type { Unsettled };

export const unsettledOperations = (before: string, organizationId?: string): Promise<Unsettled[]> => listUnsettled(before, organizationId);
