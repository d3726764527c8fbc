/**
 * The subscriptions part of the organization face (`Authorization: ApiKey …`): subscriptions and their items, and
 * the sandbox test clock.
 */
import { listSubscriptions, createSubscription, getSubscription, updateSubscriptionItems, getTestClock, advanceTestClock } from '../subscriptions/routes.ts';

export { listSubscriptions, createSubscription, getSubscription, updateSubscriptionItems, getTestClock, advanceTestClock };

export const subscriptionRoutes = { listSubscriptions, createSubscription, getSubscription, updateSubscriptionItems, getTestClock, advanceTestClock };
