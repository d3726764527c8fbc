/**
 * The records the payments list's request examples (the `payments` list of `shared/routes/docs/index.ts`) name, made through the
 * organization API for the example organization: a customer with a saved card, card tokens, captured payments (one
 * partly refunded, one with a dispute), customer invoices in the states their examples need and webhook
 * destinations of the calling account. Answers the real id of each example id it makes.
 */
import { randomUUID } from 'node:crypto';
import { cardToken, orgCall, orgPath } from '../../../support/fixtures.ts';
import type { BaseFixture, FixtureIds } from './fixture.ts';

/** The organization the examples run as, and its account's full key. */
interface ExampleOrganization {
  readonly organizationId: string;
  readonly fullKey: string;
}

/** An organization-API call that must answer `status`; answers its `data`. */
async function made(org: ExampleOrganization, what: string, method: string, path: string, status: number, body?: unknown): Promise<{ id: string }> {
  const res = await orgCall(method, path, { fullKey: org.fullKey, ...(body === undefined ? {} : { body }) });
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.json.data as { id: string };
}

/** A payment of `amount` USD with the saved card `paymentInstrumentId`, captured. */
const payment = (org: ExampleOrganization, paymentInstrumentId: string, amount: number) =>
  made(org, 'payment', 'POST', '/transactions', 201, {
    idempotencyKey: `fixture-${randomUUID()}`,
    organizationId: org.organizationId,
    amount,
    currency: 'USD',
    description: 'Pro plan, 1 month',
    paymentInstrumentId,
    billingAddress: { country: 'US', region: 'NY' },
  });

const draftInvoice = (org: ExampleOrganization, customerId: string) =>
  made(org, 'invoice draft', 'POST', `${orgPath(org.organizationId)}/customer-invoices`, 201, {
    currency: 'EUR',
    customerId,
    buyer: { name: 'Ada Lovelace', address: 'Hauptstraße 1', city: 'Berlin', zip: '10115', country: 'DE' },
    items: [{ description: 'Pro plan, annual licence', quantity: 1, unitPrice: 240, taxRate: 19 }],
  });

/**
 * A destination of the account for declines only (the examples' payments succeed, so nothing is sent to its
 * receiver, which no one runs, and its circuit stays as it was made).
 */
const webhookDestination = (org: ExampleOrganization) =>
  made(org, 'webhook destination', 'POST', '/v1/webhook-destinations', 201, {
    url: 'http://127.0.0.1:8787/webhooks/mor',
    eventTypes: ['transaction-declined'],
  });

export async function paymentsFixture(base: BaseFixture): Promise<FixtureIds> {
  const org: ExampleOrganization = { organizationId: base.merchantId, fullKey: base.orgApiKey };
  const orgBase = orgPath(org.organizationId);
  const [customer, tokenId, tokenIdToAttach, cardToSave] = await Promise.all([
    made(org, 'customer', 'POST', `${orgBase}/customers`, 201, {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      primaryAddress: { customerAddress: { address1: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', country: 'GB' } },
    }),
    cardToken(org),
    cardToken(org),
    cardToken(org),
  ]);
  await made(org, 'customer tags', 'PATCH', `${orgBase}/customers/${customer.id}`, 200, { tags: ['vip'] });
  const instrument = await made(org, 'payment instrument', 'POST', `${orgBase}/customers/${customer.id}/payment-instruments`, 201, { token: cardToSave });

  const [refunded, toDispute, disputed, invoice, toIssue, toVoid, toClose, destination, toDelete] = await Promise.all([
    payment(org, instrument.id, 120),
    payment(org, instrument.id, 80),
    payment(org, instrument.id, 60),
    draftInvoice(org, customer.id),
    draftInvoice(org, customer.id),
    draftInvoice(org, customer.id),
    draftInvoice(org, customer.id),
    webhookDestination(org),
    webhookDestination(org),
  ]);
  await made(org, 'refund', 'POST', `${orgBase}/transactions/${refunded.id}/refunds`, 201, { amount: 20, reason: 'Seat cancelled within 14 days' });
  const dispute = await made(org, 'dispute', 'POST', `${orgBase}/disputes/cb-${randomUUID()}`, 201, {
    transactionId: disputed.id,
    currency: 'USD',
    amount: 60,
    reasonCode: '13.1',
    type: 'consumer-disputes',
  });
  await made(org, 'invoice issue', 'POST', `${orgBase}/customer-invoices/${toClose.id}/issue`, 200, {
    issuedAt: '2026-11-02T09:00:00.000Z',
    dueAt: '2026-12-02T09:00:00.000Z',
  });

  return {
    customerId: customer.id,
    tokenId,
    tokenIdToAttach,
    paymentInstrumentId: instrument.id,
    transactionIdToRefund: refunded.id,
    transactionIdToDispute: toDispute.id,
    disputeId: dispute.id,
    disputeIdToCreate: `cb-${randomUUID()}`,
    customerInvoiceId: invoice.id,
    customerInvoiceIdToIssue: toIssue.id,
    customerInvoiceIdToVoid: toVoid.id,
    customerInvoiceIdToMarkUncollectible: toClose.id,
    webhookDestinationId: destination.id,
    webhookDestinationIdToDelete: toDelete.id,
  };
}
