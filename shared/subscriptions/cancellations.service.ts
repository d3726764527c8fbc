/**
 * Subscription cancellations (organization API): create, read, list and update. A confirmed cancellation ends the
 * subscription at once (`now`; with `prorated`, the unused part of the paid period is refunded) or schedules its end
 * (`at-next-renewal`, the default, or `cancelAt`); a draft does nothing until it is confirmed; an update may revoke
 * it before it takes effect. The record and its subscription are written in one transaction, on the condition that
 * the subscription is still the version read.
 */
import { v7 as uuidv7 } from 'uuid';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { subscriptionCancellationNotFound } from '../domain/unknown-ids.ts';
import { divideHalfEven, toMajorUnits } from '../domain/money.ts';
import {
  findTransaction,
  getDisputeClaim,
  isRefundableStatus,
  newRefundId,
  refundableMinor,
  refundsClaimedWith,
  taxInPayment,
  type Transaction,
} from '../payments/index.ts';
import { partItems } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { type AddressedMail, outboxMail } from '../platform/mail/outbox.ts';
import { getChange, listAllChanges, newChangeRecord, putChange } from './changes.repository.ts';
import {
  churnTime,
  paidUntil,
  type Cancellation,
  type CancellationReason,
  type CancellationSort,
  type CancellationStatus,
  type CancelledBy,
  type ChurnTimePolicy,
} from './changes.rules.ts';
import { prorate } from './periods.rules.ts';
import { unusedValue } from './renewals.service.ts';
import { changed, commitOrConflict, decidableAt, stepParts, subscriptionConflict, unpaidInvoiceVoid } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import type { Subscription } from './subscription.entity.ts';
import { changeClockOf } from './test-clock.service.ts';

const subscriptionMissing = () => new NotFoundError('subscription.not_found', 'No subscription with this id exists in this organization.');

export function cancellationView(c: Cancellation) {
  const subtotal = c.lineItems.reduce((n, li) => n + (li.type === 'credit' ? -1 : 1) * li.unitPriceMinor * li.quantity, 0);
  const currency = c.lineItems[0]?.currency ?? null;
  return {
    id: c.id,
    organizationId: c.organizationId,
    subscriptionId: c.subscriptionId,
    proratedInvoiceId: c.proratedInvoiceId,
    appliedInvoiceId: c.appliedInvoiceId,
    cancelledBy: c.cancelledBy,
    reason: c.reason,
    description: c.description,
    prorated: c.prorated,
    status: c.status,
    cancelledAt: c.cancelledAt,
    updatedAt: c.updatedAt,
    churnedAt: c.churnedAt,
    churnTimePolicy: c.churnTimePolicy,
    lineItems: c.lineItems.map((li) => ({
      type: li.type,
      description: li.description,
      unitPriceAmount: toMajorUnits(li.unitPriceMinor, li.currency),
      unitPriceCurrency: li.currency,
      quantity: li.quantity,
      periodStartsAt: li.periodStartsAt,
      periodEndsAt: li.periodEndsAt,
      createdAt: li.createdAt,
    })),
    lineItemsSubtotal: currency ? { amount: toMajorUnits(subtotal, currency), currency } : null,
    createdAt: c.createdAt,
    isTestData: c.isTestData,
  };
}

/**
 * How the key of a prorated cancellation's refund starts (`cancellation:<cancellation>:<transaction>`): a refund no
 * request retries, which the reconciler makes when the processor never got it (shared/reconciliation).
 */
export const CANCELLATION_REFUND_KEY = 'cancellation:';

const ended = (s: Subscription) => s.status === 'canceled' || s.status === 'completed' || s.status === 'incomplete';

/**
 * 422 `subscription_cancellation.prorated_not_now` for `c`, prorated, when it would end `s` later than `now`: the
 * unused time is refunded with an end made at once; one at a later time (at the next renewal, at `cancelAt`) leaves
 * the time up to it used, and refunds nothing.
 */
function refuseProratedLater(s: Subscription, c: Cancellation, now: string) {
  const churnedAt = churnTime(c, now, paidUntil(s, now));
  if (c.prorated && churnedAt > now) {
    throw new UnprocessableError(
      'subscription_cancellation.prorated_not_now',
      `prorated: only a cancellation that ends the subscription now refunds its unused time, and this one ends it at ${churnedAt}. Cancel now, or leave prorated out.`,
    );
  }
}

/** At most this many payments give back one cancellation's money (newest first): their claims share its transaction. */
export const MAX_REFUNDED_PAYMENTS = 12;

/**
 * What a prorated cancellation of `s` at `now` owes back before tax (minor units), before what its payments allow:
 * the unused part of the paid period at what the period is worth now (a prorated change since re-priced it) and the
 * credit carried (a pause's, a downgrade's). Each payment that gives it back adds the tax it was charged with (`takeFrom`).
 */
function owedBack(s: Subscription, now: string): { unusedMinor: number; creditMinor: number } {
  if (s.status !== 'active' && s.status !== 'paused') return { unusedMinor: 0, creditMinor: 0 };
  return { unusedMinor: s.status === 'active' ? unusedValue(s, now) : 0, creditMinor: s.creditMinor };
}

/** A payment of the paid period that can still give money back, with what a decided dispute took of it (null: none). */
interface PeriodPayment {
  transaction: Transaction;
  takenMinor: number | null;
}

/** What is left to give back of `p`: what neither its refunds nor a lost dispute took. */
const leftOf = (p: PeriodPayment) => refundableMinor(p.transaction, p.takenMinor ?? 0);

/**
 * The paid period's payments that can still give money back, newest first (the items changes' charges, then its first
 * payment); `disputed` when one of them has an open dispute, which holds its money and decides what the buyer gets back.
 */
async function periodPayments(s: Subscription): Promise<PeriodPayment[] | 'disputed'> {
  const ids = [...s.periodChargeIds].reverse().concat(s.periodTransactionId ? [s.periodTransactionId] : []);
  // Read strongly: a charge settled a moment ago counts with what it paid.
  const read = await Promise.all(ids.map((id) => Promise.all([findTransaction(s.organizationId, id), getDisputeClaim(id)])));
  if (read.some(([, dispute]) => dispute && !dispute.decidedAt)) return 'disputed';
  return read.flatMap(([t, dispute]) => {
    const p = t && { transaction: t, takenMinor: dispute ? dispute.takenMinor : null };
    return p && isRefundableStatus(t.status) && t.externalTransactionId && leftOf(p) > 0 ? [p] : [];
  });
}

/**
 * `owedMinor` (before tax) taken from `payments` in order, from at most `MAX_REFUNDED_PAYMENTS` of them: each gives
 * back its part with the tax in the proportion it was charged with (`amountMinor`, at most what is left of it; the
 * ledger takes that proportion of its tax back), whatever the tax of the others or where the buyer is now.
 * `netMinor`: the part of `owedMinor` it gave back.
 */
export function takeFrom(payments: PeriodPayment[], owedMinor: number): Array<PeriodPayment & { amountMinor: number; netMinor: number }> {
  const taken: Array<PeriodPayment & { amountMinor: number; netMinor: number }> = [];
  let left = owedMinor;
  for (const p of payments.slice(0, MAX_REFUNDED_PAYMENTS)) {
    if (left <= 0) break;
    const gross = p.transaction.amountMinor;
    const net = gross - taxInPayment(p.transaction);
    const withTax = Number(divideHalfEven(BigInt(left) * BigInt(gross), BigInt(net)));
    const amountMinor = Math.min(withTax, leftOf(p));
    const netMinor = amountMinor === withTax ? left : prorate(amountMinor, net, gross);
    taken.push({ ...p, amountMinor, netMinor });
    left -= netMinor;
  }
  return taken;
}

/**
 * Applies the confirmed cancellation `c` to `s` at `now`, as one step on the version read: ends it at once or
 * schedules its end. Ending at once with `prorated`, what the subscription owes back is refunded — the unused part of
 * the paid period and the credit it carries (`owedBack`) — from the period's payments, newest first (its items
 * changes' charges, then its first payment), each at most what is left of it: the refunds are claimed in the step's
 * own transaction (with the record, the subscription's version and its events), so a cancellation that lost its race
 * refunds nothing, and a refund is never made without its cancellation; a payment whose dispute was decided gives
 * back what the dispute left of it, and when one of them has an open dispute, nothing is refunded (its dispute decides). `tell`: a mail of the cancellation as written, written with it
 * (shared/platform/mail/outbox.ts). Answers the record as written; 409 `subscription.conflict` when the subscription
 * changed meanwhile.
 */
async function applyConfirmed(
  organization: Merchant,
  s: Subscription,
  c: Cancellation,
  now: string,
  offsetMs: number,
  tell?: (record: Cancellation) => AddressedMail,
): Promise<Cancellation> {
  if (s.pending) throw subscriptionConflict();
  const told = (record: Cancellation): TransactItem[] => {
    const m = tell?.(record);
    return m ? [outboxMail(m.to, m.mail, now)] : [];
  };
  const churnedAt = churnTime(c, now, paidUntil(s, now));
  if (churnedAt > now) {
    const record: Cancellation = { ...c, status: 'confirmed', cancelledAt: c.cancelledAt ?? now, churnedAt, updatedAt: now };
    const next = changed(s, { endAt: churnedAt, openCancellationId: c.id }, now);
    await commitOrConflict(organization, s, next, offsetMs, [putChange('SUBCANCEL', record), ...told(record)]);
    return record;
  }
  // At once: what it owes back, when asked for, from what is left of the period's payments.
  const owed = c.prorated ? owedBack(s, now) : { unusedMinor: 0, creditMinor: 0 };
  const payments = owed.unusedMinor + owed.creditMinor > 0 ? await periodPayments(s) : [];
  const [pause, unpaid] = await Promise.all([s.pause ? getChange('SUBPAUSE', s.organizationId, s.pause.id) : null, unpaidInvoiceVoid(s, now)]);
  /** Ends `s` now, refunding `taken` of the period's payments (nothing: none). */
  const end = async (taken: ReturnType<typeof takeFrom>): Promise<Cancellation> => {
    const refunded = taken.reduce((n, r) => n + r.amountMinor, 0);
    const given = taken.reduce((n, r) => n + r.netMinor, 0);
    // The unused time first, then the credit: what of the credit was given back (before tax) is no longer held. The
    // lines share what was refunded, tax included, as they share what was given back.
    const unusedGiven = Math.min(given, owed.unusedMinor);
    const unusedLine = given > 0 ? prorate(refunded, unusedGiven, given) : 0;
    const creditLine = refunded - unusedLine;
    const creditGiven = given - unusedGiven;
    const next = changed(
      s,
      {
        status: 'canceled',
        endedAt: now,
        endAt: null,
        openCancellationId: null,
        pause: null,
        pastDue: null,
        creditMinor: s.creditMinor - creditGiven,
      },
      now,
    );
    // Each refund, once refunded, credits the paid invoice of its payment by what it gave back (the refunds' settlement).
    const refunds = taken.map((r) => ({ ...r, refundId: newRefundId(), idempotencyKey: `${CANCELLATION_REFUND_KEY}${c.id}:${r.transaction.id}` }));
    const line = (description: string, amountMinor: number) => ({
      type: 'credit' as const,
      description,
      unitPriceMinor: amountMinor,
      currency: s.currency,
      quantity: 1,
      periodStartsAt: now,
      periodEndsAt: s.periodEnd && s.periodEnd > now ? s.periodEnd : now,
      createdAt: now,
    });
    const record: Cancellation = {
      ...c,
      status: 'completed',
      cancelledAt: c.cancelledAt ?? now,
      churnedAt: now,
      updatedAt: now,
      ...(refunds.length
        ? {
            refundIds: refunds.map((r) => r.refundId),
            proratedInvoiceId: s.periodInvoiceId,
            lineItems: [
              ...(unusedLine > 0 ? [line(`Unused time of ${s.name}`, unusedLine)] : []),
              ...(creditLine > 0 ? [line(`Credit left on ${s.name}`, creditLine)] : []),
            ],
          }
        : {}),
    };
    const extra = [
      putChange('SUBCANCEL', record),
      ...(pause ? [putChange('SUBPAUSE', { ...pause, status: 'completed' as const, endAt: pause.endAt ?? now, updatedAt: now })] : []),
      ...unpaid,
      ...told(record),
    ];
    if (!refunds.length) {
      await commitOrConflict(organization, s, next, offsetMs, extra);
      return record;
    }
    try {
      await refundsClaimedWith(
        organization,
        refunds,
        { reason: 'Subscription canceled: unused time', source: 'api' },
        {
          items: [
            ...partItems(stepParts(organization, s, next, offsetMs, extra)),
            ...refunds.map((r) =>
              repo.putMoneyStep({
                subscriptionId: s.id,
                decidedOnVersion: s.version,
                kind: 'refund',
                id: r.refundId,
                key: r.idempotencyKey,
                amountMinor: r.amountMinor,
                at: now,
              }),
            ),
          ],
          refused: subscriptionConflict,
        },
      );
    } catch (e) {
      // A disputed payment's money is held for its dispute, whose outcome decides what the buyer gets back (a refund as
      // well could pay it twice): the subscription ends all the same, refunding nothing.
      if (e instanceof DomainError && e.code === 'refund.transaction_disputed') return end([]);
      // One of the payments was refunded or changed since it was read (by a cancellation decided on the same version,
      // a refund of its own), or other refunds kept landing first: nothing was done; decided again, the refunds are
      // what is left.
      if (e instanceof DomainError && ['refund.amount_exceeds_refundable', 'refund.transaction_not_refundable', 'refund.conflict'].includes(e.code)) {
        throw subscriptionConflict();
      }
      throw e;
    }
    return record;
  };
  // A payment under an open dispute: its dispute decides what the buyer gets back, so the cancellation refunds nothing.
  return end(payments === 'disputed' ? [] : takeFrom(payments, owed.unusedMinor + owed.creditMinor));
}

export interface CreateCancellationInput {
  subscriptionId: string;
  reason?: CancellationReason | null | undefined;
  cancelAt?: string | null | undefined;
  description?: string | null | undefined;
  status?: 'draft' | 'confirmed' | undefined;
  churnTimePolicy?: ChurnTimePolicy | null | undefined;
  prorated?: boolean | undefined;
  cancelledBy?: Exclude<CancelledBy, 'system'> | undefined;
}

/**
 * A cancellation of the organization's subscription. 404 `subscription.not_found`; 409
 * `subscription_cancellation.already_open` while another is draft or confirmed; 422 `subscription.ended`. `tell`: a
 * mail of the confirmed cancellation as written (the portal's to the merchant's owner), written in its transaction, so
 * it is sent if and only if the cancellation is made.
 */
export async function createCancellation(organization: Merchant, input: CreateCancellationInput, tell?: (record: Cancellation) => AddressedMail) {
  const clock = await changeClockOf(organization.id);
  const id = uuidv7();
  const now = clock.now();
  const s = decidableAt(await repo.getSubscription(organization.id, input.subscriptionId), now);
  if (!s) throw subscriptionMissing();
  if (ended(s)) throw new UnprocessableError('subscription.ended', `The subscription is ${s.status} already.`, { status: s.status });
  if (s.openCancellationId) {
    throw new ConflictError('subscription_cancellation.already_open', 'The subscription has an open cancellation: update or revoke it instead.', {
      subscriptionCancellationId: s.openCancellationId,
    });
  }
  const c: Cancellation = {
    ...newChangeRecord(s, id, now),
    proratedInvoiceId: null,
    appliedInvoiceId: null,
    cancelledBy: input.cancelledBy ?? 'merchant',
    reason: input.reason ?? null,
    description: input.description ?? null,
    prorated: input.prorated ?? false,
    status: input.status ?? 'confirmed',
    cancelledAt: null,
    churnedAt: null,
    churnTimePolicy: input.cancelAt ? null : (input.churnTimePolicy ?? 'at-next-renewal'),
    cancelAt: input.cancelAt ? new Date(input.cancelAt).toISOString() : null,
    lineItems: [],
    refundIds: [],
  };
  refuseProratedLater(s, c, now);
  if (c.status === 'draft') {
    await commitOrConflict(organization, s, changed(s, { openCancellationId: id }, now), clock.offsetMs, [putChange('SUBCANCEL', c)]);
    return cancellationView(c);
  }
  return cancellationView(await applyConfirmed(organization, s, c, now, clock.offsetMs, tell));
}

async function ownCancellation(organizationId: string, id: string, showTestData = true): Promise<Cancellation> {
  const c = await getChange('SUBCANCEL', organizationId, id);
  if (!c || (!showTestData && c.isTestData)) throw subscriptionCancellationNotFound();
  return c;
}

export const getCancellation = async (organization: Merchant, id: string, showTestData = true) =>
  cancellationView(await ownCancellation(organization.id, id, showTestData));

export interface UpdateCancellationInput {
  subscriptionId?: string | undefined;
  description?: string | null | undefined;
  reason?: CancellationReason | null | undefined;
  prorated?: boolean | undefined;
  churnedAt?: string | null | undefined;
  churnTimePolicy?: ChurnTimePolicy | null | undefined;
  status?: 'confirmed' | 'revoked' | undefined;
}

/**
 * Changes a draft or confirmed cancellation that has not taken effect: its details, its timing (`churnedAt` a date of
 * its own, or `churnTimePolicy`), `status: confirmed` (a draft takes effect) or `status: revoked` (the subscription
 * carries on). 422 `subscription_cancellation.closed` once completed or revoked, `subscription_cancellation.wrong_subscription`;
 * with `madeBy` (the portal's customer), 403 for a cancellation another party made: the customer undoes only their own.
 */
export async function updateCancellation(organization: Merchant, id: string, input: UpdateCancellationInput, madeBy?: CancelledBy) {
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  const closed = (c: Cancellation) =>
    new UnprocessableError('subscription_cancellation.closed', `The cancellation is ${c.status}: it can no longer change.`, { status: c.status });
  const found = await ownCancellation(organization.id, id);
  if (madeBy && found.cancelledBy !== madeBy)
    throw new ForbiddenError(`This cancellation was made by the ${found.cancelledBy}, not by you: ask them to change it.`);
  if (found.status === 'completed' || found.status === 'revoked') throw closed(found);
  if (input.subscriptionId && input.subscriptionId !== found.subscriptionId) {
    throw new UnprocessableError('subscription_cancellation.wrong_subscription', 'subscriptionId: the cancellation belongs to another subscription.');
  }
  const s = decidableAt(await repo.getSubscription(organization.id, found.subscriptionId), now);
  if (!s) throw subscriptionMissing();
  // The record again, read after its subscription: each change of a cancellation is written with a new version of its
  // subscription, so this is the record as of the version the change is conditioned on, or newer (then the change
  // loses its race). The first read may be older than that version: another request may have revoked, completed or
  // edited it between the two reads, and deciding on it would undo that (a revoked cancellation refunded, say).
  const c = await ownCancellation(organization.id, id);
  if (c.status === 'completed' || c.status === 'revoked') throw closed(c);
  if (s.openCancellationId !== c.id) throw subscriptionConflict();
  const edited: Cancellation = {
    ...c,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.prorated !== undefined ? { prorated: input.prorated } : {}),
    ...(input.churnedAt !== undefined ? { cancelAt: input.churnedAt ? new Date(input.churnedAt).toISOString() : null } : {}),
    ...(input.churnTimePolicy !== undefined ? { churnTimePolicy: input.churnTimePolicy, ...(input.churnedAt ? {} : { cancelAt: null }) } : {}),
    updatedAt: now,
  };
  if (input.status !== 'revoked') refuseProratedLater(s, edited, now);
  if (input.status === 'revoked') {
    const record: Cancellation = { ...edited, status: 'revoked' };
    const next = changed(s, s.openCancellationId === c.id ? { openCancellationId: null, endAt: null } : {}, now);
    await commitOrConflict(organization, s, next, clock.offsetMs, [putChange('SUBCANCEL', record)]);
    return cancellationView(record);
  }
  const status: CancellationStatus = input.status ?? c.status;
  if (status === 'draft') {
    await commitOrConflict(organization, s, changed(s, {}, now), clock.offsetMs, [putChange('SUBCANCEL', edited)]);
    return cancellationView(edited);
  }
  return cancellationView(await applyConfirmed(organization, s, { ...edited, status: 'confirmed' }, now, clock.offsetMs));
}

export interface CancellationListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: CancellationSort;
  showTestData: boolean;
  statuses?: CancellationStatus[] | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  reasons?: CancellationReason[] | undefined;
  cancelledBy?: CancelledBy[] | undefined;
}

/** The organization's cancellations, filtered and sorted (read whole and sorted: an organization has few). */
export async function listCancellations(organization: Merchant, q: CancellationListQuery) {
  const all = (await listAllChanges('SUBCANCEL', organization.id)).filter(
    (c) =>
      (q.showTestData || !c.isTestData) &&
      (!q.statuses?.length || q.statuses.includes(c.status)) &&
      (!q.reasons?.length || (c.reason !== null && q.reasons.includes(c.reason))) &&
      (!q.cancelledBy?.length || q.cancelledBy.includes(c.cancelledBy)) &&
      (!q.createdFrom || c.createdAt >= q.createdFrom) &&
      (!q.createdTo || c.createdAt <= q.createdTo),
  );
  const dir = q.sortDirection === 'asc' ? 1 : -1;
  const key = (c: Cancellation) => c[q.sortBy] ?? '';
  all.sort((a, b) => (key(a) === key(b) ? (a.id < b.id ? -dir : dir) : key(a) < key(b) ? -dir : dir));
  return { totalCount: all.length, data: all.slice(q.offset, q.offset + q.limit).map(cancellationView) };
}
