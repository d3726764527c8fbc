/** The API reference's entries of the money routes (`shared/money/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import { payoutMethodsBusy } from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const moneyDocs = {
  getBalanceSummary: {
    description:
      "The merchant's balances in major units, one entry per currency it ever had money in: `available` (payable out), `pending` (a payment's net during its 7-day hold), `reserved` (held for open disputes), `inTransit`, `paidOut` and `owed` (refunds or disputes the available funds did not cover).",
    example: { params: { merchantId: ids.merchantId } },
  },
  listMerchantPayoutMethods: {
    description:
      "The merchant's payout methods (bank accounts added through the organization API), newest first; only the last four characters of an account number are ever kept. A method is `verified` at once on the sandbox.",
    example: { params: { merchantId: ids.merchantId } },
  },
  requestPayout: {
    description:
      "Pays available funds out to a payout method, in its currency; without `amount`, everything available in that currency (at least one major unit). Only the merchant's own key may ask (a parent's key gets 403). `Idempotency-Key` is required: the same key and body answer the original withdrawal with `Idempotent-Replayed: true`. The withdrawal starts `pending`; on the sandbox it moves only through the advance route.",
    example: {
      params: { merchantId: ids.merchantId },
      headers: { 'Idempotency-Key': 'payout-2026-11-30' },
      body: { payoutMethodId: ids.eurPayoutMethodId, amount: 50, currency: 'EUR' },
    },
    errors: [
      { status: 400, code: 'request.idempotency_key_required', when: 'No `Idempotency-Key` header.' },
      { status: 400, code: 'request.invalid_idempotency_key', when: 'The `Idempotency-Key` is empty, over 255 characters or not printable ASCII.' },
      { status: 409, code: 'idempotency.in_progress', when: 'The first request with this key is still being processed.' },
      { status: 409, code: 'payout.conflict', when: 'Other writes to the same funds kept conflicting: send the same request again.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The key was used with another body.' },
      { status: 422, code: 'payout.insufficient_funds', when: 'The amount is more than available (`details.available`).' },
      { status: 422, code: 'payout.currency_mismatch', when: "`currency` is not the payout method's." },
      { status: 422, code: 'payout.unknown_payout_method', when: 'The merchant has no payout method with this id (or it was removed).' },
      { status: 422, code: 'payout.payout_method_not_verified', when: 'The payout method is still `pending` verification.' },
      { status: 422, code: 'payout.amount_below_minimum', when: 'The amount is under one major unit.' },
    ],
  },
  listMerchantPayouts: {
    description:
      "The merchant's withdrawals, newest first, with their statuses (`pending`, `in_transit`, `paid`, `failed`, `canceled`), a page (`page` ≥ 1, `limit` 1–100) at a time. A parent's key may read its sub-merchants'.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getMerchantPayout: {
    description:
      "One withdrawal of the merchant: amount, currency, the payout method and its last four, status and, once sent, the bank's reference (`externalWithdrawalId`).",
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.withdrawalId } },
  },
  advancePayout: {
    description:
      'Sandbox only (not routed on live): moves a withdrawal as the bank would — `pending` → `in_transit` (with a bank reference and the `payout.sent` event) → `paid`, or from `pending` or `in_transit` to `failed` or `canceled` (the amount goes back to available). `paid`, `failed` and `canceled` are final.',
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.pendingWithdrawalId }, body: { to: 'in_transit' } },
    errors: [
      { status: 409, code: 'payout.invalid_transition', when: "The withdrawal's status does not allow that move (`details.status`)." },
      { status: 409, code: 'payout.conflict', when: 'Other writes to the same payout kept conflicting: send the same request again.' },
    ],
  },
  listPayoutMethods: {
    description:
      "Lists the organization's payout methods, newest first by default (`sortDirection`, `limit`, `offset`). Bank accounts show only the last four characters of their number. An organization has at most 10.",
    example: { params: { organizationId: ids.organizationId }, query: { limit: '10' } },
  },
  createPayoutMethod: {
    description:
      "Adds a bank account to pay out to, in its `currency`. `accountNumber` is an IBAN (checksum and country checked; spaces and dashes ignored), or a local number of 4–17 digits with a `routingNumber`. The number is checked and dropped: only its last four characters are kept. `status` is `verified` at once on sandbox and `pending` on live; the first method turns the organization's `account.bankState` to `connected`.",
    example: {
      params: { organizationId: ids.organizationId },
      body: { type: 'bank-account', holderName: 'Jane Seller', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
    },
    errors: [
      {
        status: 400,
        code: 'payout_method.invalid_account_number',
        when: '`accountNumber` is not a valid IBAN (length, characters, check digits), names another country than `country`, or is not a local number of 4–17 digits.',
      },
      { status: 400, code: 'payout_method.routing_number_required', when: 'A local account number comes without `routingNumber`.' },
      { status: 422, code: 'payout_method.limit_reached', when: 'The organization has 10 payout methods already; remove one first.' },
      payoutMethodsBusy,
    ],
  },
  deletePayoutMethod: {
    description:
      "Removes a payout method. Payouts already requested to it go on (a payout keeps the method's id and last four). Removing the last one turns `account.bankState` back to `not-connected`.",
    example: { params: { organizationId: ids.organizationId, payoutMethodId: ids.payoutMethodIdToDelete } },
    errors: [payoutMethodsBusy],
  },
  listDashboardPayouts: {
    description:
      "The merchant's payouts (withdrawals to its payout methods), newest first, a page at a time (`page` from 1, `limit` 1–100), each with its amount, currency, the payout method's last four digits and its status (`pending`, `in_transit`, `paid`, `failed` or `canceled`). Any member may read them; payouts are requested through the merchant API or the dashboard's Payouts page.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getDashboardPayout: {
    description: "One payout of the merchant with its status and the bank's reference once sent (`externalWithdrawalId`). Any member may read it.",
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.payoutId } },
  },
} satisfies ModuleDocs<typeof routes>;
