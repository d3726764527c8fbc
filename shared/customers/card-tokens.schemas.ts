/**
 * Card tokens (the spec's "payment instrument token": `id`, `createdAt`, `expiratedAt`), the sandbox stage
 * endpoint's flat body, the token list query, and the available payment methods (`PaymentMethodEnum`).
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/card-data.ts';
import { paymentMethods } from '../domain/payment-methods.ts';
import { isoTime } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery, instantInput, rangeInOrder } from '../platform/http/schemas/organization.ts';

const integer = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'));

/**
 * The stage endpoint's flat body. Only the types are checked here; the card itself (number, expiry, verification
 * value) is checked by `validateCard`, whose refusals have their own error codes and never repeat the value.
 */
export const stageTokenRequest = named(
  'CreatePaymentInstrumentTokenRequest',
  v.strictObject({
    primaryAccountNumber: v.string('must be a string'),
    cardVerificationValue: v.string('must be a string'),
    expirationMonth: integer,
    expirationYear: integer,
  }),
);

export const cardTokenId = v.pipe(v.string(), v.regex(/^tok_[A-Za-z0-9]{24}$/));

export const paymentInstrumentToken = named(
  'PaymentInstrumentToken',
  v.strictObject({
    id: cardTokenId,
    createdAt: isoTime,
    expiratedAt: isoTime,
  }),
);
export const paymentInstrumentTokenResponse = objectEnvelope('PaymentInstrumentTokenResponse', paymentInstrumentToken);
export const paymentInstrumentTokenListResponse = listEnvelope('PaymentInstrumentTokenListResponse', paymentInstrumentToken);

/** Token list: paging, newest first by default, `createdFrom`/`createdTo` (inclusive). */
export const listCardTokensQuery = v.pipe(
  v.strictObject({
    ...pagingQuery,
    createdFrom: v.optional(instantInput),
    createdTo: v.optional(instantInput),
  }),
  rangeInOrder('createdFrom', 'createdTo'),
);

/** `PaymentMethodEnum`. */
export const paymentMethod = named('PaymentMethodEnum', v.picklist(paymentMethods, 'must be a payment method'));

export const availablePaymentMethodsResponse = named(
  'AvailablePaymentMethodsResponse',
  v.strictObject({
    data: v.strictObject({
      paymentMethods: v.array(paymentMethod),
      creditCardBrand: v.array(v.picklist(cardBrands)),
    }),
  }),
);
