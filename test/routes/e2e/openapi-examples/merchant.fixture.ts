/**
 * The records the merchant API's request examples (the `merchant` list of `shared/routes/docs/index.ts`) name, made on the base
 * fixture's merchant the way a merchant makes them: through the merchant, organization and dashboard APIs.
 */
import { randomUUID } from 'node:crypto';
import { HOLD_DAYS } from '../../../../shared/money/ledger.rules.ts';
import { releaseDueFunds } from '../../../../shared/money/ledger.service.ts';
import { solidPng } from '../../../support/images.ts';
import { call, cardToken, joinTeam, orgCall, orgPath, orgPlan, PASSWORD, payByCard, subMerchant } from '../../../support/fixtures.ts';
import { made, type BaseFixture, type FixtureIds } from './fixture.ts';

/** The teammate `assignMember`'s example assigns: a user of the base merchant's team. */
const TEAMMATE = 'ops.lead@acme.example';
/** The promo code `applyMerchantCheckoutPromoCode`'s example quotes. */
const PROMO_CODE = 'WELCOME10';

/** A customer of the organization with a saved card (the sandbox card that succeeds). */
export async function customerWithCard(base: BaseFixture, person: { firstName: string; lastName: string }) {
  const org = { organizationId: base.merchantId, fullKey: base.orgApiKey };
  const customer = await made(
    'customer',
    orgCall('POST', `${orgPath(org.organizationId)}/customers`, {
      fullKey: org.fullKey,
      body: {
        ...person,
        email: `${person.firstName}.${person.lastName}@example.com`.toLowerCase(),
        primaryAddress: { customerAddress: { country: 'US', region: 'OR' } },
      },
    }),
    201,
  );
  const customerId = customer.data.id as string;
  const instrument = await made(
    'payment instrument',
    orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: await cardToken(org) },
    }),
    201,
  );
  return { customerId, paymentInstrumentId: instrument.data.id as string };
}

export async function merchantFixture(base: BaseFixture): Promise<FixtureIds> {
  const org = { organizationId: base.merchantId, fullKey: base.orgApiKey };
  const key = base.merchantApiKey;
  const M = `/v1/public-api/merchants/${base.merchantId}`;

  // Sub-merchants: one without an owner (its join link is re-minted), one the teammate is assigned to.
  const [ownerless, forMembers] = await Promise.all([subMerchant(key, { name: 'Riverside Bakery' }), subMerchant(key, { name: 'Harbour Books' })]);

  // The teammate: a user of the base merchant's team (invited by its owner on the dashboard, the invitation accepted).
  await made('teammate sign-up', call('POST', '/v1/dashboard/users', { body: { email: TEAMMATE, password: PASSWORD } }), 201);
  const teammate = await made('teammate sign-in', call('POST', '/v1/dashboard/sessions', { body: { email: TEAMMATE, password: PASSWORD } }), 201);
  await joinTeam(base.merchantId, base.sessionToken, { email: TEAMMATE, token: teammate.token }, 'admin');

  const keyToRevoke = await made('API key', call('POST', `${M}/api-keys`, { key, body: { name: 'Old staging server' } }), 201);

  // A plan sold once (19.99 USD) on an active product, and a customer with a saved card.
  const plan = await orgPlan(org, { name: 'Lifetime licence', pricing: { price: 19.99, formula: 'fixed-fee' } });
  const { customerId, paymentInstrumentId } = await customerWithCard(base, { firstName: 'Grace', lastName: 'Hopper' });
  await made(
    'promo code',
    orgCall('POST', `${orgPath(org.organizationId)}/promo-codes`, {
      fullKey: org.fullKey,
      body: { code: PROMO_CODE, percentOff: 10, planIds: [plan.id], maxRedemptions: 1000 },
    }),
    201,
  );

  // Checkout: an open session for the confirm's example, and a paid one for the receipt's.
  const session = () =>
    made(
      'checkout session',
      call('POST', `${M}/checkout/plans/${plan.id}/session`, {
        key,
        body: { email: 'buyer@example.com', quantity: 1, billingAddress: { country: 'US', state: 'CA', postalCode: '94103' } },
      }),
      200,
    );
  const [open, toPay] = await Promise.all([session(), session()]);
  const paid = await made(
    'checkout confirm',
    call('POST', `${M}/checkout/plans/${plan.id}/confirm`, { key, body: { sessionId: toPay.sessionId, paymentInstrumentId } }),
    200,
  );

  // A PNG uploaded to a presigned URL, waiting for its confirm.
  const png = solidPng(64, 48, '#0F766E');
  const upload = await made(
    'image upload',
    call('POST', `${M}/products/${plan.productId}/images/uploads`, { key, body: { contentType: 'image/png', sizeBytes: png.length } }),
    201,
  );
  const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: png });
  if (!put.ok) throw new Error(`merchant fixture: image PUT answered ${put.status}`);

  // An issued customer invoice, and an order.
  const draft = await made(
    'customer invoice',
    orgCall('POST', `${orgPath(org.organizationId)}/customer-invoices`, {
      fullKey: org.fullKey,
      body: {
        currency: 'USD',
        customerId,
        buyer: { name: 'Ada Lovelace', address: '12 St James Square', city: 'London', country: 'GB', zip: 'SW1Y 4JH' },
        items: [{ description: 'Onboarding workshop', quantity: 1, unitPrice: 250, taxRate: 20 }],
      },
    }),
    201,
  );
  const issuedAt = new Date().toISOString();
  await made(
    'invoice issue',
    orgCall('POST', `${orgPath(org.organizationId)}/customer-invoices/${draft.data.id}/issue`, {
      fullKey: org.fullKey,
      body: { issuedAt, dueAt: new Date(Date.parse(issuedAt) + 30 * 86_400_000).toISOString() },
    }),
    200,
  );
  const order = await made(
    'order',
    call('POST', `${M}/orders`, { key, body: { currency: 'USD', customerEmail: 'buyer@example.com', lines: [{ planId: plan.id, quantity: 2 }] } }),
    201,
  );

  // Money: 200 EUR paid and released (190 available), a verified EUR bank account, and a payout of 20 EUR.
  const payment = await payByCard(org, 200, 'EUR');
  if (payment.status !== 201) throw new Error(`merchant fixture: payment answered ${payment.status} ${payment.text}`);
  await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: base.merchantId });
  const method = await made(
    'payout method',
    orgCall('POST', `${orgPath(org.organizationId)}/payout-methods`, {
      fullKey: org.fullKey,
      body: { type: 'bank-account', holderName: 'Acme Partners Ltd', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
    }),
    201,
  );
  const payout = await made(
    'payout',
    call('POST', `${M}/payouts`, { key, headers: { 'idempotency-key': randomUUID() }, body: { payoutMethodId: method.data.id, amount: 20, currency: 'EUR' } }),
    201,
  );

  // An event of the merchant: the newest of the events its payments wrote.
  const events = await made('events', call('GET', `${M}/events?type=payment.completed&limit=1`, { key }), 200);

  return {
    eventId: events.data[0].id,
    ownerlessSubMerchantId: ownerless.id,
    memberSubMerchantId: forMembers.id,
    merchantApiKeyIdToDelete: keyToRevoke.id,
    merchantPlanId: plan.id,
    imageProductId: plan.productId,
    customerId,
    buyerPaymentInstrumentId: paymentInstrumentId,
    merchantCheckoutSessionId: open.sessionId,
    merchantReceiptId: paid.receiptId,
    imageUploadId: upload.uploadId,
    issuedInvoiceId: draft.data.id,
    orderId: order.id,
    eurPayoutMethodId: method.data.id,
    withdrawalId: payout.withdrawalId,
    pendingWithdrawalId: payout.withdrawalId,
  };
}
