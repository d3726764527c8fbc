/**
 * The subscriptions module's front door (subscriptions, their steps, cancellations, pauses and the test clock): all
 * that other modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are
 * written in).
 */
export { CANCELLATION_REFUND_KEY, createCancellation, updateCancellation } from './cancellations.service.ts';
export {
  checkoutClockOffset,
  checkoutSubscription,
  type CheckoutSubscription,
  checkoutSubscriptionInvoice,
  checkoutSubscriptionItems,
} from './checkout.service.ts';
export { replaceCard } from './instrument-retry.service.ts';
export { createPause, resumeSubscription } from './pauses.service.ts';
export { createReactivation } from './reactivations.service.ts';
export { subscriptionChargesKind } from './steps.service.ts';
export {
  type CustomerSubscription,
  customerSubscription,
  customerSubscriptions,
  customerSubscriptionSummaries,
  getSubscriptionSummary,
  subscriptionStanding,
  subscriptionCharges,
  subscriptionSummaries,
} from './summaries.service.ts';
export { isLocallyActive } from './subscriptions.rules.ts';
export { clockOf } from './test-clock.service.ts';
/** The mail templates of the module, for the mail sender (functions/system/send-mail.ts). */
export { subscriptionMails } from './subscription.mails.ts';
