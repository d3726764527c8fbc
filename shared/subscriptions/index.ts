/** The subscriptions module's front door: what other modules may use (subscriptions, their steps, cancellations, pauses and the test clock). */
export { createCancellation } from './cancellations.service.ts';
export { checkoutClockOffset, checkoutSubscription, type CheckoutSubscription, checkoutSubscriptionItems } from './checkout.service.ts';
export { createPause, resumeSubscription } from './pauses.service.ts';
export { subscriptionChargesKind } from './steps.service.ts';
export { getSubscriptionSummary, subscriptionCharges, subscriptionSummaries } from './subscriptions.service.ts';
export { clockOf } from './test-clock.service.ts';
