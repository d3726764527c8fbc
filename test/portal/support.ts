/** What the customer portal's tests share: a subscribed customer. */
import { expect } from 'vitest';
import { cardToken, orgCall, orgPath, orgPlan, uniqueEmail } from '../support/fixtures.ts';

type Org = { organizationId: string; fullKey: string };

/** A customer in San Francisco (taxed) with a card, subscribed monthly to a plan of 10.00 USD, its first period paid. */
export async function subscriber(org: Org) {
  const base = orgPath(org.organizationId);
  const email = uniqueEmail('portal');
  const customer = await orgCall('POST', `${base}/customers`, {
    fullKey: org.fullKey,
    body: { email, primaryAddress: { customerAddress: { country: 'US', region: 'CA', city: 'San Francisco', zip: '94103' } } },
  });
  expect(customer.status, customer.text).toBe(201);
  const card = await orgCall('POST', `${base}/customers/${customer.json.data.id}/payment-instruments`, {
    fullKey: org.fullKey,
    body: { token: await cardToken(org) },
  });
  expect(card.status, card.text).toBe(201);
  const plan = await orgPlan(org, { name: 'Portal monthly' }, { productType: 'recurring' });
  const created = await orgCall('POST', `${base}/subscriptions`, {
    fullKey: org.fullKey,
    body: { customerId: customer.json.data.id, paymentInstrumentId: card.json.data.id, items: [{ plan: plan.id }] },
  });
  expect(created.status, created.text).toBe(201);
  return { customerId: customer.json.data.id as string, subscriptionId: created.json.data.id as string, instrumentId: card.json.data.id as string, email };
}
