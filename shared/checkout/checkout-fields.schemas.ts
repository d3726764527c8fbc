/**
 * The fields the buyer checkout's requests (and its merchant-API twins) have in common, apart from the schemas of
 * the routes, so that a function carries only the schema modules its own route uses: checkout.schemas.ts (reads,
 * sessions, quotes, receipts) and checkout-confirm.schemas.ts (confirms).
 */
import * as v from 'valibot';
import { cardBrands } from '../domain/card-data.ts';
import { deliverableEmail } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { CHECKOUT_SESSION_ID_PATTERN } from './checkout.rules.ts';
import { ORDER_LIMITS } from './orders.rules.ts';

export const url = v.pipe(v.string(), v.url());

/** A billing address: the country (ISO 3166-1 alpha-2), and for the US the state; it decides the tax. */
export const billingAddress = named(
  'PublicCheckoutBillingAddress',
  v.strictObject(
    {
      country: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'), v.toUpperCase()),
      state: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxCodePoints(10, 'must be at most 10 characters')))),
      postalCode: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxCodePoints(20, 'must be at most 20 characters')))),
    },
    'must be an object with country, state and postalCode',
  ),
);

export const quantity = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(ORDER_LIMITS.quantity, `must be at most ${ORDER_LIMITS.quantity}`),
);

export const buyerEmail = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxCodePoints(254, 'must be at most 254 characters'),
  v.rfcEmail('must be an e-mail address'),
  v.check(deliverableEmail, 'must be an e-mail address'),
  v.toLowerCase(),
);
export const promoCodeText = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxCodePoints(64, 'must be at most 64 characters'),
);
export const sessionId = v.pipe(v.string('must be a string'), v.regex(CHECKOUT_SESSION_ID_PATTERN, 'must be a checkout session id (cs_…)'));
export const cardToken = v.pipe(v.string('must be a string'), v.regex(/^tok_[A-Za-z0-9]{24}$/, 'must be a card token (tok_…)'));
export const instrumentId = v.pipe(v.string('must be a string'), v.minLength(1), v.maxCodePoints(64));

/** The card a payment was made with, as a confirmation or receipt shows it. */
export const paidCard = v.strictObject({ brand: v.picklist(cardBrands), last4: v.string() });
