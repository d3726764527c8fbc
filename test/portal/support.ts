/** What the customer portal's tests share: a subscribed customer, on a plan named as the portal's mails show it. */
import { subscriber as subscribed } from '../support/fixtures.ts';

/** A customer in San Francisco (taxed) with a card, subscribed monthly to a plan of 10.00 USD named "Portal monthly", its first period paid. */
export const subscriber = (org: { organizationId: string; fullKey: string }) => subscribed(org, 'Portal monthly');
