/**
 * The money module's front door (the ledger, balances, payout methods and payouts): all that other modules may use
 * of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { getConditionBalance } from './ledger.repository.ts';
export { disputeLostJournal, disputeOpenedJournal, disputeWonJournal, paymentNet, refundJournal, taxInDisputed } from './ledger.rules.ts';
export { afterPaymentIn, balancesOf, bookDebit, bookJournal, checkLedger, paymentBookings, releaseDueFunds } from './ledger.service.ts';
export { addPayoutMethod, listMerchantPayoutMethods, removePayoutMethod } from './payout-methods.service.ts';
export { checkAccountNumber } from './payouts.rules.ts';
export { advanceWithdrawal, merchantWithdrawals, requestMerchantPayout, type Withdrawal } from './payouts.service.ts';
export { createPayoutMethod } from './routes.ts';
