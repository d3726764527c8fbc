/**
 * Recovery of past-due subscriptions when their customer sets a new primary payment instrument: fed by the table's
 * stream (changes of customers), it finds the customer's past-due subscriptions, makes the new primary instrument
 * theirs, and retries each at once (the retry's own key: a repeat of the record retries nothing twice). Changes of a
 * customer that leave its primary instrument as it was (a payment's revenue, a new address) are passed over, and so
 * are records that come late (the customer's primary is another by now) and subscriptions already charging it.
 */
import { attachPaymentInstrument, discardPaymentInstrument, findCustomer, updateCustomer } from '../customers/index.ts';
import { getMerchant } from '../people/index.ts';
import { applyStep, organizationAfter } from './renewals.service.ts';
import type { Merchant } from '../domain/merchants.ts';
import { changed, changedAfter, commit, decidableAt, subscriptionConflict } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import { locallyActive } from './subscriptions.rules.ts';
import { changeClockOf, clockOf } from './test-clock.service.ts';

/** A customer whose primary instrument changed to `instrumentId`. */
export interface PrimaryInstrumentChange {
  organizationId: string;
  customerId: string;
  instrumentId: string;
}

const primaryOf = (image: Record<string, unknown> | undefined): string | null => {
  const p = image?.primaryPaymentInstrument as { id?: unknown } | undefined;
  return typeof p?.id === 'string' ? p.id : null;
};

/** The change of a customer's stream record (old and new images, unmarshalled), or null when its primary stayed. */
export function primaryInstrumentChange(
  oldImage: Record<string, unknown> | undefined,
  newImage: Record<string, unknown> | undefined,
): PrimaryInstrumentChange | null {
  const next = primaryOf(newImage);
  if (!next || next === primaryOf(oldImage)) return null;
  return { organizationId: newImage!.organizationId as string, customerId: newImage!.id as string, instrumentId: next };
}

/** Retries the customer's past-due subscriptions with its new primary instrument, at once. */
export async function retryPastDue(change: PrimaryInstrumentChange): Promise<number> {
  const [organization, clock, subscriptions] = await Promise.all([
    getMerchant(change.organizationId),
    clockOf(change.organizationId),
    repo.listCustomerSubscriptions(change.organizationId, change.customerId),
  ]);
  if (!organization) return 0;
  // A record the stream brings late (the change was undone or replaced since) retries nothing.
  const customer = await findCustomer(change.organizationId, change.customerId);
  if (customer?.primaryPaymentInstrument?.id !== change.instrumentId) return 0;
  let retried = 0;
  let org = organization;
  // Oldest first, as they were made.
  for (const s of subscriptions.filter((s) => s.status === 'past-due').reverse()) {
    // Already charging that instrument: nothing new to try (its dunning goes on).
    if (s.paymentInstrumentId === change.instrumentId) continue;
    const now = clock.now();
    // Changed since the clock was read (a test clock advance): its dunning goes on from where it is.
    if (changedAfter(s, now)) continue;
    const adopted = changed(s, { paymentInstrumentId: change.instrumentId, isAutoPay: true }, now);
    if (!(await commit(org, s, adopted, clock.offsetMs))) continue;
    org = organizationAfter(org, s, await applyStep(org, adopted, 'retry', now, clock.offsetMs));
    retried++;
  }
  return retried;
}

/**
 * A customer's card replaced (the portal's card form): the card token becomes the customer's card (its refusals —
 * used, expired, unknown — thrown), the instrument of each of the customer's subscriptions that still charges (a
 * past-due one retried with it at once, see `adoptInstrument`) and the customer's primary card. When another change
 * of a subscription came first (409 `subscription.conflict`) before any took the card, the card is discarded again:
 * the losing request leaves nothing behind.
 */
export async function replaceCard(organization: Merchant, customerId: string, tokenId: string): Promise<void> {
  const instrument = await attachPaymentInstrument(organization.id, customerId, tokenId);
  const taken = await adoptInstrument(organization, customerId, instrument.id);
  if (taken.lost) {
    // None took it: discarded, unless it became the customer's primary card on attaching (the customer had none).
    if (taken.adopted === 0 && (await findCustomer(organization.id, customerId))?.primaryPaymentInstrument?.id !== instrument.id) {
      await discardPaymentInstrument(customerId, instrument.id, new Date().toISOString());
    }
    throw subscriptionConflict();
  }
  await updateCustomer(organization, customerId, { primaryPaymentInstrument: { method: instrument.method, id: instrument.id } });
}

/**
 * Makes `instrumentId` (the customer's new card) the instrument of each of the customer's subscriptions that still
 * charges (trial, active, paused, past due), and retries a past-due one with it at once. Each change is the engine's
 * versioned write: when another change of one comes first, the rest are left as they are (`lost`). Answers how many
 * took the card, and how many of those were retried.
 */
export async function adoptInstrument(
  organization: Merchant,
  customerId: string,
  instrumentId: string,
): Promise<{ adopted: number; retried: number; lost: boolean }> {
  const [clock, subscriptions] = await Promise.all([changeClockOf(organization.id), repo.listCustomerSubscriptions(organization.id, customerId)]);
  // Oldest first, as they were made.
  const charging = subscriptions.filter((s) => locallyActive.includes(s.status)).reverse();
  let adopted = 0;
  let retried = 0;
  let org = organization;
  for (const s of charging) {
    if (s.paymentInstrumentId === instrumentId) continue;
    const now = clock.now();
    decidableAt(s, now);
    const next = changed(s, { paymentInstrumentId: instrumentId, isAutoPay: true }, now);
    if (!(await commit(org, s, next, clock.offsetMs))) return { adopted, retried, lost: true };
    adopted++;
    if (s.status === 'past-due') {
      org = organizationAfter(org, s, await applyStep(org, next, 'retry', now, clock.offsetMs));
      retried++;
    }
  }
  return { adopted, retried, lost: false };
}
