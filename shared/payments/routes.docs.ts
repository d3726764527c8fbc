/** The API reference's entries of the payments routes (`shared/payments/routes.ts`), read only by the OpenAPI document's builder. */
import { notLive, processorUnavailable, refundRefusals } from '../platform/http/reference-examples.ts';
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const paymentsDocs = {
  // Transactions
  createTransaction: {
    description:
      "Charges a saved card (`paymentInstrumentId`) or a card token (`token`, used up), once per `idempotencyKey`: a repeat with the same key and body answers the first answer again, a 402 as much as a 201, and never charges twice. `organizationId` may be left out when the calling account is linked to one organization only. The payer is `customerId`, a new customer made from `customer` (which writes `customer.created`), or the instrument's own customer.\n\n`amount` is what the buyer pays, tax included: the platform, as merchant of record, owes the tax of where the buyer is within it (`tax` in the answer; `round(amount × rate / (1 + rate))`, half to even), and the merchant's share is the rest less the fee. Where the buyer is: `billingAddress` {country, region, zip}, else the instrument's billing address, else the customer's address (docs/tax.md).\n\nA charge writes `payment.completed` (organization webhooks: `transaction-processed`); a decline is recorded as a `declined` transaction, writes `payment.failed` (`transaction-declined`) and answers 402. Errors about what the body names are answered before the key is claimed, so the same key works once the request is fixed.",
    example: {
      body: {
        idempotencyKey: 'order-1042',
        organizationId: ids.organizationId,
        amount: 49.99,
        currency: 'USD',
        description: 'Pro plan, 1 month',
        paymentInstrumentId: ids.paymentInstrumentId,
        billingAddress: { country: 'US', region: 'NY' },
      },
    },
    errors: [
      { status: 400, code: 'request.organization_id_required', when: 'No `organizationId`, and the calling account is linked to several organizations.' },
      {
        status: 403,
        code: 'forbidden',
        when: '`organizationId` names an organization that does not exist, is not linked to the calling account, or is of the other deployment.',
      },
      {
        status: 402,
        code: 'payment.declined',
        when: 'The issuer declined the card: the message gives the reason, `details` the recorded `transactionId` and the `declineCode`.',
      },
      {
        status: 422,
        code: 'transaction.billing_address_required',
        when: 'No `billingAddress`, and neither the instrument nor the customer has an address with a country: the tax the amount includes cannot be known.',
      },
      {
        status: 422,
        code: 'checkout.tax_unavailable',
        when: 'No tax rate is known where the buyer is: a country the platform does not sell to, or a US or Canadian address without its `region` (`details.reason`).',
      },
      { status: 404, code: 'customer.not_found', when: "`customerId` is not one of the organization's customers." },
      { status: 404, code: 'payment_instrument.not_found', when: "`paymentInstrumentId` is not one of the organization's card instruments." },
      { status: 404, code: 'card_token.not_found', when: "`token` is not one of the organization's card tokens." },
      { status: 409, code: 'card_token.already_used', when: 'The token was used already.' },
      {
        status: 409,
        code: 'idempotency.in_progress',
        when: 'A request with this `idempotencyKey` is still running; retry with the same key for its answer.',
      },
      { status: 422, code: 'card_token.expired', when: 'The token is past its `expiratedAt`.' },
      notLive,
      { status: 422, code: 'idempotency.key_reused', when: 'The `idempotencyKey` was used before with another body.' },
      {
        status: 422,
        code: 'transaction.customer_mismatch',
        when: 'The payment instrument belongs to another customer than `customerId`, or a new `customer` was given with it.',
      },
      {
        status: 502,
        code: 'payment.processor_error',
        when: 'The processor could not process the charge: recorded `declined`, nothing charged (`details` names the `transactionId`).',
      },
      {
        status: 502,
        code: 'payment.processor_unreachable',
        when: 'The processor did not answer, so the outcome is unknown: retry with the same `idempotencyKey`, which finishes this payment.',
      },
      processorUnavailable,
    ],
  },
  listTransactions: {
    description:
      "The organization's transactions in the list envelope, declined ones included. Filters: `combinedStatuses` and `paymentMethods` (comma-separated or repeated), `search` (part of the id, description, customer name or e-mail, or the processor's id), `subscriptionId` and `showTestData`. `sortBy` `createdAt` (default) and `updatedAt` read one index page; `title`, `customerName`, `date`, `paymentType` and `gatewayName` sort every match in memory and are limited to 10,000 matching transactions.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { combinedStatuses: 'completed,declined', sortBy: 'createdAt', sortDirection: 'desc', limit: '20', offset: '0' },
    },
    errors: [
      {
        status: 422,
        code: 'transaction.sort_too_broad',
        when: 'A sort by `title`, `customerName`, `date`, `paymentType` or `gatewayName` over more than 10,000 matching transactions: narrow the filters or sort by `createdAt`/`updatedAt`.',
      },
    ],
  },
  // Refunds
  createRefund: {
    description:
      'Gives back `amount` (major units of the transaction\'s currency) of a `completed` or `partially-refunded` transaction, or all that is left without it. The refunds of a transaction never add up to more than it captured, also when they run at once. A refund the processor refuses is still answered 201, with `status: "failed"` and its `failureReason`. The transaction becomes `partially-refunded` or `refunded`; the platform keeps its fee. An optional `Idempotency-Key` header (1–255 printable ASCII) makes the request safe to retry (a replay carries `Idempotent-Replayed: true`). Sends no webhook.',
    example: {
      params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund },
      headers: { 'Idempotency-Key': 'refund-order-1042-1' },
      body: { amount: 10, reason: 'Returned one seat' },
    },
    errors: [
      { status: 400, code: 'request.invalid_idempotency_key', when: '`Idempotency-Key` is empty, longer than 255 characters or not printable ASCII.' },
      { status: 409, code: 'idempotency.in_progress', when: 'A refund request with this `Idempotency-Key` is still running; retry with the same key.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The `Idempotency-Key` was used before with another request.' },
      ...refundRefusals,
      {
        status: 502,
        code: 'refund.processor_unreachable',
        when: 'The processor did not answer: the refund stays `pending`; retry with the same `Idempotency-Key`, or the reconciler settles it within minutes.',
      },
      processorUnavailable,
    ],
  },
  listRefunds: {
    description:
      "A transaction's refunds in the list envelope, newest first unless `sortDirection=asc`, whoever asked for them (`source`: `api`, `dashboard` or `processor`) and whatever their `status` (`pending`, `refunded`, `failed`).",
    example: { params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund }, query: { sortDirection: 'asc' } },
  },
  simulateProcessorRefund: {
    description:
      'Sandbox only: the sandbox processor refunds the transaction on its own, as a cardholder\'s bank would have it, and the platform records the refund with `source: "processor"`. Unlike API and dashboard refunds it writes `payment.refunded`. Same body and rules as an API refund (all that is left without `amount`); `externalRefundId` is the `re_…` id the sandbox processor gives it.',
    example: {
      params: { organizationId: ids.organizationId, transactionId: ids.transactionIdToRefund },
      body: { amount: 5, reason: 'Refunded by the cardholder’s bank' },
    },
    errors: refundRefusals,
  },
  // Disputes
  createDispute: {
    description:
      "Records a dispute (chargeback) the organization learned of, under its own id (`disputeId`: 1–64 letters, digits, `_` or `-`, unique in the organization), against a captured (`completed` or `partially-refunded`) transaction, for at most what its refunds left of it. The amount less the tax in it (the platform, not the merchant, owes that) leaves the merchant's available balance for a reserve, and `dispute.created` is written; `deadlineAt` is `postedAt` plus 7 days. A transaction has at most one dispute. A repeat with the same id and body answers the dispute again (201, nothing written), so it is safe to retry.",
    example: {
      params: { organizationId: ids.organizationId, disputeId: ids.disputeIdToCreate },
      body: {
        transactionId: ids.transactionIdToDispute,
        currency: 'USD',
        amount: 49.99,
        reasonCode: '10.4',
        type: 'fraud',
        status: 'response-needed',
        postedAt: '2026-01-05T10:00:00.000Z',
      },
    },
    errors: [
      { status: 404, code: 'transaction.not_found', when: "`transactionId` is not one of the organization's transactions." },
      { status: 409, code: 'dispute.already_exists', when: 'The dispute id exists already with another body.' },
      { status: 409, code: 'dispute.transaction_already_disputed', when: 'The transaction has a dispute already (`details.disputeId` names it).' },
      { status: 409, code: 'dispute.busy', when: "The merchant's balance kept changing through five attempts; try again." },
      { status: 422, code: 'dispute.transaction_not_disputable', when: 'The transaction is not `completed` or `partially-refunded` (`details.status`).' },
      { status: 422, code: 'dispute.currency_mismatch', when: "The dispute's currency is not the transaction's." },
      { status: 422, code: 'dispute.amount_exceeds_transaction', when: 'The amount is above what refunds left of the transaction (`details.maxAmount`).' },
    ],
  },
  getDispute: {
    description:
      "One dispute of the organization, reported through the API or opened by the processor (`dp_…` ids, with the processor's `externalDisputeId` and `caseId`). `status` moves from `response-needed`/`under-review` to `won`, `lost` or `forfeited` (final); `resolvedAt` is set then, and `deadlineAt` says when the merchant's answer is due.",
    example: { params: { organizationId: ids.organizationId, disputeId: ids.disputeId } },
  },
  listDisputes: {
    description:
      "The organization's disputes in the list envelope, by creation (default) or last update (`sortBy=updatedAt`), newest first unless `sortDirection=asc`; `statuses` (comma-separated or repeated) and `createdFrom`/`createdTo` (inclusive) filter them.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { statuses: 'response-needed,under-review', sortBy: 'updatedAt', limit: '20' },
    },
  },
  createDashboardRefund: {
    description:
      "Refunds part of a completed or partially refunded payment (`amount` in major units of its currency, at most its decimals), or all that is left without one; owners and admins. With an `Idempotency-Key` a repeat replays the first answer (`idempotent-replayed: true`) and never refunds twice. The refund's `source` is `dashboard`, so no webhook is sent for it. A refund the processor refuses is answered as a refund with status `failed`.",
    example: {
      params: { merchantId: ids.merchantId, transactionId: ids.refundableTransactionId },
      headers: { 'Idempotency-Key': 'refund-2026-0042' },
      body: { amount: 5, reason: 'Returned unopened' },
    },
    errors: [
      {
        status: 422,
        code: 'refund.transaction_not_refundable',
        when: 'The payment is not completed or partially refunded (declined, pending, refunded in full); `details.status` says which.',
      },
      {
        status: 422,
        code: 'refund.amount_exceeds_refundable',
        when: 'The amount is more than what is left to refund (refunds being processed count); `details.refundableAmount` says how much is.',
      },
      { status: 422, code: 'refund.invalid_amount', when: "The amount is not above 0, or has more decimals than the payment's currency." },
      { status: 422, code: 'refund.transaction_disputed', when: 'The payment is disputed: its money is held for the dispute.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The Idempotency-Key was used before for another refund request.' },
      { status: 409, code: 'idempotency.in_progress', when: 'A request with the same Idempotency-Key is being processed: retry shortly.' },
      {
        status: 409,
        code: 'refund.conflict',
        when: 'Other refunds of the payment were being recorded at the same time; nothing was refunded: send the request again.',
      },
      {
        status: 502,
        code: 'refund.processor_unreachable',
        when: 'The processor did not answer, so the outcome is not known yet: retry with the same Idempotency-Key to finish it.',
      },
      { status: 503, code: 'payments.processor_unavailable', when: 'This deployment has no payment processor yet; nothing was read or written.' },
    ],
  },
} satisfies ModuleDocs<typeof routes>;
