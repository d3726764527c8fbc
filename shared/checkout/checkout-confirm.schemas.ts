/**
 * The buyer checkout's confirms (`/api/v1/checkout`) and the merchant API's twin: what pays a plan or an order, and
 * the answer. Amounts are major-unit JSON numbers.
 */
import * as v from 'valibot';
import { planId } from '../catalog/ids.schemas.ts';
import { uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { billingAddress, buyerEmail, cardToken, instrumentId, paidCard, promoCodeText, sessionId, url } from './checkout-fields.schemas.ts';

/**
 * Pay a plan: the session, the card token the hosted fields made, optionally a promo code and a billing address
 * replacing the session's. (Saved payment instruments are charged only through the merchant API's confirm.)
 */
export const confirmPublicCheckoutPaymentRequest = named(
  'ConfirmPublicCheckoutPaymentRequest',
  v.strictObject({
    sessionId,
    token: cardToken,
    promoCode: v.optional(promoCodeText),
    billingAddress: v.optional(billingAddress),
  }),
);

/** The merchant API's confirm: a card token or a saved payment instrument of the buyer (exactly one). */
export const publicApiConfirmCheckoutPaymentRequest = named(
  'PublicApiConfirmCheckoutPaymentRequest',
  v.pipe(
    v.strictObject({
      sessionId,
      token: v.optional(cardToken),
      paymentInstrumentId: v.optional(instrumentId),
      promoCode: v.optional(promoCodeText),
      billingAddress: v.optional(billingAddress),
    }),
    v.check((b) => (b.token === undefined) !== (b.paymentInstrumentId === undefined), 'send exactly one of token and paymentInstrumentId'),
  ),
);

/** Pay an order: the buyer, the card token and the billing address. An order takes no promo code. */
export const confirmPublicOrderPaymentRequest = named(
  'ConfirmPublicOrderPaymentRequest',
  v.strictObject({
    email: buyerEmail,
    token: cardToken,
    billingAddress,
  }),
);

/**
 * A confirm's answer. A payment's: its transaction (also the receipt's id), its receipt's URL and the amounts paid.
 * A recurring plan's also names the subscription it started (`subscriptionId`, null for anything else); with nothing
 * due today (a trial without a setup fee) nothing was charged: `amount` 0, no transaction, receipt or `paidAt`,
 * `card` is the card saved for the renewals, and `trial` says when the trial ends and what its first charge is.
 */
const confirmationFields = {
  status: v.literal('completed'),
  transactionId: v.nullable(uuid),
  receiptId: v.nullable(uuid),
  receiptUrl: v.nullable(url),
  orderId: v.nullable(v.string()),
  planId: v.nullable(planId),
  currency: v.string(),
  subtotal: v.number(),
  discount: v.number(),
  tax: v.number(),
  amount: v.number(),
  promoCode: v.nullable(v.string()),
  card: paidCard,
  paidAt: v.nullable(v.string()),
  subscriptionId: v.nullable(uuid),
  trial: v.pipe(
    v.nullable(
      named(
        'PublicCheckoutStartedTrial',
        v.strictObject({
          /** When the trial ends (the organization's test-clock time on the sandbox when it runs one). */
          endsAt: v.string(),
          /** The first charge, at the trial's end: price × quantity plus tax for the billing address; null when nothing is charged after the trial (a trial-only plan). */
          firstCharge: v.nullable(v.strictObject({ at: v.string(), subtotal: v.number(), tax: v.number(), amount: v.number() })),
        }),
      ),
    ),
    v.description('A trial started with nothing charged: when it ends and what its first charge will be. Null on a payment (its receipt tells what was paid).'),
  ),
};
export const publicCheckoutPaymentConfirmationResponse = named('PublicCheckoutPaymentConfirmationResponse', v.strictObject(confirmationFields));
export const publicApiCheckoutPaymentConfirmationResponse = named('PublicApiCheckoutPaymentConfirmationResponse', v.strictObject(confirmationFields));
