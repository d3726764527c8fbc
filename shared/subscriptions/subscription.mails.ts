/**
 * The mails a subscription's customer gets, as templates of the mail sender (functions/system/send-mail.ts): the
 * engine's steps write each one's data with the step (shared/platform/mail/outbox.ts), and the sender renders it.
 * - `subscription.reminder`: a renewal 7 days ahead, what it will charge;
 * - `subscription.payment-failed`: a renewal (trial's end, pause's end) first declined: what it came to, the next try,
 *   the day dunning cancels it, the billing portal;
 * - `subscription.cancelled-unpaid`: dunning cancelled it: the payment that never went through, nothing owed;
 * - `subscription.receipt`: a charge it paid: what, with its tax and the rate it was charged at, on which card, for
 *   which period, and who sold.
 */
import type { Merchant } from '../domain/merchants.ts';
import { portalPath } from '../domain/portal-paths.ts';
import { utcText } from '../domain/time.ts';
import { config } from '../platform/config.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { MailTemplate } from '../platform/mail/mail.entity.ts';
import { type SellerOfRecordText, soldByLine, withTax } from '../platform/mail/mail-text.ts';
import { type MailsOf, outboxMail } from '../platform/mail/outbox.ts';
import type { Subscription } from './subscription.entity.ts';

/** What every subscription mail names: the subscription, its seller (the organization) and the money's currency. */
interface About {
  /** The subscription's id: every mail of it gives it, for the customer's questions and the seller's support. */
  subscriptionId: string;
  /** The subscription's name. */
  name: string;
  /** The organization's name. */
  seller: string;
  currency: string;
}

/** A charge with its tax, in minor units of the currency. */
interface Charge {
  amountMinor: number;
  taxMinor: number;
}

/** Where the customer's billing portal is (its entry page, which mails a sign-in link). */
interface Portal {
  portalUrl: string;
}

const portalLine = (purpose: string, url: string) => `${purpose}: ${url} (it sends a sign-in link to this address).`;
const referenceLine = (d: About) => `Subscription reference: ${d.subscriptionId}`;

const reminder: MailTemplate<About & Charge & { renewsOn: string }> = (d) => ({
  subject: `Your ${d.name} subscription renews on ${d.renewsOn}`,
  text: [
    d.amountMinor > 0
      ? `Your subscription "${d.name}" with ${d.seller} renews on ${d.renewsOn} for ${withTax(d.amountMinor, d.taxMinor, d.currency)}. Your saved card will be charged then.`
      : `Your subscription "${d.name}" with ${d.seller} renews on ${d.renewsOn}. Its credit covers that period: nothing will be charged.`,
    '',
    referenceLine(d),
  ].join('\n'),
});

const paymentFailed: MailTemplate<
  About &
    Charge &
    Portal & {
      /** When it was declined (on a test clock, the clock's time): two payments that fail on one day are told apart. */
      declinedAt?: string;
      nextTry: string | null;
      cancelAt: string;
    }
> = (d) => ({
  subject: `Your payment for ${d.name} failed`,
  text: [
    `We could not charge ${withTax(d.amountMinor, d.taxMinor, d.currency)} to your card${d.declinedAt ? ` on ${utcText(d.declinedAt)}` : ''} for your subscription "${d.name}" with ${d.seller}.`,
    '',
    `${d.nextTry ? `We will try again on ${d.nextTry}. ` : ''}If the payment has not gone through by ${d.cancelAt}, the subscription is cancelled.`,
    '',
    portalLine('To check your subscription and your card, open your billing portal', d.portalUrl),
    '',
    referenceLine(d),
  ].join('\n'),
});

const cancelledUnpaid: MailTemplate<About & Charge & Portal & { cancelledOn: string; declinedOn: string }> = (d) => ({
  subject: `Your ${d.name} subscription was cancelled`,
  text: [
    `Your subscription "${d.name}" with ${d.seller} was cancelled on ${d.cancelledOn}: the payment of ${withTax(d.amountMinor, d.taxMinor, d.currency)} for it, declined on ${d.declinedOn}, never went through.`,
    '',
    'Nothing more will be charged for it, and its unpaid invoice is voided: nothing is owed.',
    '',
    portalLine('Your billing portal has your subscriptions and invoices', d.portalUrl),
    '',
    referenceLine(d),
  ].join('\n'),
});

const receipt: MailTemplate<
  About &
    Charge &
    Portal & {
      /** The payment's id (its transaction's). */
      paymentId: string;
      card: { brand: string; last4: string };
      /** When it was charged (on a test clock, the clock's time). */
      chargedAt: string;
      /** The period it paid, as dates; null when it has none. */
      period: { start: string; end: string } | null;
      sellerOfRecord: SellerOfRecordText;
      /** The rate (a percentage, as its invoice's lines) the tax was charged at; absent or null: not kept, or not one. */
      taxRate?: number | null;
    }
> = (d) => ({
  subject: `Your receipt for ${d.name}`,
  text: [
    `${d.seller} charged ${withTax(d.amountMinor, d.taxMinor, d.currency, d.taxRate)} to your ${d.card.brand} ending in ${d.card.last4} on ${utcText(d.chargedAt)}, for your subscription "${d.name}"${d.period ? ` for ${d.period.start} to ${d.period.end}` : ''}.`,
    '',
    soldByLine(d.sellerOfRecord, d.seller),
    '',
    portalLine('Your invoices are in your billing portal', d.portalUrl),
    '',
    `Payment reference: ${d.paymentId}`,
    referenceLine(d),
  ].join('\n'),
});

export const subscriptionMails = {
  'subscription.reminder': reminder,
  'subscription.payment-failed': paymentFailed,
  'subscription.cancelled-unpaid': cancelledUnpaid,
  'subscription.receipt': receipt,
};

/** A subscription mail as a step writes it: a template's name and its data. */
export type SubscriptionMail = MailsOf<typeof subscriptionMails>;

/** The mail `mail` to the customer of `s`, to write with the step that tells of it, dated `at` (none without an address). */
export const customerMail = (s: Pick<Subscription, 'customerEmail'>, mail: SubscriptionMail, at: string): TransactItem[] =>
  s.customerEmail ? [outboxMail(s.customerEmail, mail, at)] : [];

/** What every mail of `s` names, and where its customer's billing portal is. */
export const mailAbout = (organization: Pick<Merchant, 'name'>, s: Pick<Subscription, 'id' | 'name' | 'currency' | 'organizationId'>): About & Portal => ({
  subscriptionId: s.id,
  name: s.name,
  seller: organization.name,
  currency: s.currency,
  portalUrl: `${config.publicOrigin}${portalPath(s.organizationId)}`,
});
