/**
 * The records the payments list's request examples (`shared/routes/docs/payments.ts`) name, made through the
 * organization API for the example organization: a customer with a saved card, card tokens, captured payments
 * (one with a dispute), customer invoices in the states their examples need and webhook destinations of the
 * calling account. Answers the real id of each example id it makes.
 */
import { randomUUID } from 'node:crypto';
import type { ExampleIdName } from '../../../shared/routes/docs/example-ids.ts';
import { cardToken, orgCall, orgPath } from '../fixtures.ts';

/** What this fixture needs of the base fixture (`./fixture.ts`): the organization and its account's key. */
interface Base {
  readonly merchantId: string;
  readonly orgApiKey: string;
}

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
  });

const draftInvoice = (org: ExampleOrganization, customerId: string) =>
  made(org, 'invoice draft', 'POST', `${orgPath(org.organizationId)}/customer-invoices`, 201, {
    currency: 'EUR',
    customerId,
    buyer: { name: 'Ada Lovelace', address: 'Hauptstraße 1', city: 'Berlin', zip: '10115', country: 'DE' },
    items: [{ description: 'Pro plan, annual licence', quantity: 1, unitPrice: 240, taxRate: 19 }],
  });

const webhookDestination = (org: ExampleOrganization) =>
  made(org, 'webhook destination', 'POST', '/v1/webhook-destinations', 201, {
    url: 'http://127.0.0.1:9999/webhooks/mor',
    eventTypes: ['transaction-processed', 'transaction-declined'],
  });

export async function paymentsFixture(b: Base): Promise<Partial<Record<ExampleIdName, string>>> {
  const org: ExampleOrganization = { organizationId: b.merchantId, fullKey: b.orgApiKey };
  const base = orgPath(org.organizationId);
  const [customer, tokenId, tokenIdToAttach, cardToSave] = await Promise.all([
    made(org, 'customer', 'POST', `${base}/customers`, 201, { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' }),
    cardToken(org),
    cardToken(org),
    cardToken(org),
  ]);
  const instrument = await made(org, 'payment instrument', 'POST', `${base}/customers/${customer.id}/payment-instruments`, 201, { token: cardToSave });

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
  const dispute = await made(org, 'dispute', 'POST', `${base}/disputes/cb-${randomUUID()}`, 201, {
    transactionId: disputed.id,
    currency: 'USD',
    amount: 60,
    reasonCode: '13.1',
    type: 'consumer-disputes',
  });
  const now = new Date();
  await made(org, 'invoice issue', 'POST', `${base}/customer-invoices/${toClose.id}/issue`, 200, {
    issuedAt: now.toISOString(),
    dueAt: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
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
