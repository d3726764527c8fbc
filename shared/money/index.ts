/** The money module's front door: what other modules may use (the ledger, balances, payout methods and payouts). */
export { getBalance } from './ledger.repository.ts';
export { debitAvailable, disputeLostJournal, disputeOpenedJournal, disputeWonJournal, type Journal, merchantAccount, refundJournal } from './ledger.rules.ts';
export { balancesOf, bookJournal, paymentBookings } from './ledger.service.ts';
export { releaseDueFunds } from './ledger.service.ts';
export { addPayoutMethod, listMerchantPayoutMethods } from './payout-methods.service.ts';
export { WITHDRAWAL_ID_PATTERN } from './payouts.rules.ts';
export { merchantWithdrawals, requestMerchantPayout, type Withdrawal } from './payouts.service.ts';
export { advanceWithdrawal } from './payouts.service.ts';
export { createPayoutMethod } from './routes.ts';
