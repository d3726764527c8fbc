/** The merchant API's balance summary. */
import * as v from 'valibot';
import { uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';

/** A major-unit amount (a JSON number, in its currency's decimals). */
const amount = v.pipe(v.number(), v.finite());

/** One currency's balances, in major units. */
export const publicApiCurrencyBalance = named(
  'PublicApiCurrencyBalance',
  v.strictObject({
    currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    /** Payable out now. */
    available: amount,
    /** Within the hold period. */
    pending: amount,
    /** Held back for open disputes. */
    reserved: amount,
    /** Payouts requested and not yet paid or returned. */
    inTransit: amount,
    /** Payouts paid, in all. */
    paidOut: amount,
    /** What the merchant owes the platform (refunds or disputes its available funds did not cover). */
    owed: amount,
  }),
);

/** `PublicApiBalanceSummaryResponse`: every currency the merchant has a balance in. */
export const publicApiBalanceSummaryResponse = named(
  'PublicApiBalanceSummaryResponse',
  v.strictObject({
    merchantId: uuid,
    balances: v.array(publicApiCurrencyBalance),
  }),
);
