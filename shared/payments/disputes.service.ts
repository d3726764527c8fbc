/**
 * Disputes (rules in shared/payments/disputes.rules.ts): creating a dispute through the organization API, reading and
 * listing them, and moving them through their statuses; the sandbox processor opens and moves them through
 * ./sandbox-disputes.ts, and raises dispute alerts through ./dispute-alerts.ts.
 *
 * Every change is one transaction: the dispute as it becomes, its event (outbox) and its ledger journal with the
 * balance change. Opening moves the disputed amount less the tax in it (which the platform owes, not the merchant)
 * from available into the reserve (the shortfall owed, under the condition that available still covers the part
 * taken from it); won releases the reserve to available (repaying what is owed first, under the condition that owed
 * is still what was read); lost (or forfeited) takes the reserve out with the chargeback, the tax no longer owed. A change whose balance condition fails (the balance moved in between) is read again
 * and retried.
 */
import { backoff, cancellationReasons, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import type { Dispute } from './dispute.entity.ts';
import * as repo from './disputes.repository.ts';
import { getConditionBalance, bookDebit, bookJournal, disputeLostJournal, disputeOpenedJournal, disputeWonJournal, taxInDisputed } from '../money/index.ts';
import { getMerchant } from '../people/index.ts';
import { taxInPayment, type Transaction } from './transaction.entity.ts';
import { getTransaction } from './transactions.repository.ts';
import type { TransactItem } from '../platform/db/types.ts';
import {
  canMoveDispute,
  deadlineOf,
  DEFAULT_REASON_CODE,
  isDisputeId,
  isFinalDisputeStatus,
  outcomeOf,
  takenByDispute,
  type DisputeCategory,
  type DisputeStatus,
} from './disputes.rules.ts';
import { BadRequestError, ConflictError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import { requestFingerprint } from './transactions.rules.ts';
import { refundableMinor } from './refunds.rules.ts';
import { disputeNotFound, invalidDisputeId, transactionNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import type { CatalogListOptions } from '../platform/db/listing.ts';

/** Transaction statuses a dispute may be opened on: the payment was captured (and not refunded in full). */
const DISPUTABLE: readonly Transaction['status'][] = ['completed', 'partially-refunded'];

/** How often a change is retried when the balance it read moved before it was written. */
const ATTEMPTS = 8;

/** The gateway a dispute came through: payments go through the organization's default gateway. */
const GATEWAY_SLUG = 'default';

type EventMerchant = Pick<Merchant, 'id' | 'parentId'>;

/** The dispute as the organization API shows it (`type` and `category` both name its category). */
export const disputeView = (d: Dispute) => ({
  id: d.id,
  organizationId: d.organizationId,
  transactionId: d.transactionId,
  externalDisputeId: d.externalDisputeId,
  caseId: d.caseId,
  status: d.status,
  category: d.category,
  type: d.category,
  reasonCode: d.reasonCode,
  amount: toMajorUnits(d.amountMinor, d.currency),
  currency: d.currency,
  customer: d.customer,
  gatewaySlug: d.gatewaySlug,
  postedAt: d.postedAt,
  deadlineAt: d.deadlineAt,
  resolvedAt: d.resolvedAt,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  deletedAt: null,
});

/**
 * The dispute's name in the ledger: journal ids are global (`dispute_opened:<ref>`), dispute ids only unique per
 * organization, so the ledger names a dispute `<organizationId>/<disputeId>`.
 */
export const ledgerReference = (d: Pick<Dispute, 'organizationId' | 'id'>): string => `${d.organizationId}/${d.id}`;

const basePayload = (d: Dispute) => ({
  disputeId: d.id,
  externalDisputeId: d.externalDisputeId,
  amount: toMajorUnits(d.amountMinor, d.currency),
  currency: d.currency.toLowerCase(),
});

export interface CreateDisputeInput {
  transactionId: string;
  amount: number;
  currency: string;
  reasonCode?: string | undefined;
  type?: DisputeCategory | undefined;
  status?: DisputeStatus | undefined;
  postedAt?: string | undefined;
}

/**
 * `POST …/organizations/{organizationId}/disputes/{disputeId}`: records a dispute the organization's processor
 * reported, under the organization's own id for it. The transaction must be the organization's (404
 * `transaction.not_found`) and captured (422 `dispute.transaction_not_disputable`), in the same currency (422
 * `dispute.currency_mismatch`) and for at most what its refunds left of it (422 `dispute.amount_exceeds_transaction`). A repeat with
 * the same id and body answers the dispute as it is now; the same id with another body is 409
 * `dispute.already_exists`; a second dispute of one transaction is 409 `dispute.transaction_already_disputed`.
 */
export async function createDispute(organization: Merchant, disputeId: string, input: CreateDisputeInput) {
  if (!isDisputeId(disputeId)) throw invalidDisputeId();
  const fingerprint = requestFingerprint({ ...input });
  const existing = await repo.getDispute(organization.id, disputeId);
  if (existing) return replayOrConflict(existing, fingerprint);
  const t = await getTransaction(organization.id, input.transactionId);
  if (!t) throw transactionNotFound();
  const amountMinor = toMinorUnits(input.amount, input.currency);
  if (amountMinor === null) throw new BadRequestError('request.invalid', 'amount has more decimals than its currency allows.', { field: 'amount' });
  const now = new Date().toISOString();
  const d = newDispute(
    t,
    {
      id: disputeId,
      externalDisputeId: null,
      caseId: null,
      status: input.status ?? 'response-needed',
      category: input.type ?? 'uncategorized',
      reasonCode: input.reasonCode ?? DEFAULT_REASON_CODE,
      amountMinor,
      currency: input.currency,
      postedAt: input.postedAt ?? now,
      requestFingerprint: fingerprint,
    },
    now,
  );
  return disputeView(await openDispute(organization, t, d));
}

/**
 * A new dispute of `t` at `now`, from what its source says (`fields`): the organization and customer are the
 * transaction's, the response deadline follows from `postedAt`, and it is unresolved.
 */
export function newDispute(
  t: Transaction,
  fields: Pick<
    Dispute,
    'id' | 'externalDisputeId' | 'caseId' | 'status' | 'category' | 'reasonCode' | 'amountMinor' | 'currency' | 'postedAt' | 'requestFingerprint'
  >,
  now: string,
): Dispute {
  return {
    ...fields,
    organizationId: t.organizationId,
    transactionId: t.id,
    taxMinor: taxInDisputed(t.amountMinor, taxInPayment(t), fields.amountMinor),
    customer: t.customerId || t.customerName ? { id: t.customerId, name: t.customerName } : null,
    gatewaySlug: GATEWAY_SLUG,
    deadlineAt: deadlineOf(fields.postedAt),
    resolvedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

function replayOrConflict(existing: Dispute, fingerprint: string) {
  if (existing.requestFingerprint === fingerprint) return disputeView(existing);
  throw alreadyExists(existing);
}

const alreadyExists = (existing: Dispute) =>
  new ConflictError('dispute.already_exists', 'A dispute with this id already exists with other values.', { disputeId: existing.id });

function checkDisputable(t: Transaction, d: Dispute): void {
  if (!DISPUTABLE.includes(t.status)) {
    throw new UnprocessableError('dispute.transaction_not_disputable', `A ${t.status} transaction cannot be disputed: only captured payments can.`, {
      transactionId: t.id,
      status: t.status,
    });
  }
  if (d.currency !== t.currency) {
    throw new UnprocessableError('dispute.currency_mismatch', `The dispute's currency must be the transaction's (${t.currency}).`, { field: 'currency' });
  }
  const left = refundableMinor(t);
  if (d.amountMinor <= 0 || d.amountMinor > left) {
    throw new UnprocessableError(
      'dispute.amount_exceeds_transaction',
      'The disputed amount must be more than 0 and at most what is left of the transaction after its refunds.',
      {
        field: 'amount',
        maxAmount: toMajorUnits(Math.max(left, 0), t.currency),
      },
    );
  }
}

/**
 * Writes a new dispute in one transaction: the dispute, its transaction's claim, the `dispute_opened` journal and
 * balance change (the part taken from available conditional on available covering it), `dispute.created`, and
 * `extra` (the sandbox processor's pointer), on the condition that the transaction is still disputable and refunded
 * no more than as read. A balance or transaction that moved in between is read again.
 */
export async function openDispute(merchant: EventMerchant, read: Transaction, d: Dispute, extra: TransactItem[] = []): Promise<Dispute> {
  let t = read;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    // Spread out from the writes that moved the balance or the transaction (a release run crediting available, say).
    if (attempt > 1) {
      await backoff(attempt);
      t = (await getTransaction(d.organizationId, t.id)) ?? t;
    }
    checkDisputable(t, d);
    const { available } = await getConditionBalance(d.organizationId, d.currency);
    const j = disputeOpenedJournal({
      merchantId: d.organizationId,
      disputeId: ledgerReference(d),
      currency: d.currency,
      amountMinor: d.amountMinor,
      taxMinor: d.taxMinor ?? 0,
      available,
      at: d.createdAt,
    });
    const [journalItem, balanceItem] = bookDebit(j);
    const parts: NamedParts<'dispute' | 'claim' | 'journal' | 'balance' | 'event' | 'transaction' | 'extra'> = [
      ['dispute', [repo.putNewDispute(d)]],
      ['claim', [repo.putDisputeClaim(d)]],
      ['journal', [journalItem]],
      ['balance', [balanceItem]],
      ['event', [outboxEvent('dispute.created', merchant, { ...basePayload(d), reason: d.reasonCode }, d.createdAt)]],
      ['transaction', [repo.transactionStillDisputable(d.organizationId, t.id, DISPUTABLE, t.refundedMinor ?? 0)]],
      ['extra', extra],
    ];
    try {
      await transactWrite(parts);
      return d;
    } catch (e) {
      const failed = failedParts(e, parts);
      if (!failed) throw e;
      if (failed.has('dispute')) {
        // Created meanwhile (a concurrent request with the same id).
        const existing = await repo.getDispute(d.organizationId, d.id);
        if (existing) {
          if (existing.requestFingerprint === d.requestFingerprint) return existing;
          throw alreadyExists(existing);
        }
      }
      if (failed.has('claim')) {
        const claim = await repo.getDisputeClaim(t.id);
        throw new ConflictError('dispute.transaction_already_disputed', 'This transaction already has a dispute.', {
          transactionId: t.id,
          ...(claim && claim.organizationId === d.organizationId ? { disputeId: claim.disputeId } : {}),
        });
      }
      if (!failed.has('balance') && !failed.has('transaction')) throw e;
      // Available changed from what was read (below what it takes, or, when part is owed, at all), or the transaction
      // was refunded meanwhile: read them again.
    }
  }
  throw new ConflictError('dispute.busy', "The merchant's balance kept changing; try again.");
}

/** The organization's dispute; 404 `dispute.not_found` for unknown and malformed ids. */
export async function getDispute(organizationId: string, disputeId: string) {
  const d = await repo.getDispute(organizationId, disputeId);
  if (!d) throw disputeNotFound();
  return disputeView(d);
}

/** The dispute of the organization's transaction `transactionId` (a transaction has at most one), amounts in minor units; null when none. */
export async function disputeOfTransaction(organizationId: string, transactionId: string): Promise<Dispute | null> {
  const claim = await repo.getDisputeClaim(transactionId);
  if (!claim || claim.organizationId !== organizationId) return null;
  return repo.getDispute(organizationId, claim.disputeId);
}

export interface DisputeListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: 'createdAt' | 'updatedAt';
  statuses?: DisputeStatus[] | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/** One page of the organization's disputes (a Query on gsi1 or gsi2, see shared/platform/db/listing.ts). */
export async function listDisputes(organizationId: string, q: DisputeListQuery) {
  const options: Omit<CatalogListOptions, 'filter'> = {
    sortBy: q.sortBy,
    sortDirection: q.sortDirection,
    offset: q.offset,
    limit: q.limit,
    ...(q.createdFrom || q.createdTo
      ? { range: { attribute: 'createdAt' as const, ...(q.createdFrom ? { from: q.createdFrom } : {}), ...(q.createdTo ? { to: q.createdTo } : {}) } }
      : {}),
  };
  const page = await repo.listDisputesPage(organizationId, options, q.statuses);
  return { totalCount: page.totalCount, data: page.items.map(disputeView) };
}

/**
 * Moves a dispute to `to` (the processor's news): one transaction of the dispute (conditional on the status it was
 * read in), its event — `dispute.won`, `dispute.lost`, or `dispute.updated` with the status (a forfeit too) — and,
 * when it is decided, its journal: won releases the reserve (repaying what is owed first, conditional on the owed
 * amount read), lost or forfeited takes the reserve out. 404 `dispute.not_found`; 409 `dispute.invalid_transition` when the dispute
 * cannot move there from where it is (final statuses never move).
 */
export async function advanceDispute(organizationId: string, disputeId: string, to: DisputeStatus) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const d = await repo.getDispute(organizationId, disputeId);
    if (!d) throw disputeNotFound();
    if (!canMoveDispute(d.status, to)) {
      throw new ConflictError('dispute.invalid_transition', `A ${d.status} dispute cannot become ${to}.`, { status: d.status, to });
    }
    const merchant = await getMerchant(organizationId);
    if (!merchant) throw disputeNotFound();
    const at = new Date().toISOString();
    const moved: Dispute = { ...d, status: to, updatedAt: at, resolvedAt: isFinalDisputeStatus(to) ? at : null };
    const outcome = outcomeOf(to);
    const items: TransactItem[] = [repo.moveDispute(moved, d.status)];
    const ref = { merchantId: organizationId, disputeId: ledgerReference(d), currency: d.currency, amountMinor: d.amountMinor, taxMinor: d.taxMinor ?? 0, at };
    // The journal that moves the reserve (a decision's), then the event that tells of it.
    if (outcome.journal === 'dispute_won') {
      const { owed } = await getConditionBalance(organizationId, d.currency);
      items.push(...bookJournal(disputeWonJournal({ ...ref, owed }), { owedEquals: owed }));
    } else if (outcome.journal === 'dispute_lost') {
      items.push(...bookJournal(disputeLostJournal(ref)));
    }
    // Decided: the payment's claim says what the chargeback took of it, and the rest may be refunded again.
    if (isFinalDisputeStatus(to)) items.push(repo.decideDisputeClaim(d.transactionId, takenByDispute(moved), at));
    items.push(
      outcome.event === 'dispute.updated'
        ? outboxEvent('dispute.updated', merchant, { ...basePayload(d), reason: d.reasonCode, status: to as Exclude<DisputeStatus, 'won' | 'lost'> }, at)
        : outboxEvent(outcome.event, merchant, basePayload(d), at),
    );
    try {
      await transactWrite([['dispute-move', items]]);
      return disputeView(moved);
    } catch (e) {
      if (!cancellationReasons(e)) throw e;
      // The dispute or the balance changed since it was read: read both again.
    }
  }
  throw new ConflictError('dispute.busy', "The dispute or the merchant's balance kept changing; try again.");
}
