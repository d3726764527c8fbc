/**
 * Orders on the merchant API: `PublicApiCreateOrderRequest` and `PublicApiOrderResponse`. Amounts are
 * major-unit JSON numbers; whether a custom line's `unitAmount` fits the order currency's decimals is checked
 * here, on the line's field. Limits are `ORDER_LIMITS` (shared/checkout/orders.rules.ts), listed in docs/reference-merchant-api.md ("Orders").
 */
import * as v from 'valibot';
import { ORDER_ID_PATTERN, ORDER_LIMITS, orderStatuses } from './orders.rules.ts';
import { toMinorUnits } from '../domain/money.ts';
import { email, isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { planId } from '../catalog/ids.schemas.ts';
import { named } from '../platform/http/schemas/named.ts';
import { currency, majorAmount } from '../platform/http/schemas/organization.ts';

const L = ORDER_LIMITS;

const quantity = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(L.quantity, `must be at most ${L.quantity}`),
);

/** A plan of the merchant, at its current price. */
const planLine = v.strictObject({
  planId,
  quantity,
});

/** A line of the merchant's own: a description and a unit amount (major units, more than zero). */
const customLine = v.strictObject({
  description: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxCodePoints(L.description, `must be at most ${L.description} characters`),
  ),
  unitAmount: v.pipe(majorAmount, v.gtValue(0, 'must be more than zero')),
  quantity,
});

/** A line is one or the other, told apart by its fields. */
const lineInput = v.union([planLine, customLine], 'must be {planId, quantity} or {description, unitAmount, quantity}');

/** The fields of an order to create (also the MCP `create_order` tool's, which adds its idempotency key). */
export const createOrderFields = {
  currency,
  lines: v.pipe(
    v.array(lineInput, 'must be an array of lines'),
    v.minLength(1, 'must hold at least one line'),
    v.maxLength(L.lines, `must hold at most ${L.lines} lines`),
  ),
  customerEmail: v.optional(email),
};

/** Each custom line's `unitAmount` has no more decimals than the order's currency allows (the issue is on the line's field). */
export const linesFitCurrency = <T extends { currency: string; lines: v.InferOutput<typeof createOrderFields.lines> }>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { currency: code, lines } = dataset.value;
    lines.forEach((line, index) => {
      if ('unitAmount' in line && toMinorUnits(line.unitAmount, code) === null) {
        addIssue({
          message: 'has more decimals than its currency allows',
          path: [
            { type: 'object', origin: 'value', input: dataset.value, key: 'lines', value: lines },
            { type: 'array', origin: 'value', input: lines, key: index, value: line },
            { type: 'object', origin: 'value', input: line, key: 'unitAmount', value: line.unitAmount },
          ],
        });
      }
    });
  });

export const createOrderRequest = named('PublicApiCreateOrderRequest', v.pipe(v.strictObject(createOrderFields), linesFitCurrency()));

const amount = v.pipe(v.number(), v.minValue(0));

export const publicApiOrderResponse = named(
  'PublicApiOrderResponse',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(ORDER_ID_PATTERN)),
    merchantId: uuid,
    status: v.picklist(orderStatuses),
    currency: v.string(),
    lines: v.array(
      v.strictObject({
        type: v.picklist(['plan', 'custom']),
        planId: v.nullable(planId),
        description: v.string(),
        quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
        unitAmount: amount,
        amount,
      }),
    ),
    subtotal: amount,
    total: amount,
    customerEmail: v.nullable(v.string()),
    createdAt: isoTime,
    /** When a buyer paid it at checkout, and the transaction that did; null while open. */
    paidAt: nullableIsoTime,
    transactionId: v.nullable(v.string()),
  }),
);
