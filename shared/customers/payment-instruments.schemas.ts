/**
 * Payment instruments (organization face): the attach body `{token}`, the update body, the customer's list
 * query and the PaymentInstrument record. Every limit here is listed in docs/reference-customers.md ("Payment instruments").
 */
import * as v from 'valibot';
import { isCalendarDate } from '../domain/time.ts';
import { cardBrands } from '../domain/card-data.ts';
import { type GatewaySlug, gatewaySlugs } from '../domain/payment-methods.ts';
import { CUSTOMER_LIMITS } from './customers.rules.ts';
import { paymentMethod } from './card-tokens.schemas.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { listEnvelope, objectEnvelope, pagingQuery } from '../platform/http/schemas/organization.ts';
import { country } from '../platform/http/schemas/country.ts';

/**
 * Field limits of a billing address (characters): the names, company and phone number have the customer's
 * limits of the spec; the address lines, city, region and zip the customer address's.
 */
export const BILLING_ADDRESS_LIMITS = {
  firstName: CUSTOMER_LIMITS.firstName,
  lastName: CUSTOMER_LIMITS.lastName,
  organization: CUSTOMER_LIMITS.organization,
  phoneNumber: CUSTOMER_LIMITS.phoneNumber,
  address: CUSTOMER_LIMITS.address1,
  address2: CUSTOMER_LIMITS.address2,
  city: CUSTOMER_LIMITS.city,
  region: CUSTOMER_LIMITS.region,
  zip: CUSTOMER_LIMITS.zip,
} as const;

/** The gateways an instrument may stick to (`stickyGatewaySlug`). */
export { type GatewaySlug, gatewaySlugs };

/** The longest `search` of a customer's instrument list. */
export const INSTRUMENT_SEARCH_MAX = 255;

const L = BILLING_ADDRESS_LIMITS;

/** Trimmed text of 1 to `max` characters; optional, and null clears it. */
const nullableText = (max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`))),
  );

const phoneNumber = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxCodePoints(L.phoneNumber, `must be at most ${L.phoneNumber} characters`),
  v.regex(/^[0-9+()\-. ]+$/, 'must hold digits and + ( ) - . or spaces only'),
);

export const gatewaySlug = named('StickyGatewaySlug', v.picklist(gatewaySlugs, `must be one of ${gatewaySlugs.join(', ')}`));

export const paymentInstrumentId = v.pipe(v.string(), v.regex(/^inst_[0-9a-f]{32}$/));

/** `{token}`: the id of an unused, unexpired card token of the organization. */
export const attachPaymentInstrumentRequest = named(
  'AttachPaymentInstrumentRequest',
  v.strictObject({
    token: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxCodePoints(100, 'must be at most 100 characters')),
  }),
);

const billingAddressInput = v.pipe(
  v.strictObject({
    country: v.optional(v.nullable(country)),
    firstName: nullableText(L.firstName),
    organization: nullableText(L.organization),
    lastName: nullableText(L.lastName),
    /** The first address line (`address1` in the record). */
    address: nullableText(L.address),
    address2: nullableText(L.address2),
    city: nullableText(L.city),
    region: nullableText(L.region),
    zip: nullableText(L.zip),
    phoneNumber: v.optional(v.nullable(phoneNumber)),
  }),
  v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
);

const integer = (message: string) => v.pipe(v.number(message), v.integer(message));

/**
 * `{expireMonth, expireYear}`, both given: the card's new expiry. Whether it lies in the future is checked
 * against the clock when the update runs (400 `card.expired`).
 */
const creditCardInput = v.strictObject({
  expireMonth: v.pipe(integer('must be a whole number'), v.minValue(1, 'must be 1 to 12'), v.maxValue(12, 'must be 1 to 12')),
  expireYear: v.pipe(integer('must be a whole number'), v.minValue(1000, 'must be four digits'), v.maxValue(9999, 'must be four digits')),
});

/**
 * The update body: `billingAddress` (the given fields change, null clears one), `creditCard` (the expiry),
 * `stickyGatewaySlug`, `method` (a PaymentMethodEnum value) and `useAsBackup`. At least one field.
 */
export const updatePaymentInstrumentRequest = named(
  'UpdatePaymentInstrumentRequest',
  v.pipe(
    v.strictObject({
      billingAddress: v.optional(billingAddressInput),
      creditCard: v.optional(creditCardInput),
      stickyGatewaySlug: v.optional(gatewaySlug),
      method: v.optional(paymentMethod),
      useAsBackup: v.optional(v.boolean('must be true or false')),
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must change at least one field'),
  ),
);

/** A customer's instruments: paging (newest first by default) and `search`. */
export const listPaymentInstrumentsQuery = v.strictObject({
  ...pagingQuery,
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(INSTRUMENT_SEARCH_MAX, `must be at most ${INSTRUMENT_SEARCH_MAX} characters`))),
});

const nullableString = v.nullable(v.string());

export const paymentInstrumentBillingAddress = named(
  'PaymentInstrumentBillingAddress',
  v.strictObject({
    firstName: nullableString,
    lastName: nullableString,
    organization: nullableString,
    country: nullableString,
    address1: nullableString,
    address2: nullableString,
    city: nullableString,
    region: nullableString,
    zip: nullableString,
    phoneNumber: nullableString,
  }),
);

export const paymentInstrumentCreditCard = named(
  'PaymentInstrumentCreditCard',
  v.strictObject({
    creditCardLastFourDigits: v.pipe(v.string(), v.regex(/^\d{4}$/)),
    brand: v.picklist(cardBrands),
    expireYear: v.pipe(v.number(), v.integer()),
    expireMonth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
    /** The last day the card is good: `YYYY-MM-DD`. */
    expireDate: v.pipe(v.string(), v.isoDate(), v.check(isCalendarDate, 'must be a date that exists')),
    stickyGatewaySlug: gatewaySlug,
  }),
);

export const paymentInstrumentBankAccount = named(
  'PaymentInstrumentBankAccount',
  v.strictObject({
    bankName: nullableString,
    lastFourDigits: v.string(),
  }),
);

export const paymentInstrument = named(
  'PaymentInstrument',
  v.strictObject({
    id: paymentInstrumentId,
    organizationId: uuid,
    customerId: v.pipe(v.string(), v.regex(/^cus_[0-9a-f]{32}$/)),
    type: v.picklist(['card']),
    method: paymentMethod,
    useAsBackup: v.boolean(),
    billingAddress: paymentInstrumentBillingAddress,
    bankAccount: v.nullable(paymentInstrumentBankAccount),
    creditCard: v.nullable(paymentInstrumentCreditCard),
    createdAt: isoTime,
    updatedAt: isoTime,
    deletedAt: nullableIsoTime,
  }),
);

export const paymentInstrumentResponse = objectEnvelope('PaymentInstrumentResponse', paymentInstrument);
export const paymentInstrumentListResponse = listEnvelope('PaymentInstrumentListResponse', paymentInstrument);
