/**
 * Payout methods (organization API: add, list, remove; merchant API: list) and payouts (merchant API: request;
 * sandbox: advance).
 */
import * as v from 'valibot';
import {
  HOLDER_NAME_MAX,
  PAYOUT_METHOD_ID_PATTERN,
  payoutMethodTypes,
  ROUTING_NUMBER_PATTERN,
  WITHDRAWAL_ID_PATTERN,
  withdrawalStatuses,
} from './payouts.rules.ts';
import { isoTime, uuid, pageQuery, pagination } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { amountFitsCurrency, currency, listEnvelope, majorAmount, objectEnvelope, pagingQuery } from '../platform/http/schemas/organization.ts';
import { country } from '../platform/http/schemas/country.ts';

const payoutMethodId = v.pipe(v.string(), v.regex(PAYOUT_METHOD_ID_PATTERN, 'must be a payout method id (pom_…)'));

/** A payout method as both faces show it: never the account number, only its last four. */
const payoutMethodFields = {
  id: payoutMethodId,
  type: v.picklist(payoutMethodTypes),
  holderName: v.string(),
  country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/)),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  last4: v.pipe(v.string(), v.regex(/^[A-Z0-9]{4}$/)),
  status: v.picklist(['pending', 'verified']),
  createdAt: isoTime,
};

export const payoutMethod = named('PayoutMethod', v.strictObject(payoutMethodFields));
export const publicApiPayoutMethod = named('PublicApiPayoutMethod', v.strictObject(payoutMethodFields));

/**
 * Add a bank account: `accountNumber` is an IBAN (two letters first: checksum and country checked) or a local
 * number of 4 to 17 digits with a `routingNumber`; spaces and dashes are ignored. Only its last four are kept.
 */
export const createPayoutMethodRequest = named(
  'CreatePayoutMethodRequest',
  v.strictObject({
    type: v.picklist(payoutMethodTypes, 'must be bank-account'),
    holderName: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(HOLDER_NAME_MAX)),
    country,
    currency,
    accountNumber: v.pipe(
      v.string('must be a string'),
      v.minLength(4, 'must be at least 4 characters'),
      v.maxCodePoints(42, 'must be at most 42 characters'),
      v.regex(/^[A-Za-z0-9 -]+$/, 'must hold only letters, digits, spaces and dashes'),
    ),
    routingNumber: v.optional(
      v.nullable(
        v.pipe(
          v.string('must be a string'),
          v.transform((s) => s.replace(/[\s-]/g, '').toUpperCase()),
          v.regex(ROUTING_NUMBER_PATTERN, 'must be 3 to 20 letters or digits'),
        ),
      ),
      null,
    ),
  }),
);

export const payoutMethodResponse = objectEnvelope('PayoutMethodResponse', payoutMethod);
export const payoutMethodListResponse = listEnvelope('PayoutMethodListResponse', payoutMethod);
export const listPayoutMethodsQuery = v.strictObject({ ...pagingQuery });

/** `PublicApiPayoutMethodsResponse`: the merchant's payout methods, newest first. */
export const publicApiPayoutMethodsResponse = named(
  'PublicApiPayoutMethodsResponse',
  v.strictObject({
    data: v.array(publicApiPayoutMethod),
  }),
);

/**
 * `PublicApiRequestPayoutBody`: `amount` in major units of `currency`, which must be the payout method's
 * currency; without `amount`, everything available in that currency.
 */
export const publicApiRequestPayoutBody = named(
  'PublicApiRequestPayoutBody',
  v.pipe(
    v.strictObject({
      payoutMethodId,
      amount: v.optional(
        v.pipe(
          majorAmount,
          v.check((n) => n > 0, 'must be more than 0'),
        ),
      ),
      currency,
    }),
    amountFitsCurrency('amount', 'currency'),
  ),
);

/** A withdrawal as the merchant API shows it (amount in major units). */
const withdrawalFields = {
  withdrawalId: v.pipe(v.string(), v.regex(WITHDRAWAL_ID_PATTERN)),
  merchantId: uuid,
  status: v.picklist(withdrawalStatuses),
  amount: v.pipe(v.number(), v.finite(), v.minValue(0)),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  payoutMethodId,
  payoutMethodLast4: v.pipe(v.string(), v.regex(/^[A-Z0-9]{4}$/)),
  externalWithdrawalId: v.nullable(v.string()),
  createdAt: isoTime,
  updatedAt: isoTime,
};

/** `PublicApiRequestPayoutResponse`: the withdrawal. */
export const publicApiRequestPayoutResponse = named('PublicApiRequestPayoutResponse', v.strictObject(withdrawalFields));

/** `PublicApiPayout`: a withdrawal in the list and on its own. */
export const publicApiPayout = named('PublicApiPayout', v.strictObject(withdrawalFields));

/** The merchant's payouts list: a page (≥ 1) of `limit` (1..100) withdrawals, newest first. */
export const merchantPayoutListQuery = v.strictObject({
  ...pageQuery,
});

/** One page of the merchant's withdrawals, newest first, each with its status. */
export const publicApiPayoutListResponse = named(
  'PublicApiPayoutListResponse',
  v.strictObject({
    data: v.array(publicApiPayout),
    pagination,
  }),
);

/** The sandbox's advance of a withdrawal to its next status. */
export const advancePayoutRequest = named(
  'AdvancePayoutRequest',
  v.strictObject({
    to: v.picklist(['in_transit', 'paid', 'failed', 'canceled'], 'must be in_transit, paid, failed or canceled'),
  }),
);

/** The payout id's pattern, which the operator's tools validate their arguments against. */
export { WITHDRAWAL_ID_PATTERN } from './payouts.rules.ts';
