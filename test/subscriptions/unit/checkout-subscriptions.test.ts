/**
 * The subscription a checkout starts (shared/subscriptions/checkout.service.ts) is the renewal engine's start, built
 * without the engine's calendar code: these hold it equal to what the engine's own functions (`trialEnd`,
 * `anchorFor`, `startBilling`, `afterCharge`, `changed`, `indexAtOf`) make of the same snapshot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/catalog/index.ts';
import type { IntervalUnit, Trial } from '../../../shared/catalog/plans.rules.ts';
import type { Merchant } from '../../../shared/domain/merchants.ts';
import type { TransactItem } from '../../../shared/platform/db/types.ts';
import { type CheckoutSubscription, checkoutSubscription, checkoutSubscriptionItems } from '../../../shared/subscriptions/checkout.service.ts';
import { anchorFor, trialEnd } from '../../../shared/subscriptions/periods.rules.ts';
import { afterCharge, startBilling } from '../../../shared/subscriptions/renewals.service.ts';
import { checkoutInvoiceId } from '../../../shared/invoicing/invoices.rules.ts';
import { changed, indexAtOf, transitionEvents } from '../../../shared/subscriptions/steps.service.ts';
import { saveSubscriptionItem } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { SubscriptionEntity } from '../../../shared/subscriptions/subscription.entity.ts';

const organization: Merchant = {
  id: '0196f3a0-0000-7000-8000-000000000001',
  name: 'Shop',
  parentId: null,
  mode: 'test',
  websiteUrl: null,
  ownerUserId: null,
  joinLink: null,
  payoutMethodAdded: false,
  liveAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const planOf = (cycle: { unit: IntervalUnit; length: number }, trial: Trial | null, price: number): Plan => ({
  id: 'plan_1',
  organizationId: organization.id,
  productId: 'prod_1',
  productType: 'recurring',
  name: 'Gold',
  currency: 'USD',
  price,
  formula: 'fixed-fee',
  setupPrice: null,
  setupApprovalLink: null,
  description: null,
  richDescription: null,
  productOptions: {},
  recurringInterval: { ...cycle, billingTiming: 'prepaid', periodAnchorInstruction: null },
  trial,
  isActive: true,
  isTrialOnly: false,
  revision: 1,
  customFields: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/**
 * What the engine's own functions write for the snapshot (checkout.service.ts's `checkoutSubscriptionItems` as it was
 * written with them), the snapshot read as the settlement reads it (`SubscriptionEntity.parse`).
 */
function engineItems(snapshot: CheckoutSubscription, startedAt: string, transactionId: string | null): TransactItem[] {
  const { trial, offsetMs } = snapshot;
  const pending = SubscriptionEntity.parse(snapshot.subscription as unknown as Record<string, unknown>);
  const at = new Date(Date.parse(startedAt) + offsetMs).toISOString();
  let changes: Parameters<typeof changed>[1];
  if (trial) {
    changes = { status: 'trial', startAt: at, trialEndAt: trialEnd(at, trial), activatedAt: at };
  } else {
    const anchor = anchorFor(at, { unit: pending.cycle.unit, length: pending.cycle.length, periodAnchorInstruction: null });
    const started = startBilling({ ...pending, anchor }, at);
    const spec = { key: 'checkout', transactionId: transactionId ?? '', invoiceId: 'order', description: '', amountMinor: transactionId ? 1 : 0, lines: [] };
    // Paid at its price less the promo code's discount: worth what was paid; its invoice is the checkout payment's.
    const price = pending.periodValueMinor === null ? undefined : { fullMinor: pending.periodValueMinor, creditMinor: 0 };
    changes = {
      anchor: started.s.anchor,
      startAt: at,
      ...afterCharge(started.s, started.p, 1, 0, true, spec, at, price),
      periodInvoiceId: transactionId && snapshot.charged ? checkoutInvoiceId(transactionId) : null,
    };
  }
  const next = changed(pending, changes, at);
  return [saveSubscriptionItem(next, indexAtOf(next, offsetMs)), ...transitionEvents(organization, pending, next, at)];
}

/**
 * The items with their outbox events' random ids taken out, and the real time each event was written at (its id's
 * time, and so its place on the events list and its expiry), which two calls a millisecond apart do not share.
 */
const comparable = (items: TransactItem[]) =>
  (JSON.parse(JSON.stringify(items).replace(/evt_[0-9a-f]{32}/g, 'evt_')) as Array<{ Put?: { Item: Record<string, unknown> } }>).map((item) => {
    if (item.Put?.Item.entity !== 'event') return item;
    // Its time, and its listing's key (the shard follows from its id), differ between two writes of the same event.
    const { createdAt: _, gsi1sk: __, ttl: ___, gsi1pk: ____, ...rest } = item.Put.Item;
    return { ...item, Put: { ...item.Put, Item: rest } };
  });

const units: readonly IntervalUnit[] = ['day', 'week', 'month', 'year'];
const instant = (ms: number) => new Date(ms).toISOString();

function check(
  cycle: { unit: IntervalUnit; length: number },
  trial: Trial | null,
  claimedAt: string,
  startedAt: string,
  offsetMs: number,
  price = 1999,
  discount = 0,
) {
  const started = checkoutSubscription(organization, {
    plan: planOf(cycle, trial, price),
    quantity: 2,
    customer: { id: 'cus_1', name: 'Ann', email: 'ann@example.com' },
    paymentInstrumentId: 'pi_1',
    billingAddress: { country: 'US', state: 'CA', postalCode: '94105' },
    periodValueMinor: trial ? null : 2 * price - discount,
    charged: trial ? null : { lines: [{ description: 'Plan', quantity: 1, unitPriceMinor: 2 * price - discount }], rate: '0.0725' },
    now: claimedAt,
    offsetMs,
  });
  const at = instant(Date.parse(claimedAt) + offsetMs);
  expect(started.subscription.trialEndAt).toBe(trial ? trialEnd(at, trial) : null);
  const transactionId = trial ? null : 'tx_1';
  expect(comparable(checkoutSubscriptionItems(organization, started, startedAt, transactionId))).toEqual(
    comparable(engineItems(started, startedAt, transactionId)),
  );
}

describe('the subscription a checkout starts', () => {
  it.each([
    ['2026-01-31T10:00:00.000Z', 'month', 1],
    ['2024-02-29T23:59:59.999Z', 'year', 1],
    ['2025-12-31T00:00:00.000Z', 'month', 2],
    ['2026-03-31T12:30:00.000Z', 'month', 11],
    ['2026-05-31T00:00:00.000Z', 'month', 36],
    ['2026-06-15T08:00:00.000Z', 'week', 3],
    ['2026-06-15T08:00:00.000Z', 'day', 1095],
  ] as const)('from %s, every %s %s: as the engine starts it, paid or in a trial', (at, unit, length) => {
    check({ unit, length }, null, at, at, 0);
    check({ unit, length }, { unit, length: Math.min(length, 24) }, at, at, 0);
    check({ unit: 'month', length: 1 }, { unit, length: Math.min(length, 24) }, at, at, 3 * 86_400_000);
  });

  it('is the engine’s for any cycle, trial, clock offset and time between the claim and the payment', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...units),
        fc.integer({ min: 1, max: 36 }),
        fc.option(fc.record({ unit: fc.constantFrom(...units), length: fc.integer({ min: 1, max: 24 }) })),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 0, max: 86_400_000 }),
        fc.integer({ min: 0, max: 2 * 366 * 86_400_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (unit, length, trial, claimedMs, payAfterMs, offsetMs, price, off) => {
          check({ unit, length }, trial, instant(claimedMs), instant(claimedMs + payAfterMs), offsetMs, price, Math.floor(2 * price * off));
        },
      ),
      { numRuns: 500 },
    );
  });
});
