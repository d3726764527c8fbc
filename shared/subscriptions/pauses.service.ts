/**
 * Subscription pauses (organization API): create, read, list, update and delete (end). A pause is `pending` until
 * `effectiveAt` (default now), `active` until `endAt` (null: until it is deleted), then `completed`. While paused a
 * subscription is not renewed, reminded or retried; the unused part of its paid period is kept as credit, and when the
 * pause ends a new period starts then (charged, less that credit). The engine (./renewals.service.ts) starts and ends
 * pauses on time; these routes set them up, change them, and end them at once.
 */
import { v7 as uuidv7 } from 'uuid';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { subscriptionNotFound, subscriptionPauseNotFound } from '../domain/unknown-ids.ts';
import { getChange, listChangePage, newChangeRecord, putChange } from './changes.repository.ts';
import type { PausedBy, PauseRecord } from './changes.rules.ts';
import { resumeDecision, runDue } from './renewals.service.ts';
import { apply, changed, commitOrConflict, decidableAt, subscriptionConflict } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import { changeClockOf } from './test-clock.service.ts';

export const pauseView = (p: PauseRecord) => ({
  id: p.id,
  subscriptionId: p.subscriptionId,
  status: p.status,
  pausedBy: p.pausedBy,
  description: p.description,
  effectiveAt: p.effectiveAt,
  endAt: p.endAt,
  createdAt: p.createdAt,
  updatedTime: p.updatedAt,
});

const iso = (t: string) => new Date(t).toISOString();
/** `t` as an ISO instant, or `now` when it is earlier (a pause cannot start or end in the past). */
const fromNow = (t: string, now: string) => [iso(t), now].sort()[1]!;

export interface PauseInput {
  subscriptionId: string;
  pausedBy?: PausedBy | undefined;
  description?: string | null | undefined;
  effectiveAt?: string | null | undefined;
  endAt?: string | null | undefined;
}

/** Runs what is due for the paused subscription now (the pause's start or end), and answers the pause as it is then. */
async function settle(organization: Merchant, subscriptionId: string, pauseId: string, now: string, offsetMs: number) {
  const s = await repo.getSubscription(organization.id, subscriptionId);
  if (s) await runDue(organization, s, now, offsetMs);
  return pauseView((await getChange('SUBPAUSE', organization.id, pauseId))!);
}

/**
 * Pauses a subscription that runs (trial, active or past due) from `effectiveAt` to `endAt`. 404
 * `subscription.not_found`; 409 `subscription_pause.already_open`; 422 `subscription.not_pausable`,
 * `subscription_pause.ends_before_start`. `byCustomer` (the portal): a subscription set to end is not paused either
 * (422 `subscription.not_pausable`), decided on the version the pause is written on: its end would leave the paid
 * time the pause keeps as credit unused.
 */
export async function createPause(organization: Merchant, input: PauseInput, byCustomer = false) {
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  const s = decidableAt(await repo.getSubscription(organization.id, input.subscriptionId), now);
  if (!s) throw new NotFoundError('subscription.not_found', 'No subscription with this id exists in this organization.');
  if (s.pending) throw subscriptionConflict();
  if (s.pause)
    throw new ConflictError('subscription_pause.already_open', 'The subscription has a pause already: update or delete it.', {
      subscriptionPauseId: s.pause.id,
    });
  if (s.status !== 'active' && s.status !== 'trial' && s.status !== 'past-due') {
    throw new UnprocessableError('subscription.not_pausable', `Only a subscription that runs can be paused; this one is ${s.status}.`, { status: s.status });
  }
  if (byCustomer && s.endAt) throw new UnprocessableError('subscription.not_pausable', 'This subscription is set to end, so it cannot be paused.');
  const effectiveAt = input.effectiveAt ? fromNow(input.effectiveAt, now) : now;
  const endAt = input.endAt ? iso(input.endAt) : null;
  if (endAt && endAt <= effectiveAt) throw new UnprocessableError('subscription_pause.ends_before_start', 'endAt: the pause must end after it starts.');
  const pause: PauseRecord = {
    ...newChangeRecord(s, uuidv7(), now),
    status: 'pending',
    pausedBy: input.pausedBy ?? 'merchant',
    description: input.description ?? null,
    effectiveAt,
    endAt,
  };
  await commitOrConflict(organization, s, changed(s, { pause: { id: pause.id, effectiveAt, endAt, by: pause.pausedBy } }, now), clock.offsetMs, [
    putChange('SUBPAUSE', pause),
  ]);
  return settle(organization, s.id, pause.id, now, clock.offsetMs);
}

async function ownPause(organizationId: string, id: string) {
  const p = await getChange('SUBPAUSE', organizationId, id);
  if (!p) throw subscriptionPauseNotFound();
  return p;
}

export const getPause = async (organization: Merchant, id: string) => pauseView(await ownPause(organization.id, id));

/**
 * Changes a pause that has not ended: its details; `effectiveAt` while pending; `endAt` (now or earlier ends it at
 * once). 422 `subscription_pause.completed`, `subscription_pause.ends_before_start`,
 * `subscription_pause.wrong_subscription`.
 */
export async function updatePause(organization: Merchant, id: string, input: Partial<PauseInput>) {
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  const found = await ownPause(organization.id, id);
  const hasEnded = () => new UnprocessableError('subscription_pause.completed', 'The pause has ended: it can no longer change.');
  if (found.status === 'completed') throw hasEnded();
  if (input.subscriptionId && input.subscriptionId !== found.subscriptionId) {
    throw new UnprocessableError('subscription_pause.wrong_subscription', 'subscriptionId: the pause belongs to another subscription.');
  }
  const s = decidableAt(await repo.getSubscription(organization.id, found.subscriptionId), now);
  // The record again, read after its subscription (as a cancellation's update does): each change of a pause is
  // written with a new version of its subscription, so this one is as of the version the update commits on, or newer.
  const p = await ownPause(organization.id, id);
  if (p.status === 'completed' || !s || s.pause?.id !== p.id) throw hasEnded();
  const effectiveAt = p.status === 'pending' && input.effectiveAt ? fromNow(input.effectiveAt, now) : p.effectiveAt;
  const endAt = input.endAt === undefined ? p.endAt : input.endAt === null ? null : fromNow(input.endAt, now);
  if (endAt && endAt <= effectiveAt && p.status === 'pending') {
    throw new UnprocessableError('subscription_pause.ends_before_start', 'endAt: the pause must end after it starts.');
  }
  const updated: PauseRecord = {
    ...p,
    effectiveAt,
    endAt,
    ...(input.pausedBy ? { pausedBy: input.pausedBy } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    updatedAt: now,
  };
  await commitOrConflict(organization, s, changed(s, { pause: { id, effectiveAt, endAt, by: updated.pausedBy } }, now), clock.offsetMs, [
    putChange('SUBPAUSE', updated),
  ]);
  return settle(organization, s.id, id, now, clock.offsetMs);
}

/**
 * Ends a pause now: a pending one never takes effect, an active one ends (the subscription resumes, charging a new
 * period). Answers the ended pause. 422 `subscription_pause.completed` for one that has ended; with `madeBy` (the
 * customer in the portal), 403 for a pause someone else made.
 */
export async function deletePause(organization: Merchant, id: string, madeBy?: PausedBy) {
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  const p = await ownPause(organization.id, id);
  if (madeBy && p.pausedBy !== madeBy) throw new ForbiddenError(`This pause was made by the ${p.pausedBy}, not by you: ask them to end it.`);
  if (p.status === 'completed') throw new UnprocessableError('subscription_pause.completed', 'The pause has ended already.');
  const s = decidableAt(await repo.getSubscription(organization.id, p.subscriptionId), now);
  if (!s || s.pause?.id !== p.id) throw new UnprocessableError('subscription_pause.completed', 'The pause has ended already.');
  if (s.pending) throw subscriptionConflict();
  if (s.status !== 'paused') {
    // Not started yet: it never takes effect.
    const ended: PauseRecord = { ...p, status: 'completed', endAt: now, updatedAt: now };
    await commitOrConflict(organization, s, changed(s, { pause: null }, now), clock.offsetMs, [putChange('SUBPAUSE', ended)]);
    return pauseView(ended);
  }
  // Under way: it ends now, and the subscription resumes in the same step (a new period, charged under
  // `resume:<pause>`): of requests ending it at once, one charges and the others answer what it did.
  const ending = { ...s, pause: { ...s.pause, endAt: now } };
  await apply(organization, s, await resumeDecision(ending, now), now, clock.offsetMs);
  return pauseView((await getChange('SUBPAUSE', organization.id, id))!);
}

/**
 * Ends the subscription's pause (the one pending or under way), as `deletePause` does: 404 for an unknown
 * subscription, 422 `subscription.not_paused` for one without a pause.
 */
export async function resumeSubscription(organization: Merchant, subscriptionId: string, madeBy?: PausedBy) {
  const s = await repo.getSubscription(organization.id, subscriptionId);
  if (!s) throw subscriptionNotFound();
  if (!s.pause) throw new UnprocessableError('subscription.not_paused', 'The subscription is not paused, so there is nothing to resume.');
  return deletePause(organization, s.pause.id, madeBy);
}

export interface ChangeListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

export async function listPauses(organization: Merchant, q: ChangeListQuery) {
  const page = await listChangePage('SUBPAUSE', organization.id, {
    sortBy: 'createdAt',
    sortDirection: q.sortDirection,
    offset: q.offset,
    limit: q.limit,
    range: { attribute: 'createdAt', ...(q.createdFrom ? { from: q.createdFrom } : {}), ...(q.createdTo ? { to: q.createdTo } : {}) },
  });
  return { totalCount: page.totalCount, data: page.items.map(pauseView) };
}
