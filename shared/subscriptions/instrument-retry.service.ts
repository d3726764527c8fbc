/**
 * Recovery of past-due subscriptions when their customer sets a new primary payment instrument: fed by the table's
 * stream (changes of customers), it finds the customer's past-due subscriptions, makes the new primary instrument
 * theirs, and retries each at once (the retry's own key: a repeat of the record retries nothing twice). Changes of a
 * customer that leave its primary instrument as it was (a payment's revenue, a new address) are passed over, and so
 * are records that come late (the customer's primary is another by now) and subscriptions already charging it.
 */
import { findCustomer } from '../customers/index.ts';
import { getMerchant } from '../people/index.ts';
import { applyStep } from './renewals.service.ts';
import { changed, commit } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import { clockOf } from './test-clock.service.ts';

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
  const [organization, clock, page] = await Promise.all([
    getMerchant(change.organizationId),
    clockOf(change.organizationId),
    repo.listSubscriptionPage(change.organizationId, {
      sortBy: 'createdAt',
      sortDirection: 'asc',
      offset: 0,
      limit: 100,
      filter: { expression: 'customerId = :c AND #st = :pd', names: { '#st': 'status' }, values: { ':c': change.customerId, ':pd': 'past-due' } },
    }),
  ]);
  if (!organization) return 0;
  // A record the stream brings late (the change was undone or replaced since) retries nothing.
  const customer = await findCustomer(change.organizationId, change.customerId);
  if (customer?.primaryPaymentInstrument?.id !== change.instrumentId) return 0;
  let retried = 0;
  for (const s of page.items) {
    // Already charging that instrument: nothing new to try (its dunning goes on).
    if (s.paymentInstrumentId === change.instrumentId) continue;
    const now = clock.now();
    const adopted = changed(s, { paymentInstrumentId: change.instrumentId, isAutoPay: true }, now);
    if (!(await commit(organization, s, adopted, clock.offsetMs))) continue;
    await applyStep(organization, adopted, 'retry', now, clock.offsetMs);
    retried++;
  }
  return retried;
}
