/**
 * The payments module's front door (transactions, charges, refunds, disputes and the unsettled funds): all that
 * other modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written
 * in).
 */
export { charge, type ChargeKind, type NewCharge, type NothingToCharge, processorKeyOf, recordCharge, resumeCharge } from './charges.service.ts';
export { createDisputeAlert } from './dispute-alerts.service.ts';
export { getDisputeClaim } from './disputes.repository.ts';
export { takenByDispute } from './disputes.rules.ts';
export { disputeOfTransaction } from './disputes.service.ts';
export { newRefundId, processorRefundKey, type Refund, refundableMinor } from './refunds.rules.ts';
export {
  type Claim,
  createRefund,
  finishRefund,
  processorRefund,
  REFUND_OPERATION,
  refundsClaimedWith,
  refundsOfTransaction,
  settleRefund,
  transactionDisputed,
} from './refunds.service.ts';
export { setSandboxInstrumentDecline } from './sandbox-cards.service.ts';
export { advanceSandboxDispute, openSandboxDispute } from './sandbox-disputes.service.ts';
export { taxInPayment, type Transaction } from './transaction.entity.ts';
export { getTransactionByExternalId, getTransactionById } from './transactions.repository.ts';
export {
  type CombinedStatus,
  combinedStatuses,
  INITIAL_STATUS,
  isPaidStatus,
  isRefundableStatus,
  isTransactionId,
  type PaidStatus,
  requestFingerprint,
} from './transactions.rules.ts';
export {
  chargeSubscription,
  findTransaction,
  invoicePaidBy,
  latestTransactions,
  SUBSCRIPTION_CHARGES_OPERATION,
  subscriptionChargeAnswer,
  subscriptionChargeFingerprint,
  transactionRecordsPage,
  transactionsKind,
} from './transactions.service.ts';
export { unsettledOperations } from './unsettled.service.ts';
