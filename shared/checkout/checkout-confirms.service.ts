/**
 * Paying at checkout: confirms of a plan's session and of an order — for the public buyer checkout and the
 * merchant API's twins alike (sessions, quotes and receipts are in checkout-sessions.ts, checkout-quotes.ts and
 * checkout-receipts.ts).
 *
 * A confirm runs on the payment engine (`./charges.ts`) under the operation `checkout`, keyed by what is paid
 * and the card token (or saved instrument) paying it: a repeat of one confirm replays its answer and never
 * charges twice, and a confirm with a fresh token after a decline is a new payment. Its claim writes, besides the
 * transaction:
 * - the token's single use;
 * - the payment lock of the order or session (`status = open`, not being paid): of concurrent confirms, one
 *   charges and the others get 409; a paid order or session gets 409;
 * - the promo code's redemption (below `maxRedemptions`, active, unexpired), given back if the payment fails;
 * - for a buyer seen for the first time by this merchant, the customer, its e-mail pointer and `customer.created`.
 * Its settlement marks the order or session paid (or opens it again), and the engine writes `payment.completed`
 * (with `orderId` for an order, null for a plan) or `payment.failed`.
 *
 * A recurring plan's confirm also starts its subscription (shared/subscriptions/checkout.service.ts), exactly once:
 * - a card token becomes the customer's saved payment instrument in the claim (the token's one use), and the
 *   payment charges that instrument; a merchant-API confirm's `paymentInstrumentId` is the subscription's;
 * - the claim fixes the subscription (its id on the transaction's `subscriptionId`, what it will be in the
 *   checkout breakdown), and the settlement of a completed payment writes it with `subscription.created` — so
 *   the confirm, a retry of it or the reconciler all write it once, and a decline writes none;
 * - with nothing due today (a trial without a setup fee) nothing is charged: one transaction writes the key's
 *   record `completed` with the answer, the token's use and the instrument, the new customer, the session paid and
 *   the subscription in its trial. A repeat of the confirm replays that answer, as it would a payment's.
 *
 * The amount charged is what is due today: the lines due today less the promo discount, plus tax for the billing
 * address (per line, half-even; 422 `checkout.tax_unavailable` when no rate is known).
 *
 * A payment's receipt (./receipts.repository.ts) is written with its claim, keeping what the buyer was shown of the
 * seller (the checkout's display name, and the platform as seller of record); the settlement of a completed payment
 * gives it the organization's next receipt number (`R-000123`).
 */
import { v7 as uuidv7 } from 'uuid';
import { config } from '../platform/config.ts';
import { sellerOfRecord } from '../platform/seller-of-record.ts';
import {
  findCardToken,
  consumeCardToken,
  type CardToken,
  cardTokenTransactionError,
  findCheckoutBuyer,
  findCustomer,
  putCheckoutBuyer,
  putNewCustomer,
  findPaymentInstrument,
  instrumentFromCardToken,
  putNewPaymentInstrument,
  type PaymentInstrument,
  customerFromEmail,
} from '../customers/index.ts';
import type { CheckoutSession } from './checkout-session.entity.ts';
import * as sessions from './checkout-sessions.repository.ts';
import { cancelledPartItem, failedParts, type NamedParts, partItems } from '../platform/db/transactions.ts';
import { markInvoicePaid } from '../invoicing/index.ts';
import { lockForPayment, payableOrder, payableSession, paymentRefusalOf, payWithoutCharge, settlePayment } from '../platform/db/payment-locks.ts';
import { getPromoCodeById, redeemPromoCode, releasePromoRedemption, type PromoCode, type Plan } from '../catalog/index.ts';
import { type Transaction, INITIAL_STATUS, requestFingerprint, charge, type ChargeKind, type NewCharge, type NothingToCharge } from '../payments/index.ts';
import type { TransactItem } from '../platform/db/types.ts';
import {
  applyPromo,
  isCheckoutSessionId,
  orderLines,
  nothingDueToday,
  planLines,
  planTerms,
  promoRefusal,
  promoRefusalError,
  type QuoteLine,
} from './checkout.rules.ts';
import { ConflictError, type DomainError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import { type Merchant, refuseUnlessLive } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { ORDER_LIMITS, type Order } from './orders.rules.ts';
import { checkoutOrderNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { processorFor } from '../processor/index.ts';
import {
  checkoutClockOffset,
  checkoutSubscription,
  checkoutSubscriptionInvoice,
  checkoutSubscriptionItems,
  type CheckoutSubscription,
} from '../subscriptions/index.ts';
import { checkoutOrderOf, purchasablePlan, type CheckoutContext } from './checkout.service.ts';
import { addressOf, findPromo, taxLines, usablePromo, withIncludedTax, type BillingAddressInput } from './checkout-pricing.service.ts';
import { type CheckoutCustomization, checkoutDisplayName, customizationOf } from '../organizations/index.ts';
import * as receipts from './receipts.repository.ts';
import { receiptMail } from './receipt.mails.ts';
import { outboxMail } from '../platform/mail/outbox.ts';

const sessionNotFound = () => new NotFoundError('checkout.session_not_found', 'No checkout session with this id for this plan: start a new one.');

/**
 * The checkout engine's kind: settlement marks the order or session paid (or opens it again) and gives back a
 * promo redemption; a paid order that pays a customer invoice marks that invoice paid too; a paid recurring plan
 * starts its subscription. All it needs is in the claimed transaction (`checkout`), so the reconciler settles a
 * confirm the same way.
 */
export const checkoutKind: ChargeKind = {
  operation: 'checkout',
  async settleItems(t, organization) {
    const paidAt = t.status === 'completed' ? t.processedAt : null;
    const invoiceId = t.checkout?.invoiceId;
    const items: TransactItem[] = [];
    if (t.orderId) items.push(settlePayment(payableOrder(t.orderId), t.id, paidAt));
    if (t.orderId && invoiceId && paidAt) items.push(markInvoicePaid(invoiceId, t.orderId, paidAt));
    if (t.checkout?.sessionId) items.push(settlePayment(payableSession(t.checkout.sessionId), t.id, paidAt));
    if (!paidAt && t.checkout?.promoCodeId) items.push(releasePromoRedemption(t.checkout.promoCodeId));
    if (paidAt && t.checkout?.subscription) {
      // The subscription it starts, and the payment's invoice (its first period's, or a trial's setup fee's).
      items.push(
        ...checkoutSubscriptionItems(organization, t.checkout.subscription, paidAt, t.id),
        ...(await checkoutSubscriptionInvoice(organization, t.checkout.subscription, paidAt, t.id)),
      );
    }
    if (paidAt) {
      // The receipt's number: taken now (one atomic increment), given in this transaction; and the receipt mailed
      // to the buyer with it, as the seller was shown at the claim.
      const [n, stored] = await Promise.all([receipts.takeReceiptNumber(t.organizationId), t.customerEmail ? receipts.getReceipt(t.id) : null]);
      items.push(...receipts.numberReceipt(t.id, t.organizationId, n, paidAt));
      if (t.customerEmail && stored?.seller) items.push(outboxMail(t.customerEmail, receiptMail(t, stored.seller, n), paidAt));
    }
    return items;
  },
  success: (t) => ({ status: 200, body: confirmationView(t) }),
  // A confirm has no key of its own: the session (or order) and the card (token or saved instrument) are it.
  keyReused: () =>
    new UnprocessableError(
      'idempotency.key_reused',
      'This checkout was already confirmed with this card and other details: send that same confirm again to get its result.',
    ),
};

/**
 * Where a receipt of the transaction `transactionId` is read: the buyer checkout's URL, or the merchant API's for a
 * merchant-API confirm.
 */
function receiptUrlOf(transactionId: string, purchase: Pick<Purchase, 'order' | 'planId'>, ctx: CheckoutContext, merchantId?: string): string {
  if (merchantId) return `${ctx.origin}/api/v1/public-api/merchants/${merchantId}/checkout/plans/${purchase.planId}/receipts/${transactionId}`;
  return purchase.order
    ? `${ctx.origin}/api/v1/checkout/orders/${purchase.order.id}/receipts/${transactionId}`
    : `${ctx.origin}/api/v1/checkout/plans/${purchase.planId}/receipts/${transactionId}`;
}

function confirmationView(t: Transaction) {
  const c = t.checkout!;
  const major = (minor: number) => toMajorUnits(minor, t.currency);
  return {
    status: 'completed' as const,
    transactionId: t.id,
    receiptId: t.id,
    receiptUrl: c.receiptUrl,
    orderId: t.orderId,
    planId: t.planId,
    currency: t.currency,
    subtotal: major(c.subtotalMinor),
    discount: major(c.discountMinor),
    tax: major(c.taxMinor),
    amount: major(t.amountMinor),
    promoCode: c.promoCode,
    card: { brand: t.card!.brand, last4: t.card!.last4 },
    paidAt: t.processedAt!,
    subscriptionId: t.subscriptionId,
    trial: null,
  };
}

/**
 * A trial started at checkout, as its confirmation tells the buyer: when it ends (the organization's clock time), and
 * its first charge — the plan's price × quantity with tax for the billing address at the rate in force on that day —
 * or null when nothing is charged after it (a trial-only plan). Null without a trial (a plan discounted to nothing).
 */
function startedTrial(purchase: Purchase, started: CheckoutSubscription) {
  const s = started.subscription;
  const endsAt = s.trialEndAt;
  if (!endsAt) return null;
  if (s.isTrialOnly) return { endsAt, firstCharge: null };
  const line: QuoteLine = { type: 'plan', description: s.name, quantity: 1, unitAmount: s.priceMinor, amount: s.priceMinor, discount: 0, dueToday: true };
  const tax = taxLines([line], purchase.currency, purchase.billingAddress, new Date(endsAt)).taxDueToday!;
  const major = (minor: number) => toMajorUnits(minor, purchase.currency);
  return { endsAt, firstCharge: { at: endsAt, subtotal: major(s.priceMinor), tax: major(tax), amount: major(s.priceMinor + tax) } };
}

/**
 * The confirmation of a recurring plan with nothing due today: its subscription started, nothing charged, no receipt;
 * `today` is what was due (a first period a promo code took to nothing: its price, the discount and the code).
 */
function startedView(
  purchase: Purchase,
  card: { brand: string; last4: string },
  started: CheckoutSubscription,
  today: { subtotalMinor: number; discountMinor: number; promoCode: string | null },
) {
  const major = (minor: number) => toMajorUnits(minor, purchase.currency);
  return {
    status: 'completed' as const,
    transactionId: null,
    receiptId: null,
    receiptUrl: null,
    orderId: null,
    planId: purchase.planId,
    currency: purchase.currency,
    subtotal: major(today.subtotalMinor),
    discount: major(today.discountMinor),
    tax: 0,
    amount: 0,
    promoCode: today.promoCode,
    card: { brand: card.brand, last4: card.last4 },
    paidAt: null,
    subscriptionId: started.subscription.id,
    trial: startedTrial(purchase, started),
  };
}

/** What pays: a card token (single use) or, through the merchant API, a saved payment instrument. */
type PaymentSource = { token: string } | { paymentInstrumentId: string };

/** What a confirm pays, priced: the lines due today, the promo code, and the target (order or session). */
interface Purchase {
  merchant: Merchant;
  currency: string;
  email: string;
  lines: QuoteLine[];
  promo: PromoCode | null;
  billingAddress: BillingAddressInput;
  order: Order | null;
  session: CheckoutSession | null;
  planId: string | null;
  /** The plan of a plan confirm (a recurring one starts a subscription), and its quantity. */
  plan: Plan | null;
  quantity: number;
  description: string;
  /** Where the confirm was asked (its receipt URL's origin), and the merchant of a merchant-API confirm. */
  ctx: CheckoutContext;
  /** The merchant's checkout customization as the confirm read it: its display name goes on the receipt. */
  customization: CheckoutCustomization;
  merchantId?: string | undefined;
}

const instrumentNotFound = () => new NotFoundError('payment_instrument.not_found', 'No payment instrument with this id exists for this merchant.');

/**
 * The parts of a confirm's claim, in order: the card token's use, the payment lock of the order or session, the promo
 * code's redemption, the customer (a new one and its event, or a returning one's primary instrument), the new buyer's
 * pointer, the saved instrument, and the payment's receipt.
 */
type ClaimPart = 'token' | 'lock' | 'promo' | 'customer' | 'buyer' | 'instrument' | 'receipt';

/**
 * Builds the new charge of `purchase`: reads the source, the buyer and the promo code's state (and, for a recurring
 * plan, the organization's clock) at once. A recurring plan with nothing due today builds no charge but what
 * starts its subscription, written at once.
 */
async function prepareCharge(purchase: Purchase, source: PaymentSource, key: string, now: string): Promise<NewCharge | NothingToCharge> {
  const { merchant } = purchase;
  refuseUnlessLive(merchant);
  const recurring = purchase.plan?.recurringInterval ? purchase.plan : null;
  const [token, instrument, buyerCustomerId, offsetMs] = await Promise.all([
    'token' in source ? findCardToken(merchant.id, source.token) : Promise.resolve(null),
    'paymentInstrumentId' in source ? findPaymentInstrument(merchant.id, source.paymentInstrumentId) : Promise.resolve(null),
    'token' in source ? findCheckoutBuyer(merchant.id, purchase.email) : Promise.resolve(null),
    recurring ? checkoutClockOffset(merchant.id) : Promise.resolve(0),
  ]);
  const claimParts: [ClaimPart, TransactItem[]][] = [];
  if ('token' in source) {
    const usable = usableToken(token, now);
    claimParts.push(['token', [consumeCardToken(merchant.id, usable.id, now)]]);
  } else if (!instrument || instrument.deletedAt || !instrument.creditCard) {
    throw instrumentNotFound();
  }

  // An order that pays an invoice carries the invoice's own tax: charged as it is, never taxed again.
  const includedTax = purchase.order?.includedTaxMinor;
  const t =
    includedTax === undefined
      ? taxLines(purchase.lines, purchase.currency, purchase.billingAddress, new Date(now))
      : withIncludedTax(purchase.lines, includedTax);
  const dueToday = t.lines.filter((l) => l.dueToday);
  const amountMinor = t.subtotalDueToday + t.taxDueToday!;
  if (amountMinor <= 0 && !recurring) {
    throw nothingDueToday();
  }
  if (toMajorUnits(amountMinor, purchase.currency) > ORDER_LIMITS.maxTotal) {
    throw new UnprocessableError('checkout.amount_over_limit', `A checkout payment is at most ${ORDER_LIMITS.maxTotal} ${purchase.currency}.`, {
      maxTotal: ORDER_LIMITS.maxTotal,
    });
  }
  // Nothing due today (a recurring plan's trial without a setup fee): the session is paid with nothing charged.
  const charged = amountMinor > 0;

  const transactionId = uuidv7();
  const target = purchase.order ? payableOrder(purchase.order.id) : payableSession(purchase.session!.id);
  claimParts.push([
    'lock',
    [!charged ? payWithoutCharge(target, now, now) : purchase.order ? lockForPayment(target, transactionId) : lockForPayment(target, transactionId, now)],
  ]);
  // A promo code is redeemed when it discounted what is due today, whether anything is left to charge or not (a code
  // that takes a recurring plan's first period to nothing); one that discounted nothing (a trial without a setup
  // price) is checked, not redeemed.
  const today = { subtotalMinor: dueToday.reduce((n, l) => n + l.amount, 0), discountMinor: dueToday.reduce((n, l) => n + l.discount, 0) };
  const redeemed = purchase.promo && today.discountMinor > 0 ? purchase.promo : null;
  if (redeemed) claimParts.push(['promo', [redeemPromoCode(redeemed.id, now)]]);

  // The customer: the instrument's, the buyer's from an earlier checkout, or a new one made by this payment.
  let customerId = instrument?.customerId ?? buyerCustomerId;
  let customer: { name: string | null; email: string | null } = { name: null, email: purchase.email };
  // A recurring plan's card token becomes the customer's saved instrument, which pays and renews (its primary
  // instrument when it has none, once it has paid: the payment's settlement makes it so, never a declined card's).
  let saved: PaymentInstrument | null = null;
  if (!customerId) {
    const made = customerFromEmail(merchant, purchase.email, now);
    customerId = made.id;
    customer = { name: null, email: made.email };
    saved = recurring && token ? instrumentFromCardToken(made.id, token, now) : null;
    claimParts.push(
      ['customer', [putNewCustomer(made), outboxEvent('customer.created', merchant, { customerId: made.id, email: made.email }, now)]],
      ['buyer', [putCheckoutBuyer(merchant.id, purchase.email, made.id, now)]],
    );
  } else if (recurring) {
    const known = await findCustomer(merchant.id, customerId);
    if (known) customer = { name: [known.firstName, known.lastName].filter(Boolean).join(' ') || null, email: known.email };
    if (token) saved = instrumentFromCardToken(customerId, token, now);
  }
  if (saved) claimParts.push(['instrument', [putNewPaymentInstrument(saved)]]);
  const paying = saved ?? instrument;
  const card = paying?.creditCard ?? token!;

  const subscription = recurring
    ? checkoutSubscription(merchant, {
        plan: recurring,
        quantity: purchase.quantity,
        customer: { id: customerId, ...customer },
        paymentInstrumentId: paying?.id ?? null,
        billingAddress: purchase.billingAddress,
        // What the first period is worth: its plan line as paid today, less the promo code's discount (none in a trial).
        periodValueMinor: dueToday.filter((l) => l.type === 'plan').reduce<number | null>((n, l) => (n ?? 0) + l.amount - l.discount, null),
        // What is charged, as the payment's invoice shows it: a discounted line at what it came to, each taxed at the rate.
        charged: charged
          ? {
              lines: dueToday.map((l) => ({
                ...(l.discount > 0
                  ? {
                      description: `${l.description}${l.quantity > 1 ? ` × ${l.quantity}` : ''} (promo code ${purchase.promo!.code})`,
                      quantity: 1,
                      unitPriceMinor: l.amount - l.discount,
                    }
                  : { description: l.description, quantity: l.quantity, unitPriceMinor: l.unitAmount }),
                // The plan's line pays the first period: its invoice names the period's dates.
                ...(l.type === 'plan' ? { period: true } : {}),
              })),
              rate: t.rate,
            }
          : null,
        now,
        offsetMs,
      })
    : null;

  // Why the claim was refused: `reasons` are those of `parts`, the items the engine sends after its own.
  const refusalOf = (parts: NamedParts<ClaimPart | 'subscription'>) => async (reasons: readonly string[], e: unknown) => {
    const failed = failedParts(reasons, parts)!;
    if (failed.has('token')) return cardTokenTransactionError(e, parts, 'token', merchant.id, now);
    if (failed.has('lock')) return lockRefusal(purchase, cancelledPartItem(e, parts, 'lock'), now);
    if (failed.has('promo')) {
      const current = await getPromoCodeById(purchase.promo!.id);
      return promoRefusalError(promoRefusal(current, purchase.planId ?? '', purchase.currency, now) ?? 'exhausted');
    }
    // Another first payment of this buyer made the customer first: prepare again, as a returning buyer.
    if (failed.has('buyer')) return 'retry';
    return null;
  };

  if (!charged) {
    const started = subscription!;
    const parts: NamedParts<ClaimPart | 'subscription'> = [...claimParts, ['subscription', checkoutSubscriptionItems(merchant, started, now, null)]];
    return {
      nothingToCharge: true,
      resourceId: started.subscription.id,
      items: partItems(parts),
      answer: { status: 200, body: startedView(purchase, card, started, { ...today, promoCode: redeemed?.code ?? null }) },
      refusal: refusalOf(parts),
    };
  }

  claimParts.push([
    'receipt',
    [
      receipts.putClaimedReceipt(
        transactionId,
        merchant.id,
        { merchantName: checkoutDisplayName(merchant, purchase.customization), sellerOfRecord: sellerOfRecord() },
        now,
      ),
    ],
  ]);
  const transaction: Transaction = {
    id: transactionId,
    organizationId: merchant.id,
    status: INITIAL_STATUS,
    amountMinor,
    currency: purchase.currency,
    description: purchase.description,
    customerId,
    customerName: null,
    customerEmail: purchase.email,
    paymentInstrumentId: paying?.id ?? null,
    tokenId: token?.id ?? null,
    paymentMethod: 'payment-card',
    paymentType: 'sale',
    gatewayName: processorFor(config.stage).name,
    card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
    processorReference: paying?.processorReference ?? token!.processorReference,
    externalTransactionId: null,
    declineReason: null,
    subscriptionId: subscription?.subscription.id ?? null,
    orderId: purchase.order?.id ?? null,
    planId: purchase.planId,
    checkout: {
      sessionId: purchase.session?.id ?? null,
      lines: dueToday.map((l) => ({ description: l.description, quantity: l.quantity, unitAmountMinor: l.unitAmount, amountMinor: l.amount })),
      subtotalMinor: today.subtotalMinor,
      discountMinor: today.discountMinor,
      taxMinor: t.taxDueToday!,
      ...(t.rate === null ? {} : { taxRate: t.rate }),
      promoCode: redeemed?.code ?? null,
      promoCodeId: redeemed?.id ?? null,
      billingCountry: purchase.billingAddress.country.toUpperCase(),
      invoiceId: purchase.order?.invoiceId ?? null,
      receiptUrl: receiptUrlOf(transactionId, purchase, purchase.ctx, purchase.merchantId),
      subscription,
    },
    idempotencyKey: key,
    isTestData: merchant.mode === 'test',
    processedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return { transaction, claimItems: partItems(claimParts), refusal: refusalOf(claimParts) };
}

/** 404/409/422 for a card token that cannot pay (checked before the claim, which checks again). */
function usableToken(token: CardToken | null, now: string): CardToken {
  if (!token) throw new NotFoundError('card_token.not_found', 'No card token with this id exists for this merchant.');
  if (token.consumedAt) throw new ConflictError('card_token.already_used', 'This card token has already been used: tokenize the card again.');
  if (token.expiratedAt <= now) throw new UnprocessableError('card_token.expired', 'This card token has expired: tokenize the card again.');
  return token;
}

/** Why the order or session could not be locked for this payment. */
function lockRefusal(purchase: Purchase, old: Record<string, unknown> | undefined, now: string): DomainError {
  const what = purchase.order ? 'order' : 'session';
  const refusal = paymentRefusalOf(old);
  if (refusal === 'paid') return alreadyPaid(what);
  if (refusal === 'missing') return purchase.order ? checkoutOrderNotFound() : sessionNotFound();
  if (refusal === 'closed') {
    return new UnprocessableError('checkout.order_not_payable', 'The invoice this order pays was voided or marked uncollectible: it can no longer be paid.');
  }
  if (!purchase.order && typeof old?.expiresAt === 'string' && old.expiresAt <= now) return sessionExpired();
  return new ConflictError('checkout.payment_in_progress', `Another payment of this ${what} is in progress: wait for its result before paying again.`);
}

const alreadyPaid = (what: 'order' | 'session') => new ConflictError(`checkout.${what}_already_paid`, `This ${what} has already been paid.`);
const sessionExpired = () => new UnprocessableError('checkout.session_expired', 'This checkout session has expired: start a new one.');
const priceChanged = () =>
  new ConflictError('checkout.price_changed', "The plan's price changed after this checkout began, and nothing was charged: start again to see the new price.");

const paymentKey = (target: string, source: PaymentSource) => `${target}:${'token' in source ? source.token : `instrument:${source.paymentInstrumentId}`}`;

const sourceOf = (input: { token?: string | undefined; paymentInstrumentId?: string | undefined }): PaymentSource =>
  input.token !== undefined ? { token: input.token } : { paymentInstrumentId: input.paymentInstrumentId! };

export interface PlanConfirmInput {
  sessionId: string;
  token?: string | undefined;
  paymentInstrumentId?: string | undefined;
  promoCode?: string | undefined;
  billingAddress?: BillingAddressInput | undefined;
}

/**
 * `POST /checkout/plans/{planId}/confirm` (and the merchant API's twin, `merchantId`): pays the session's plan.
 * 200 with the confirmation; 402 `payment.declined` with the reason (the session stays open for another card);
 * 404 `checkout.session_not_found`; 409 `checkout.session_already_paid` / `checkout.payment_in_progress`;
 * 422 `checkout.session_expired`, `checkout.promo_code_*`, `checkout.tax_unavailable`. A recurring plan starts its
 * subscription (see the top); with nothing due today it answers 200 with nothing charged.
 */
export async function confirmPlan(planId: string, input: PlanConfirmInput, ctx: CheckoutContext, merchantId?: string) {
  if (!isCheckoutSessionId(input.sessionId)) throw sessionNotFound();
  const [{ plan, merchant, alongside: customization }, session] = await Promise.all([
    purchasablePlan(planId, merchantId, customizationOf),
    sessions.getCheckoutSession(input.sessionId),
  ]);
  if (!session || session.planId !== plan.id || session.merchantId !== merchant.id) throw sessionNotFound();
  const source = sourceOf(input);
  const billingAddress = input.billingAddress ?? session.billingAddress;
  const key = paymentKey(`session:${session.id}`, source);
  return (
    await charge({
      kind: checkoutKind,
      organization: merchant,
      key,
      requestHash: requestFingerprint({ planId, ...input, billingAddress: addressOf(billingAddress) }),
      // A paid or expired session is refused here, unless this very confirm paid it: then its answer is replayed.
      prepare: async (now) => {
        if (session.status === 'paid') throw alreadyPaid('session');
        if (session.expiresAt <= now) throw sessionExpired();
        if (session.terms !== undefined && session.terms !== planTerms(plan, session.quantity)) throw priceChanged();
        const promo = input.promoCode === undefined ? null : usablePromo(await findPromo(merchant.id, input.promoCode), plan, now);
        const lines = planLines(plan, session.quantity);
        return prepareCharge(
          {
            merchant,
            currency: plan.currency,
            email: session.email,
            lines: promo ? applyPromo(lines, promo) : lines,
            promo,
            billingAddress,
            order: null,
            session,
            planId: plan.id,
            plan,
            quantity: session.quantity,
            description: plan.name,
            ctx,
            customization,
            merchantId,
          },
          source,
          key,
          now,
        );
      },
    })
  ).body;
}

export interface OrderConfirmInput {
  email: string;
  token: string;
  billingAddress: BillingAddressInput;
}

/**
 * `POST /checkout/orders/{orderId}/confirm`: pays the open order, once (its body takes no promo code: a 400); 409 `checkout.order_already_paid` / `checkout.payment_in_progress`; 402, 422 as for plans.
 */
export async function confirmOrder(orderId: string, input: OrderConfirmInput, ctx: CheckoutContext) {
  const { order, merchant, alongside: customization } = await checkoutOrderOf(orderId, customizationOf);
  const source: PaymentSource = { token: input.token };
  const key = paymentKey(`order:${order.id}`, source);
  return (
    await charge({
      kind: checkoutKind,
      organization: merchant,
      key,
      requestHash: requestFingerprint({ orderId, ...input, billingAddress: addressOf(input.billingAddress) }),
      prepare: (now) =>
        order.status === 'paid'
          ? Promise.reject(alreadyPaid('order'))
          : prepareCharge(
              {
                merchant,
                currency: order.currency,
                email: input.email,
                promo: null,
                billingAddress: input.billingAddress,
                order,
                session: null,
                planId: null,
                plan: null,
                quantity: 1,
                lines: orderLines(order),
                description: `Order ${order.id}`,
                ctx,
                customization,
              },
              source,
              key,
              now,
            ),
    })
  ).body;
}
