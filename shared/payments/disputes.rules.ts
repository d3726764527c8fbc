/**
 * Disputes (chargebacks) and dispute alerts: their statuses, the transitions between them, and what each change
 * writes (event and ledger journal). Pure rules; no I/O.
 *
 * Statuses (the organization API's enum): `unknown`, `response-needed`, `under-review`, `won`, `lost`, `forfeited`.
 *
 * | from              | to                                                   |
 * |-------------------|------------------------------------------------------|
 * | (creation)        | `unknown`, `response-needed`, `under-review`         |
 * | `unknown`         | `response-needed`, `under-review`, `won`, `lost`, `forfeited` |
 * | `response-needed` | `under-review`, `won`, `lost`, `forfeited`           |
 * | `under-review`    | `response-needed`, `won`, `lost`                     |
 * | `won`, `lost`, `forfeited` | nothing: final                              |
 *
 * `unknown` is only ever a status at creation (nothing moves back to it). `forfeited` (the merchant did not answer
 * in time, or accepted the dispute) counts as lost: it writes `dispute.lost` and the `dispute_lost` journal.
 */

export const disputeStatuses = ['response-needed', 'forfeited', 'won', 'lost', 'unknown', 'under-review'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const disputeCategories = ['uncategorized', 'fraud', 'authorization', 'consumer-disputes', 'processing-errors'] as const;
export type DisputeCategory = (typeof disputeCategories)[number];

/** The statuses a dispute may be created with (a dispute is never created already decided). */
export const initialDisputeStatuses = ['unknown', 'response-needed', 'under-review'] as const satisfies readonly DisputeStatus[];

export const disputeTransitions: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  unknown: ['response-needed', 'under-review', 'won', 'lost', 'forfeited'],
  'response-needed': ['under-review', 'won', 'lost', 'forfeited'],
  'under-review': ['response-needed', 'won', 'lost'],
  won: [],
  lost: [],
  forfeited: [],
};

export const canMoveDispute = (from: DisputeStatus, to: DisputeStatus): boolean => disputeTransitions[from].includes(to);

export const isFinalDisputeStatus = (s: DisputeStatus): boolean => disputeTransitions[s].length === 0;

/**
 * What a status change writes: its event, and the journal that moves the reserve (none for an open dispute's
 * update). A forfeit loses the money as a loss does, and is told as the spec tells every status but won and lost:
 * `dispute.updated` with its status.
 */
export type DisputeOutcome =
  | { event: 'dispute.updated'; journal: null | 'dispute_lost' }
  | { event: 'dispute.won'; journal: 'dispute_won' }
  | { event: 'dispute.lost'; journal: 'dispute_lost' };

export function outcomeOf(to: DisputeStatus): DisputeOutcome {
  if (to === 'won') return { event: 'dispute.won', journal: 'dispute_won' };
  if (to === 'lost') return { event: 'dispute.lost', journal: 'dispute_lost' };
  if (to === 'forfeited') return { event: 'dispute.updated', journal: 'dispute_lost' };
  return { event: 'dispute.updated', journal: null };
}

/** What a dispute in `status` took of its payment: its amount once lost or forfeited (the chargeback gave it back), else 0. */
export const takenByDispute = (d: { status: DisputeStatus; amountMinor: number }): number =>
  outcomeOf(d.status).journal === 'dispute_lost' ? d.amountMinor : 0;

/**
 * Dispute ids: given by the client in the path of the create request (its processor's or its own reference),
 * 1 to 64 of `A-Z a-z 0-9 _ -`; unique per organization. Disputes the sandbox processor opens get `dp_<24>`.
 */
export const DISPUTE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const isDisputeId = (id: string): boolean => DISPUTE_ID.test(id);

/** How long the merchant has to answer a dispute: `deadlineAt` is `postedAt` plus this. */
export const DISPUTE_RESPONSE_DAYS = 7;

/** The latest `postedAt`: its deadline, `DISPUTE_RESPONSE_DAYS` later, is still of year 9999. */
export const LAST_POSTED_AT = '9999-12-24T23:59:59.999Z';

export const deadlineOf = (postedAt: string): string => new Date(Date.parse(postedAt) + DISPUTE_RESPONSE_DAYS * 86_400_000).toISOString();

/** Limits of the create body (characters): `transactionId` is the spec's, `reasonCode` the platform's. */
export const DISPUTE_LIMITS = { transactionId: 50, reasonCode: 50 } as const;

/** The reason code of a dispute opened without one. */
export const DEFAULT_REASON_CODE = 'general';

// Dispute alerts

/** Kinds of dispute alert: a pre-dispute notice, a rapid dispute resolution (RDR) and a fraud report. */
export const disputeAlertTypes = ['Dispute', 'RDR', 'Fraud'] as const;
export type DisputeAlertType = (typeof disputeAlertTypes)[number];
