import { describe, expect, it } from 'vitest';
import { deliveryBody } from '../../../shared/platform/events/outbox.ts';
import type { OutboxEvent } from '../../../shared/platform/events/event.entity.ts';

const event = (type: OutboxEvent['type'], payload: Record<string, unknown>): OutboxEvent => ({
  id: 'evt_0193a6f31a2b7c3d8e4f5a6b7c8d9e0f',
  type,
  merchantId: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70',
  parentMerchantId: null,
  payload,
  occurredAt: '2026-11-22T10:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
});

describe('deliveryBody', () => {
  it("writes the payload's fields in the catalog's order whatever order the stored map has, then merchantId", () => {
    const payload = {
      transactionId: 't1',
      externalTransactionId: 'pay_1',
      amount: 49.99,
      currency: 'usd',
      occurredAt: '2026-11-22T10:00:00.000Z',
      orderId: null,
      customerId: 'cus_1',
      subscriptionId: null,
    };
    const shuffled = Object.fromEntries(Object.entries(payload).reverse());
    const body = deliveryBody(event('payment.completed', shuffled));
    expect(body).toBe(deliveryBody(event('payment.completed', payload)));
    expect(Object.keys(JSON.parse(body))).toEqual([...Object.keys(payload), 'merchantId']);
    expect(body).toBe(JSON.stringify({ ...payload, merchantId: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70' }));
  });

  it('puts fields the catalog does not name after its own, by name, and always carries the event merchantId', () => {
    const body = deliveryBody(event('merchant.owner_attached', { zeta: 1, email: 'o@example.com', alpha: 2, merchantId: 'other', ownerUserId: 'u1' }));
    expect(body).toBe(JSON.stringify({ merchantId: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70', ownerUserId: 'u1', email: 'o@example.com', alpha: 2, zeta: 1 }));
  });
});
