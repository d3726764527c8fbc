/**
 * The production tokenization host (`POST {tokenization_base}/tokens`): its nested request body. It answers the
 * stage endpoint's token record (`PaymentInstrumentTokenResponse`, shared/customers/card-tokens.schemas.ts). The card
 * fields have the stage endpoint's names, nested under `paymentInstrument`, so moving from the stage endpoint to
 * the host only nests the body. The card's own rules (Luhn, brand, expiry in the future, CVV length per brand) are
 * checked by `validateCard` (shared/customers/cards.rules.ts), whose refusals name these fields.
 * Every limit here is listed in docs/reference-cards.md ("Production tokenization host").
 */
import * as v from 'valibot';
import type { CardInput } from '../domain/card-data.ts';
import type { CardFieldNames } from './card-tokens.service.ts';
import { named } from '../platform/http/schemas/named.ts';
import { country } from '../platform/http/schemas/country.ts';

/** Field limits of the host's body (characters). */
export const TOKENIZATION_LIMITS = {
  /** The card number with the spaces or dashes people type. */
  primaryAccountNumber: 32,
  cardVerificationValue: 4,
  cardholderName: 100,
  firstName: 45,
  lastName: 45,
  organization: 255,
  address: 255,
  city: 100,
  region: 100,
  zip: 20,
  phoneNumber: 20,
  userAgent: 512,
  acceptLanguage: 255,
  deviceFingerprint: 255,
} as const;

const L = TOKENIZATION_LIMITS;
const text = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const optionalText = (max: number) => v.optional(v.nullable(text(max)));
const wholeNumber = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'));

/** The card: number, verification value, expiry and the name on it. */
export const tokenizationCard = named(
  'TokenizationPaymentInstrument',
  v.strictObject({
    primaryAccountNumber: v.pipe(v.string('must be a string'), v.maxCodePoints(L.primaryAccountNumber, `must be at most ${L.primaryAccountNumber} characters`)),
    cardVerificationValue: v.pipe(v.string('must be a string'), v.maxCodePoints(L.cardVerificationValue, `must be at most ${L.cardVerificationValue} digits`)),
    /** 1..12 */
    expirationMonth: wholeNumber,
    /** Four digits. */
    expirationYear: wholeNumber,
    cardholderName: text(L.cardholderName),
  }),
);

/** The cardholder's billing address: names and country required, the rest as the country has it. */
export const tokenizationBillingAddress = named(
  'TokenizationBillingAddress',
  v.strictObject({
    firstName: text(L.firstName),
    lastName: text(L.lastName),
    organization: optionalText(L.organization),
    address1: optionalText(L.address),
    address2: optionalText(L.address),
    city: optionalText(L.city),
    region: optionalText(L.region),
    zip: optionalText(L.zip),
    country,
    phoneNumber: optionalText(L.phoneNumber),
  }),
);

/** What the merchant's page saw of the buyer's device, for risk checks. */
export const tokenizationRiskMetadata = named(
  'TokenizationRiskMetadata',
  v.strictObject({
    ipAddress: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.ip('must be an IPv4 or IPv6 address')))),
    userAgent: optionalText(L.userAgent),
    acceptLanguage: optionalText(L.acceptLanguage),
    deviceFingerprint: optionalText(L.deviceFingerprint),
  }),
);

/** `POST /tokens` on the tokenization host. Only payment cards are tokenized here. */
export const tokenizationRequest = named(
  'TokenizationRequest',
  v.strictObject({
    method: v.picklist(['payment-card'], 'must be payment-card (the only method tokenized here)'),
    paymentInstrument: tokenizationCard,
    billingAddress: tokenizationBillingAddress,
    riskMetadata: v.optional(tokenizationRiskMetadata),
  }),
);

export type TokenizationRequest = v.InferOutput<typeof tokenizationRequest>;

/** The card of a host request, as `createCardToken` takes it (held in memory only). */
export const cardInputOf = (body: TokenizationRequest): CardInput => ({
  number: body.paymentInstrument.primaryAccountNumber,
  cvc: body.paymentInstrument.cardVerificationValue,
  expMonth: body.paymentInstrument.expirationMonth,
  expYear: body.paymentInstrument.expirationYear,
  holderName: body.paymentInstrument.cardholderName,
});

/** How a card refusal names the host body's fields (`details: field: paymentInstrument.primaryAccountNumber`). */
export const hostCardFieldNames: CardFieldNames = {
  number: 'paymentInstrument.primaryAccountNumber',
  cvc: 'paymentInstrument.cardVerificationValue',
  expMonth: 'paymentInstrument.expirationMonth',
  expYear: 'paymentInstrument.expirationYear',
};
