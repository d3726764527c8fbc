/**
 * A dispute of an organization (`DISPUTE#<orgId>#<id>` / `DISPUTE`: the id is the client's, unique per organization;
 * listed through gsi1 by creation and gsi2 by last update under `DISPUTES#<orgId>`, like catalog records).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogListing } from '../platform/db/keys.ts';
import { type DisputeCategory, disputeCategories, type DisputeStatus, disputeStatuses } from './disputes.rules.ts';

export interface DisputeCustomer {
  id: string | null;
  name: string | null;
}

export interface Dispute {
  id: string;
  organizationId: string;
  transactionId: string;
  /** The processor's id of the dispute; null when the organization reported it. */
  externalDisputeId: string | null;
  /** The card network's case number, when the processor gave one. */
  caseId: string | null;
  status: DisputeStatus;
  category: DisputeCategory;
  reasonCode: string;
  /** Positive integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  /**
   * The tax in `amountMinor` (`taxInDisputed` of its payment), which the platform, not the merchant, holds and gives
   * back when the dispute is lost; absent on disputes opened holding the whole amount from the merchant.
   */
  taxMinor?: number | undefined;
  customer: DisputeCustomer | null;
  gatewaySlug: string;
  /** When the processor posted the dispute. */
  postedAt: string;
  deadlineAt: string;
  /** When it became won, lost or forfeited. */
  resolvedAt: string | null;
  /** The create request's fingerprint: a repeat with the same body answers the dispute, another body is refused. */
  requestFingerprint: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A dispute: its id is the client's (unique per organization only), so the organization is part of the key. It is
 * listed like a catalog record (`catalogListing('DISPUTE', …)`).
 */
export const dispute = (organizationId: string, disputeId: string) => ({ pk: `DISPUTE#${organizationId}#${disputeId}`, sk: 'DISPUTE' });

export const DisputeEntity = entity<Dispute, { organizationId: string; id: string }>({
  kind: 'dispute',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    transactionId: v.string(),
    externalDisputeId: orNull(v.string()),
    caseId: orNull(v.string()),
    status: v.picklist(disputeStatuses),
    category: v.picklist(disputeCategories),
    reasonCode: v.string(),
    amountMinor: v.number(),
    currency: v.string(),
    taxMinor: v.optional(v.number()),
    customer: orNull(v.object({ id: orNull(v.string()), name: orNull(v.string()) })),
    gatewaySlug: v.string(),
    postedAt: v.string(),
    deadlineAt: v.string(),
    resolvedAt: orNull(v.string()),
    requestFingerprint: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (d) => dispute(d.organizationId, d.id),
  attributes: (d) => catalogListing('DISPUTE', d.organizationId, d.id, d.createdAt, d.updatedAt),
});
