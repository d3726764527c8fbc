/** The renewal reminder tells what the renewal will charge, or, when the subscription's credit covers it, that nothing will be. */
import { describe, expect, it } from 'vitest';
import { subscriptionMails } from '../../../shared/subscriptions/subscription.mails.ts';

const about = { subscriptionId: 'sub_1', name: 'Pro', seller: 'Shop', currency: 'USD', renewsOn: '2027-01-05' };

describe('the renewal reminder', () => {
  it('names the amount with its tax and the card that pays it', () => {
    const { text } = subscriptionMails['subscription.reminder']({ ...about, amountMinor: 1082, taxMinor: 82 });
    expect(text).toContain('renews on 2027-01-05 for 10.82 USD (including 0.82 USD tax). Your saved card will be charged then.');
  });

  it('says nothing will be charged when the credit covers the period, instead of a charge of 0.00', () => {
    const { text } = subscriptionMails['subscription.reminder']({ ...about, amountMinor: 0, taxMinor: 0 });
    expect(text).toContain('renews on 2027-01-05. Its credit covers that period: nothing will be charged.');
    expect(text).not.toContain('0.00');
    expect(text).not.toContain('card will be charged');
  });
});
