/**
 * Subscription reactivations (organization API): bring back a canceled (or completed) subscription from
 * `effectiveAt`, charging a new period at once with `paymentInstrumentId` (or the subscription's) — the next renewal at
 * `renewalAt` (the period before it prorated), or a full period on; or revoke a confirmed cancellation that has not
 * taken effect (`cancellationId`): the subscription carries on, nothing is charged. A reactivation that brings a
 * subscription back sends `subscription.created` again (it is locally active again); revoking sends nothing (it never
 * stopped).
 */
import { isDeepStrictEqual } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { DomainError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { subscriptionReactivationNotFound } from '../domain/unknown-ids.ts';
import { paymentInstrumentNotFound } from '../domain/unknown-ids.ts';
import { findPaymentInstrument } from '../customers/index.ts';
import { getChange, listChangePage, newChangeRecord, putChange } from './changes.repository.ts';
import type { Reactivation } from './changes.rules.ts';
import { anchorFor, shortFirstPeriodFits } from './periods.rules.ts';
import { afterCharge, periodSpec } from './renewals.service.ts';
import { apply, changed, commit, commitOrConflict, decidableAt, subscriptionConflict } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import type { Subscription } from './subscription.entity.ts';
import { notStarted } from './subscriptions.rules.ts';
import { changeClockOf } from './test-clock.service.ts';
import type { ChangeListQuery } from './pauses.service.ts';

export const reactivationView = (r: Reactivation) => ({
  id: r.id,
  subscriptionId: r.subscriptionId,
  cancellationId: r.cancellationId,
  description: r.description,
  effectiveAt: r.effectiveAt,
  renewalAt: r.renewalAt,
  paymentInstrumentId: r.paymentInstrumentId,
  transactionId: r.transactionId,
  createdAt: r.createdAt,
  updatedTime: r.updatedAt,
});

export interface ReactivationInput {
  subscriptionId: string;
  description?: string | null | undefined;
  effectiveAt?: string | null | undefined;
  renewalAt?: string | null | undefined;
  paymentInstrumentId?: string | null | undefined;
  cancellationId?: string | null | undefined;
}

const iso = (t: string) => new Date(t).toISOString();

/**
 * 404 `subscription.not_found`, `subscription_cancellation.not_found`, `payment_instrument.not_found`; 402
 * `payment.declined` (nothing changes); 422 `subscription.not_reactivatable` for a subscription that runs with no
 * confirmed cancellation to revoke (nor a `cancellationId`), `subscription_reactivation.renewal_before_start`.
 * `endedOnly` (the portal): a subscription that runs is 422 `subscription.not_reactivatable` whatever its cancellation,
 * decided on the version the reactivation is written on (the portal undoes only the customer's own, by its cancel form).
 */
export async function createReactivation(organization: Merchant, input: ReactivationInput, endedOnly = false) {
  const clock = await changeClockOf(organization.id);
  const id = uuidv7();
  const now = clock.now();
  const s = decidableAt(await repo.getSubscription(organization.id, input.subscriptionId), now);
  if (!s) throw new NotFoundError('subscription.not_found', 'No subscription with this id exists in this organization.');
  if (s.pending) throw subscriptionConflict();
  const base = {
    ...newChangeRecord(s, id, now),
    description: input.description ?? null,
  };

  const ended = s.status === 'canceled' || s.status === 'completed';
  const notReactivatable = () =>
    new UnprocessableError('subscription.not_reactivatable', `The subscription is ${s.status}: only an ended one can be reactivated.`, {
      status: s.status,
    });
  if (endedOnly && !ended) throw notReactivatable();
  const cancellationId = input.cancellationId ?? (ended ? null : s.openCancellationId);
  if (cancellationId) {
    // Revoke a cancellation that has not taken effect.
    const c = await getChange('SUBCANCEL', organization.id, cancellationId);
    if (!c || c.subscriptionId !== s.id)
      throw new NotFoundError('subscription_cancellation.not_found', 'No subscription cancellation with this id exists for this subscription.');
    // A draft changes nothing, so a running subscription under one has nothing to come back from: only a reactivation
    // naming it revokes it (as its PATCH does).
    if (!input.cancellationId && c.status === 'draft') throw notReactivatable();
    if (c.status !== 'confirmed' && c.status !== 'draft') {
      throw new UnprocessableError('subscription.not_reactivatable', `The cancellation is ${c.status}: only one that has not taken effect can be revoked.`);
    }
    const record: Reactivation = {
      ...base,
      cancellationId,
      effectiveAt: now,
      renewalAt: s.periodEnd,
      paymentInstrumentId: s.paymentInstrumentId,
      transactionId: null,
    };
    const next = changed(s, { openCancellationId: null, endAt: null }, now);
    const extra = [putChange('SUBREACT', record), putChange('SUBCANCEL', { ...c, status: 'revoked' as const, updatedAt: now })];
    await commitOrConflict(organization, s, next, clock.offsetMs, extra);
    return reactivationView(record);
  }
  if (!ended) throw notReactivatable();
  const instrumentId = input.paymentInstrumentId ?? s.paymentInstrumentId;
  if (input.paymentInstrumentId) {
    const instrument = await findPaymentInstrument(organization.id, input.paymentInstrumentId);
    if (!instrument || instrument.deletedAt || instrument.customerId !== s.customerId) throw paymentInstrumentNotFound();
  }
  const effectiveAt = input.effectiveAt && iso(input.effectiveAt) > now ? iso(input.effectiveAt) : now;
  const renewalAt = input.renewalAt ? iso(input.renewalAt) : null;
  if (renewalAt && renewalAt <= effectiveAt) {
    throw new UnprocessableError(
      'subscription_reactivation.renewal_before_start',
      'renewalAt: the next renewal must come after the reactivation takes effect.',
    );
  }
  const anchor = anchorFor(renewalAt ?? effectiveAt, {
    unit: s.cycle.unit,
    length: s.cycle.length,
    periodAnchorInstruction: renewalAt ? null : s.anchorInstruction,
  });
  if (renewalAt && !shortFirstPeriodFits(effectiveAt, anchor)) {
    throw new UnprocessableError(
      'subscription_reactivation.renewal_too_far',
      `renewalAt: the next renewal must come at most one billing cycle (${s.cycle.length} ${s.cycle.unit}${s.cycle.length === 1 ? '' : 's'}) after the reactivation takes effect.`,
    );
  }
  const back: Subscription = {
    ...s,
    ...notStarted(),
    paymentInstrumentId: instrumentId,
    startAt: effectiveAt,
    trialEndAt: null,
    isTrialOnly: false,
    anchor,
  };
  const record: Reactivation = { ...base, cancellationId: null, effectiveAt, renewalAt, paymentInstrumentId: instrumentId, transactionId: null };
  if (effectiveAt > now) {
    // Starts later: the engine charges it then (a decline then leaves it incomplete).
    await commitOrConflict(organization, s, changed(s, back, now), clock.offsetMs, [putChange('SUBREACT', record)]);
    return reactivationView(record);
  }
  // Charged now, in the step that brings it back, under `reactivation:<id>`.
  const p = anchor.at > effectiveAt ? -1 : 0;
  const n = s.periodNumber + 1;
  const spec = { ...periodSpec(back, p, n, `reactivation:${id}`), invoiceIfDeclined: false };
  const done: Reactivation = { ...record, transactionId: spec.amountMinor > 0 ? spec.transactionId : null };
  const { version: _v, updatedAt: _u, dueAt: _d, pending: _p, ...backChanges } = back;
  // Charged on the card it names (taxed where that card places the buyer); declined, nothing changes, the card either.
  const applied = await apply(
    organization,
    { ...s, paymentInstrumentId: instrumentId },
    {
      changes: { ...backChanges, ...afterCharge(back, p, n, 0, true, spec, now) },
      extra: [putChange('SUBREACT', done)],
      charge: { spec, declined: { changes: { paymentInstrumentId: s.paymentInstrumentId }, extra: [] } },
    },
    now,
    clock.offsetMs,
  );
  if (applied.outcome && !applied.outcome.paid) {
    // The step kept where the declined charge was taxed (the named card's place); nothing is left changed.
    const { subscription: after } = applied;
    if (!after.pending && !isDeepStrictEqual(after.billingAddress, s.billingAddress)) {
      // Best effort: the decline is the answer, whatever this write meets.
      await commit(organization, after, changed(after, { billingAddress: s.billingAddress }, now), clock.offsetMs).catch(() => false);
    }
    throw new DomainError(402, 'payment.declined', `The reactivation's payment was declined (${applied.outcome.reason}); the subscription stays ${s.status}.`, {
      subscriptionId: s.id,
      transactionId: applied.outcome.transactionId,
      declineCode: applied.outcome.reason,
    });
  }
  return reactivationView(done);
}

export const getReactivation = async (organization: Merchant, id: string) => {
  const r = await getChange('SUBREACT', organization.id, id);
  if (!r) throw subscriptionReactivationNotFound();
  return reactivationView(r);
};

export async function listReactivations(organization: Merchant, q: ChangeListQuery) {
  const page = await listChangePage('SUBREACT', organization.id, {
    sortBy: 'createdAt',
    sortDirection: q.sortDirection,
    offset: q.offset,
    limit: q.limit,
    range: { attribute: 'createdAt', ...(q.createdFrom ? { from: q.createdFrom } : {}), ...(q.createdTo ? { to: q.createdTo } : {}) },
  });
  return { totalCount: page.totalCount, data: page.items.map(reactivationView) };
}
