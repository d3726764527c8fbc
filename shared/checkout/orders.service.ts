/**
 * Orders on the merchant API: create (with an optional `Idempotency-Key`) and read.
 *
 * Creating with a key is one `TransactWriteItems`: the key's idempotency record (`attribute_not_exists`) and
 * the order (`attribute_not_exists`). Of concurrent requests with one key, one writes; every other reads the
 * winner's record and answers the winner's order as a replay. A key seen before answers its order at once, the
 * request body is not compared (the spec's rule). Keys are scoped to the merchant.
 */
import { cancellationReasons, type NamedParts, partReasons, transactWrite } from '../platform/db/transactions.ts';
import * as idem from '../platform/db/idempotency.ts';
import * as repo from './orders.repository.ts';
import { findPlan } from '../catalog/index.ts';
import type { Merchant } from '../domain/merchants.ts';
import { UnprocessableError } from '../domain/errors.ts';
import { inProgressError } from '../domain/idempotency.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import {
  isOrderId,
  linesInMajorUnits,
  newOrderId,
  ORDER_IDEMPOTENCY_OPERATION as OPERATION,
  priceLine,
  totalsOf,
  type Order,
  type OrderLine,
} from './orders.rules.ts';
import { orderNotFound } from '../domain/unknown-ids.ts';

export type CreateOrderLineInput = { planId: string; quantity: number } | { description: string; unitAmount: number; quantity: number };

export interface CreateOrderInput {
  currency: string;
  lines: CreateOrderLineInput[];
  customerEmail?: string;
}

/** The merchant face's view of an order: amounts in major units. */
export function orderView(o: Order) {
  const major = (minor: number) => toMajorUnits(minor, o.currency);
  return {
    id: o.id,
    merchantId: o.merchantId,
    status: o.status,
    currency: o.currency,
    lines: linesInMajorUnits(o),
    subtotal: major(o.subtotal),
    total: major(o.total),
    customerEmail: o.customerEmail,
    createdAt: o.createdAt,
    paidAt: o.paidAt,
    transactionId: o.transactionId,
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** What create answers: the order, and whether it is a replay of an earlier request with the same key. */
export interface CreateOrderResult {
  order: OrderView;
  replayed: boolean;
}

const inProgress = () => inProgressError({ key: 'Idempotency-Key', request: 'request', thing: 'order', result: 'order' });

/** How long a request that lost the race to a key waits, at most, for the winner's write to be readable. */
const WINNER_READS = 10;
const WINNER_WAIT_MS = 50;

/**
 * Creates an immutable order of `merchant`. With `idempotencyKey`, a key seen before answers its original order
 * (`replayed`), whatever the body. 422 `order.plan_not_found`, `order.plan_inactive`,
 * `order.plan_currency_mismatch`, `order.total_not_positive`, `order.amount_over_limit`.
 */
export async function createOrder(
  merchant: Merchant,
  input: CreateOrderInput,
  idempotencyKey: string | undefined,
  now = new Date().toISOString(),
): Promise<CreateOrderResult> {
  if (idempotencyKey !== undefined) {
    const replay = await replayOf(merchant.id, idempotencyKey);
    if (replay) return { order: replay, replayed: true };
  }
  const lines = await linesOf(merchant.id, input);
  const { subtotal, total } = totalsOf(lines, input.currency);
  const order: Order = {
    id: newOrderId(),
    merchantId: merchant.id,
    status: 'open',
    currency: input.currency,
    lines,
    subtotal,
    total,
    customerEmail: input.customerEmail ?? null,
    idempotencyKey: idempotencyKey ?? null,
    createdAt: now,
    paidAt: null,
    transactionId: null,
  };
  if (idempotencyKey === undefined) {
    await transactWrite([['order', [repo.putNewOrder(order)]]]);
    return { order: orderView(order), replayed: false };
  }
  const record: idem.IdempotencyRecord = {
    organizationId: merchant.id,
    operation: OPERATION,
    key: idempotencyKey,
    // The body is not compared (the spec's rule): a key answers its first order whatever is sent with it.
    requestHash: '',
    state: 'completed',
    attemptId: order.id,
    lockedUntil: now,
    resourceId: order.id,
    answer: null,
    createdAt: now,
    updatedAt: now,
  };
  const parts: NamedParts<'key' | 'order'> = [
    ['key', [idem.putIdempotencyClaim(record)]],
    ['order', [repo.putNewOrder(order)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (
      !reasons ||
      !partReasons(reasons, parts)
        .get('key')
        ?.some((r) => r !== 'None')
    )
      throw e;
    // Another request with this key got there first (or is committing now): answer its order.
    for (let read = 0; read < WINNER_READS; read++) {
      const replay = await replayOf(merchant.id, idempotencyKey);
      if (replay) return { order: replay, replayed: true };
      await new Promise((resolve) => setTimeout(resolve, WINNER_WAIT_MS));
    }
    throw inProgress();
  }
  return { order: orderView(order), replayed: false };
}

/** The order a key of `merchantId` created, or null when the key is new. */
async function replayOf(merchantId: string, idempotencyKey: string): Promise<OrderView | null> {
  const record = await idem.getIdempotencyRecord(merchantId, OPERATION, idempotencyKey);
  if (!record) return null;
  const order = await repo.getOrder(merchantId, record.resourceId);
  if (!order) throw new Error(`The order of an idempotency key of ${merchantId} is missing`);
  return orderView(order);
}

/** The priced lines: each plan read once (in parallel), checked for owner, state and currency. */
async function linesOf(merchantId: string, input: CreateOrderInput): Promise<OrderLine[]> {
  const planIds = [...new Set(input.lines.flatMap((l) => ('planId' in l ? [l.planId] : [])))];
  const plans = new Map(await Promise.all(planIds.map(async (id) => [id, await findPlan(merchantId, id)] as const)));
  return input.lines.map((line, index) => {
    if ('planId' in line) {
      const plan = plans.get(line.planId) ?? null;
      const details = { line: index, planId: line.planId };
      if (!plan) throw new UnprocessableError('order.plan_not_found', `lines.${index}.planId: no plan with this id for this merchant.`, details);
      if (!plan.isActive) throw new UnprocessableError('order.plan_inactive', `lines.${index}.planId: the plan is not active.`, details);
      if (plan.currency !== input.currency) {
        throw new UnprocessableError(
          'order.plan_currency_mismatch',
          `lines.${index}.planId: the plan is priced in ${plan.currency}, the order in ${input.currency}.`,
          { ...details, planCurrency: plan.currency },
        );
      }
      return priceLine({ type: 'plan', planId: plan.id, description: plan.name, quantity: line.quantity, unitAmount: plan.price });
    }
    // The request schema has checked that the amount fits the currency.
    const unitAmount = toMinorUnits(line.unitAmount, input.currency)!;
    return priceLine({ type: 'custom', planId: null, description: line.description, quantity: line.quantity, unitAmount });
  });
}

/** The merchant's order; 404 `order.not_found` for unknown, malformed (no table call) and other merchants' ids. */
export async function getOrder(merchant: Merchant, orderId: string): Promise<OrderView> {
  const order = isOrderId(orderId) ? await repo.getOrder(merchant.id, orderId) : null;
  if (!order) throw orderNotFound();
  return orderView(order);
}
