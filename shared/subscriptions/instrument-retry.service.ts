/**
 * Recovery of past-due subscriptions when their customer sets a new primary payment instrument: fed by the table's
 * stream (changes of customers), it finds the customer's past-due subscriptions, makes the new primary instrument
 * theirs, and retries each at once (the retry's own key: a repeat of the record retries nothing twice). Changes of a
 * customer that leave its primary instrument as it was (a payment's revenue, a new address) are passed over, and so
 * are records that come late (the customer's primary is another by now) and subscriptions already charging it.
 */
import { attachPaymentInstrument, findCustomer, primaryIs } from '../customers/index.ts';
import { backoff, tryTransactWrite } from '../platform/db/transactions.ts';
import { getMerchant } from '../people/index.ts';
import { applyStep, organizationAfter } from './renewals.service.ts';
import type { Merchant } from '../domain/merchants.ts';
import { changed, changedAfter, commit, decidableAt, stepParts, subscriptionConflict } from './steps.service.ts';
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
 * A customer's card replaced (the portal's card form): the card token becomes the customer's card and its primary
 * one in one transaction (its refusals — used, expired, unknown — thrown), conditional on the primary it replaces, so
 * of two replacements at once one saves its card and the other is 409 `customer.changed` with nothing saved. Then each
 * of the customer's subscriptions that still charges takes it (a past-due one retried with it at once, see
 * `adoptInstrument`).
 */
export async function replaceCard(organization: Merchant, customerId: string, tokenId: string): Promise<void> {
  const instrument = await attachPaymentInstrument(organization.id, customerId, tokenId, true);
  await adoptInstrument(organization, customerId, instrument.id);
}

/** How often a subscription that changed meanwhile is read again to take the customer's new card. */
const ADOPT_ATTEMPTS = 5;

/**
 * Makes `instrumentId` (the customer's new primary card) the instrument of each of the customer's subscriptions that
 * still charges (trial, active, paused, past due), and retries a past-due one with it at once. Each change is the
 * engine's versioned write, conditional on the card still being the customer's primary: a subscription that changed
 * meanwhile (or has a step pending) is read again and takes it then; once another card has replaced it, the rest are
 * left to that card's own replacement. 409 `subscription.conflict` when a subscription kept changing.
 */
export async function adoptInstrument(organization: Merchant, customerId: string, instrumentId: string): Promise<void> {
  const [clock, subscriptions] = await Promise.all([changeClockOf(organization.id), repo.listCustomerSubscriptions(organization.id, customerId)]);
  let org = organization;
  // Oldest first, as they were made.
  for (let s of subscriptions.reverse()) {
    for (let attempt = 1; locallyActive.includes(s.status) && s.paymentInstrumentId !== instrumentId; attempt++) {
      if (!s.pending) {
        const now = clock.now();
        const next = changed(decidableAt(s, now), { paymentInstrumentId: instrumentId, isAutoPay: true }, now);
        const refused = await tryTransactWrite([...stepParts(org, s, next, clock.offsetMs), ['primary', [primaryIs(org.id, customerId, instrumentId)]]]);
        if (!refused) {
          if (s.status === 'past-due') org = organizationAfter(org, s, await applyStep(org, next, 'retry', now, clock.offsetMs));
          break;
        }
        // Replaced since by another card, whose replacement moves every subscription.
        if (refused.refused.has('primary')) return;
        if (!refused.refused.has('subscription')) throw refused.error;
      }
      if (attempt >= ADOPT_ATTEMPTS) throw subscriptionConflict();
      await backoff(attempt);
      s = (await repo.getSubscription(organization.id, s.id)) ?? s;
    }
  }
}
