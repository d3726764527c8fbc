/**
 * A dispute alert (`DISPUTEALERT#<id>` / `DISPUTEALERT`, listed per organization by creation through gsi1
 * `DISPUTEALERTS#<orgId>`): a processor's early notice about a payment (a coming dispute, a rapid dispute
 * resolution, a fraud report).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { type DisputeAlertType, disputeAlertTypes } from './disputes.rules.ts';

export interface DisputeAlert {
  /** `dpa_<24 alphanumerics>`. */
  id: string;
  organizationId: string;
  /** The platform's transaction the alert is about; null when its external id matches none (unlinked). */
  transactionId: string | null;
  /** The processor's id of the payment the alert names (null when it named a platform transaction the processor never answered). */
  externalTransactionId: string | null;
  /** The processor's id of the alert. */
  externalAlertId: string | null;
  alertType: DisputeAlertType;
  reason: string;
  /** Integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  createdAt: string;
}

/** A dispute alert: its own partition, listed per organization by creation (gsi1). */
export const disputeAlert = (alertId: string) => ({ pk: `DISPUTEALERT#${alertId}`, sk: 'DISPUTEALERT' });
export const disputeAlertListing = (organizationId: string, createdAt: string, alertId: string) => ({
  gsi1pk: `DISPUTEALERTS#${organizationId}`,
  gsi1sk: `${createdAt}#${alertId}`,
});

export const DisputeAlertEntity = entity<DisputeAlert, { id: string }>({
  kind: 'disputeAlert',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    transactionId: orNull(v.string()),
    externalTransactionId: orNull(v.string()),
    externalAlertId: orNull(v.string()),
    alertType: v.picklist(disputeAlertTypes),
    reason: v.string(),
    amountMinor: v.number(),
    currency: v.string(),
    createdAt: v.string(),
  }),
  key: (a) => disputeAlert(a.id),
  attributes: (a) => disputeAlertListing(a.organizationId, a.createdAt, a.id),
});
