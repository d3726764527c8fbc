/**
 * The event catalog: every business event type, the exact payload receivers get (bare fields, no envelope),
 * and a sample of each for tests and demos. Amounts are JSON numbers in major units; currencies are lowercase
 * ISO 4217 codes; links that cannot be resolved are JSON null.
 */
import * as v from 'valibot';

/** Every business event type. */
export const eventTypes = [
  'payment.completed',
  'payment.failed',
  'payment.refunded',
  'customer.created',
  'subscription.created',
  'subscription.cancelled',
  'dispute.created',
  'dispute.updated',
  'dispute.won',
  'dispute.lost',
  'dispute.alert_created',
  'payout.sent',
  'merchant.owner_attached',
] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * The payload of each type. Built in a call marked pure, so a function that writes events but never reads a payload's
 * fields (only the webhook deliveries do) drops every schema here.
 */
export const eventPayloadSchemas = /* @__PURE__ */ (() => {
  const id = v.pipe(v.string(), v.minLength(1), v.maxCodePoints(200));
  const nullableId = v.nullable(id);
  const amount = v.pipe(v.number(), v.finite(), v.minValue(0));
  const currency = v.pipe(v.string(), v.regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code'));
  const isoTime = v.pipe(v.string(), v.isoTimestamp());

  const payment = {
    transactionId: id,
    externalTransactionId: nullableId,
    amount,
    currency,
    occurredAt: isoTime,
    orderId: nullableId,
    customerId: nullableId,
    subscriptionId: nullableId,
  };
  const dispute = { disputeId: id, externalDisputeId: nullableId, amount, currency };

  return {
    'payment.completed': v.strictObject(payment),
    'payment.failed': v.strictObject({
      transactionId: id,
      externalTransactionId: nullableId,
      occurredAt: isoTime,
      orderId: nullableId,
      customerId: nullableId,
      subscriptionId: nullableId,
    }),
    'payment.refunded': v.strictObject(payment),
    'customer.created': v.strictObject({ customerId: id, email: v.pipe(v.string(), v.rfcEmail()) }),
    'subscription.created': v.strictObject({ subscriptionId: id, externalMembershipId: nullableId, orderId: nullableId, customerId: nullableId }),
    'subscription.cancelled': v.strictObject({
      subscriptionId: id,
      externalMembershipId: nullableId,
      cancelAtPeriodEnd: v.boolean(),
      orderId: nullableId,
      customerId: nullableId,
    }),
    'dispute.created': v.strictObject({ ...dispute, reason: v.string() }),
    'dispute.updated': v.strictObject({ ...dispute, reason: v.string(), status: v.picklist(['response-needed', 'under-review', 'unknown', 'forfeited']) }),
    'dispute.won': v.strictObject(dispute),
    'dispute.lost': v.strictObject(dispute),
    'dispute.alert_created': v.strictObject({
      alertId: id,
      externalAlertId: nullableId,
      transactionId: nullableId,
      externalTransactionId: nullableId,
      alertType: v.picklist(['Dispute', 'RDR', 'Fraud']),
      reason: v.string(),
      amount,
      currency,
    }),
    'payout.sent': v.strictObject({ payoutId: id, externalWithdrawalId: nullableId, status: v.literal('in_transit'), amount, currency }),
    'merchant.owner_attached': v.strictObject({ merchantId: id, ownerUserId: id, email: v.pipe(v.string(), v.rfcEmail()) }),
  } as const satisfies Record<EventType, v.GenericSchema>;
})();

export type EventPayload<T extends EventType> = v.InferOutput<(typeof eventPayloadSchemas)[T]>;

/** A plausible payload of each type, for `admin emit-event` and tests. */
export function samplePayload(type: EventType, merchantId: string, now: string): Record<string, unknown> {
  const ref = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 12)}`;
  const paymentSample = {
    transactionId: '019380f2-6f1e-7c3a-9b7d-2f5e8a1c4d3b',
    externalTransactionId: ref('pay'),
    amount: 49.99,
    currency: 'usd',
    occurredAt: now,
    orderId: ref('ord'),
    customerId: ref('cus'),
    subscriptionId: null,
  };
  const disputeSample = { disputeId: ref('dp'), externalDisputeId: ref('dp_ext'), amount: 49.99, currency: 'usd' };
  const samples: { [T in EventType]: EventPayload<T> } = {
    'payment.completed': paymentSample,
    'payment.failed': {
      transactionId: paymentSample.transactionId,
      externalTransactionId: ref('pay'),
      occurredAt: now,
      orderId: null,
      customerId: ref('cus'),
      subscriptionId: null,
    },
    'payment.refunded': paymentSample,
    'customer.created': { customerId: ref('cus'), email: 'buyer@example.com' },
    'subscription.created': { subscriptionId: ref('sub'), externalMembershipId: ref('mem'), orderId: ref('ord'), customerId: ref('cus') },
    'subscription.cancelled': { subscriptionId: ref('sub'), externalMembershipId: ref('mem'), cancelAtPeriodEnd: true, orderId: null, customerId: ref('cus') },
    'dispute.created': { ...disputeSample, reason: 'fraudulent' },
    'dispute.updated': { ...disputeSample, reason: 'fraudulent', status: 'under-review' },
    'dispute.won': disputeSample,
    'dispute.lost': disputeSample,
    'dispute.alert_created': {
      alertId: ref('alt'),
      externalAlertId: ref('alt_ext'),
      transactionId: paymentSample.transactionId,
      externalTransactionId: ref('pay'),
      alertType: 'Dispute',
      reason: 'fraud',
      amount: 49.99,
      currency: 'usd',
    },
    'payout.sent': { payoutId: ref('po'), externalWithdrawalId: ref('wd'), status: 'in_transit', amount: 1250.5, currency: 'usd' },
    'merchant.owner_attached': { merchantId, ownerUserId: '00000000-0000-4000-8000-000000000000', email: 'owner@example.com' },
  };
  return samples[type];
}
